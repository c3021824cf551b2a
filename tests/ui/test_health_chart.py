"""Issue 40 point 3: Health's charts read against their table. Each session's
bar stands in that session's own column of the table, its height from zero
on the scale the row's label states (history only: now is drawn apart and
cannot squash it); a point not read yet is blank, not a zero; points fill in
as they are read."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.widgets import DataTable

from daimon_tui.models import ProjectRef
from daimon_tui.services.health import METRICS, NOW, HealthReport, SessionHealth
from daimon_tui.ui.health import screen as health_screen
from daimon_tui.ui.health.screen import HealthScreen
from tests.ui.settle import wait_until

GLYPH_EIGHTHS = {" ": 0, "▁": 1, "▂": 2, "▃": 3, "▄": 4, "▅": 5, "▆": 6, "▇": 7, "█": 8, "↑": 8}
PROJECT = ProjectRef(slug="-p", name="p")
# items per session: 6 must not look like zero, 35 and 36 must differ, now (90) must not set the scale
ITEMS = {"S-a": 6, "S-b": 0, "S-c": 23, "S-d": 35, "S-e": 36, "S-f": 1}
NOW_ITEMS = 90


def _point(sid: str, items: int, created: str | None) -> SessionHealth:
    counts = {key: 0 for key, _ in METRICS}
    counts["items"] = items
    counts["untagged"] = 1 if sid == "S-f" else 0
    return SessionHealth(session_id=sid, created=created, counts=counts)


def _report(read: int) -> HealthReport:
    """The report after `read` sessions were read (the rest not yet; now last)."""
    points = []
    for n, (sid, items) in enumerate(ITEMS.items()):
        created = f"2026-11-0{n + 1}T09:00:00Z"
        points.append(_point(sid, items, created) if n < read else SessionHealth(session_id=sid, created=created))
    points.append(_point(NOW, NOW_ITEMS, None) if read > len(ITEMS) else SessionHealth(session_id=NOW))
    return HealthReport(project=PROJECT, sessions=tuple(points), retained=40)


def _heights(cell: object, width: int) -> tuple[int, str]:
    """A chart cell drawn: its height in eighths of a line (every line of the
    bar's column summed) and its top glyph."""
    console = Console(width=width, color_system=None, legacy_windows=False)
    lines = console.render_lines(cell, console.options.update(width=width, height=3), pad=True)
    glyphs = ["".join(seg.text for seg in line).rstrip() or " " for line in lines]
    columns = {g[-1] for g in glyphs}
    assert columns <= set(GLYPH_EIGHTHS), glyphs
    return sum(GLYPH_EIGHTHS[g[-1]] for g in glyphs), glyphs[0][-1]


def _expected(items: int, top: int) -> int:
    """From the number alone: 24 eighths (3 lines) for the row's top, from zero; any non-zero at least one."""
    return 0 if items == 0 else min(24, max(1, round(items * 24 / top)))


class _Host(App):
    def __init__(self) -> None:
        super().__init__()
        self.step = asyncio.Event()

    def on_mount(self) -> None:
        self.push_screen(HealthScreen(PROJECT, now=0.0))


@pytest.fixture
def fed(monkeypatch: pytest.MonkeyPatch) -> _Host:
    host = _Host()

    async def as_read(project: ProjectRef, *, now: float | None = None) -> AsyncIterator[HealthReport]:
        yield _report(0)  # the columns at once
        await host.step.wait()
        yield _report(3)  # three sessions read
        await asyncio.sleep(0)
        host.step.clear()
        await host.step.wait()
        yield _report(len(ITEMS) + 1)  # every session, then now

    monkeypatch.setattr(health_screen, "health_as_read", as_read)
    return host


async def test_each_sessions_bar_stands_in_its_column_at_its_height(fed: _Host) -> None:
    async with fed.run_test(size=(160, 60)) as pilot:
        await wait_until(pilot, lambda: isinstance(fed.screen, HealthScreen) and fed.screen.query(DataTable),
                         what="the health screen")
        screen = fed.screen
        assert isinstance(screen, HealthScreen)
        table = screen.query_one("#health-table", DataTable)
        await wait_until(pilot, lambda: table.row_count > 0, what="the columns at once")
        keys = [str(c.key.value) for c in table.columns.values()]
        sessions = [k for k in keys if k in ITEMS]
        assert sessions == list(ITEMS), keys  # oldest left, one column each, in order
        assert keys[-1] == NOW and keys.index(NOW) > keys.index("S-f") + 1, keys  # now apart, after a gap

        # nothing read yet: every point blank (not drawn as zero), every number blank
        for sid in [*ITEMS, NOW]:
            assert _heights(table.get_cell("items-chart", sid), 5) == (0, " ")
            assert str(table.get_cell("items", sid)).strip() == ""

        fed.step.set()
        await wait_until(pilot, lambda: str(table.get_cell("items", "S-c")).strip() == "23", what="three points")
        read = dict(list(ITEMS.items())[:3])
        for sid, items in ITEMS.items():
            height, _top = _heights(table.get_cell("items-chart", sid), 5)
            assert height == (_expected(items, max(read.values())) if sid in read else 0), sid
            assert str(table.get_cell("items", sid)).strip() == (str(items) if sid in read else "")

        fed.step.set()
        await wait_until(pilot, lambda: screen.state.report is not None, what="the whole report")
        top = max(ITEMS.values())
        label = table.get_cell("items-chart", "label")
        plain = label.plain if isinstance(label, Text) else str(label)
        assert plain.split()[0] == str(top) and plain.split()[-2:] == ["0", "┤"], plain  # the scale, from zero
        for sid, items in ITEMS.items():
            assert str(table.get_cell("items", sid)).strip() == str(items)
            assert _heights(table.get_cell("items-chart", sid), 5)[0] == _expected(items, top), sid
        assert _heights(table.get_cell("items-chart", "S-a"), 5)[0] > 0  # 6 is not drawn as zero
        assert (_heights(table.get_cell("items-chart", "S-d"), 5)[0]
                < _heights(table.get_cell("items-chart", "S-e"), 5)[0])  # 35 below 36
        # one untagged item on a row of ones is a full bar; its scale says 1, not 23
        assert _heights(table.get_cell("untagged-chart", "S-f"), 5)[0] == 24
        # now above the history's scale: a full bar marked as cut, the history keeps its own scale
        assert _heights(table.get_cell("items-chart", NOW), 5) == (24, "↑")
        assert str(table.get_cell("items", NOW)).strip() == str(NOW_ITEMS)
        # the whole series, or a note that it is cut
        notes = screen.query_one("#health-notes").render()
        assert "34 older retained session(s) are not charted" in str(notes), str(notes)
