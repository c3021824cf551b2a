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
from daimon_tui.ui.widgets.by_width import LONG_MIN, ByWidth, stacked

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
    rows: list[tuple[list[Text], Text]] = []
    for claim_result in result.results:
        label, style = STYLES[claim_result.outcome]
        claim = claim_result.claim
        said = Text(f"{claim.kind.value} {claim.expect.value}: “{inert(claim.words, limit=120)}”")
        evidence = Text(claim_result.finding.evidence, style="dim")
        table.add_row(Text(label, style=style), said)
        table.add_row(Text(""), evidence)
        rows.append(([Text(label, style=style)], Text.assemble(said, "\n", evidence)))
    hint = Text("")
    if result.contradicted:
        hint = Text("r resolves with the status prefilled; v reverifies with evidence", style="italic yellow")
    # in a narrow pane the claim and its evidence go under the result, at full width
    return Group(title, ByWidth(table, stacked((), rows), min_width=16 + 1 + LONG_MIN), hint)
