"""Corroboration witnesses of one item: who saw it, when, and whether it still counts."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models.history import Demotion, WitnessReport
from daimon_tui.ui.widgets.by_width import table_by_width

_DEMOTION_WORD = {
    "resolution": "resolution",
    "supersession": "supersession",
    "supersede-candidate": "supersede candidate",
    "tombstone": "forget tombstone",
}


def _safe(value: object, limit: int = 80) -> str:
    return inert(value, limit=limit) if value else "—"


def demotion_text(demotion: Demotion) -> Text:
    parts = [_DEMOTION_WORD[demotion.kind], _safe(demotion.ts, 24), f"via {_safe(demotion.source, 20)}"]
    return Text(" ".join(parts))


def counts_text(report: WitnessReport) -> Text:
    """Both of daimon's numbers, each with what it means."""
    text = Text()
    if report.badge_shown:
        text.append(f"≈ corroborated ×{report.badge}", style="bold green")
    else:
        text.append("no corroboration badge", style="dim")
    text.append(f"  (badge = 1 + {report.counted} counted witness(es); shown from ×{report.badge_min})\n")
    text.append(f"why count: {report.counted}", style="bold")
    text.append("  (daimon why: witnesses recorded after the latest demotion)")
    if report.latest_demotion_ts:
        text.append(f"\nlatest demotion: {_safe(report.latest_demotion_ts, 24)}", style="yellow")
    if report.introspection_origin:
        text.append("\nfirst written by a provisional session: never corroborates", style="yellow")
    return text


def witness_renderable(report: WitnessReport) -> RenderableType:
    table = Table(box=None, pad_edge=False, expand=True, show_edge=False)
    table.add_column("session", no_wrap=True)
    table.add_column("recorded", no_wrap=True)
    table.add_column("counts", no_wrap=True)
    table.add_column("reset by / quote", ratio=1)
    short = shortest_unique(w.session_id for w in report.witnesses if w.session_id)
    rows: list[tuple[list[Text], Text]] = []
    for w in report.witnesses:
        counts = Text("✓ counts", style="green") if w.counts else Text("✗ reset", style="red")
        if w.reset_by is not None:
            why = demotion_text(w.reset_by)
        elif not w.counts:
            why = Text("not counted by daimon", style="dim")
        else:
            why = Text("")
        if w.quote:
            # newlines as lines, as the header shows the same quote
            quote = inert(w.quote, limit=200, keep_newlines=True)
            why.append(("\n" if why.plain else "") + f'"{quote}"', style="italic")
        elif not w.session_retained:
            why.append(("\n" if why.plain else "") + "(session no longer retained)", style="dim")
        cells = [Text(_safe(short.get(w.session_id or "", w.session_id), 40)), Text(_safe(w.ts, 24)), counts]
        table.add_row(*cells, why)
        rows.append((cells, why))
    parts: list[RenderableType] = [Text("Corroboration", style="bold underline"), counts_text(report)]
    if report.item_quote:
        parts.append(Text(f'item quote: "{inert(report.item_quote, limit=200, keep_newlines=True)}"', style="italic"))
    if report.witnesses:
        # in a narrow pane the reset/quote column goes under its row, at full width
        parts.append(table_by_width(table, ("session", "recorded", "counts"), rows))
    else:
        parts.append(Text("no witness recorded", style="dim"))
    parts.extend(Text(f"⚠ {inert(d.message)}", style="yellow") for d in report.diagnostics)
    return Group(*parts)


class WitnessList(Static):
    """Renders a `WitnessReport` (inert text only)."""

    def __init__(self, report: WitnessReport | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report = report

    def on_mount(self) -> None:
        if self.report is not None:
            self.show(self.report)

    def show(self, report: WitnessReport) -> None:
        self.report = report
        self.update(witness_renderable(report))
