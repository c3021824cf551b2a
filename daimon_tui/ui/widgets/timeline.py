"""The lifecycle of one item: its events in daimon's fold order and the
retained sessions that stated or carried it."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models.history import Timeline
from daimon_tui.ui.widgets.by_width import table_by_width


def _safe(value: object, limit: int = 80) -> str:
    return inert(value, limit=limit) if value else "—"


def timeline_renderable(timeline: Timeline) -> RenderableType:
    parts: list[RenderableType] = [Text("Lifecycle", style="bold underline")]
    state = Text("state now: ")
    state.append(inert(timeline.lifecycle), style="bold")
    state.append(" — decided by ")
    state.append(inert(timeline.decided_by, limit=200))
    parts.append(state)
    if timeline.events:
        events = Table(box=None, pad_edge=False, expand=True, show_edge=False)
        events.add_column("", no_wrap=True, width=1)
        events.add_column("time", no_wrap=True)
        events.add_column("status", no_wrap=True)
        events.add_column("via", no_wrap=True)
        events.add_column("note", ratio=1)
        rows: list[tuple[list[Text], Text]] = []
        for e in timeline.events:
            cells = [
                Text("▶", style="bold") if e.decides else Text(" "),
                Text(_safe(e.ts, 24)),
                Text(_safe(e.status, 40), style="bold" if e.decides else ""),
                Text(_safe(e.source, 16)),
            ]
            note = Text(inert(e.note, limit=200) if e.note else "")
            events.add_row(*cells, note)
            rows.append((cells, note))
        # in a narrow pane the note goes under its row, at full width
        parts.append(table_by_width(events, (" ", "time", "status", "via"), rows))
    else:
        parts.append(Text("no lifecycle event recorded", style="dim"))
    if timeline.sessions:
        parts.append(Text("Sessions (retained pointers, newest first)", style="bold"))
        holds = Table(box=None, pad_edge=False, expand=True, show_edge=False)
        holds.add_column("pointer", no_wrap=True)
        holds.add_column("session", no_wrap=True)
        holds.add_column("created", no_wrap=True)
        holds.add_column("how", ratio=1)
        short = shortest_unique(i for h in timeline.sessions for i in (h.session_id, h.carried_from) if i)
        held: list[tuple[list[Text], Text]] = []
        for h in timeline.sessions:
            if h.withheld:
                how = Text("withheld here", style="dim")
            elif h.stated:
                how = Text(f"stated here ({_safe(h.trust or 'untagged', 12)})")
            else:
                how = Text(f"carried from {_safe(short.get(h.carried_from or '', h.carried_from), 40)}")
            where = (Text(_safe(h.ref, 10)), Text(_safe(short.get(h.session_id or "", h.session_id), 40)),
                     Text(_safe(h.created, 24)))
            holds.add_row(*where, how)
            held.append((list(where), how))
        parts.append(table_by_width(holds, ("pointer", "session", "created"), held))
    parts.extend(Text(f"⚠ {inert(d.message)}", style="yellow") for d in timeline.diagnostics)
    return Group(*parts)


class TimelineView(Static):
    """Renders a `Timeline` (inert text only)."""

    def __init__(self, timeline: Timeline | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.timeline = timeline

    def on_mount(self) -> None:
        if self.timeline is not None:
            self.show(self.timeline)

    def show(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.update(timeline_renderable(timeline))
