"""World-check results in the detail pane: each claim, the words that made it,
the result and its evidence."""

from __future__ import annotations

from datetime import UTC, datetime

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from daimon_tui.domain.inert import inert
from daimon_tui.domain.probes import Outcome
from daimon_tui.domain.worldcheck import ItemResult

STYLES = {Outcome.CONFIRMED: ("✓ confirmed", "bold green"), Outcome.CONTRADICTED: ("✗ contradicted", "bold red"),
          Outcome.UNKNOWN: ("? unknown", "yellow")}


def world_renderable(result: ItemResult, checked_at: float) -> RenderableType:
    when = datetime.fromtimestamp(checked_at, UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    title = Text(f"World-check (git and files, offline) at {when}", style="bold underline")
    if not result.results:
        return Group(title, Text("no checkable claim in this item", style="dim"))
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column(width=16, no_wrap=True)
    table.add_column(ratio=1)
    for claim_result in result.results:
        label, style = STYLES[claim_result.outcome]
        claim = claim_result.claim
        table.add_row(Text(label, style=style),
                      Text(f"{claim.kind.value} {claim.expect.value}: “{inert(claim.words, limit=120)}”"))
        table.add_row(Text(""), Text(claim_result.finding.evidence, style="dim"))
    hint = Text("")
    if result.contradicted:
        hint = Text("r resolves with the status prefilled; v reverifies with evidence", style="italic yellow")
    return Group(title, table, hint)
