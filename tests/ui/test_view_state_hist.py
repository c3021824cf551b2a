"""Issue 39, Deliver point 2: the History view holds its data in one state
object (`ui/history/state.py`), and the screen keeps none of it beside."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.history.state import HistoryState
from tests.ui.settle import press_settled, settle

NOW = demo.DEMO_NOW.timestamp()


def _keys(table: DataTable) -> list[str | None]:
    return [row.key.value for row in table.ordered_rows]


async def test_history_holds_its_rows_filter_and_mark_only_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen) and isinstance(screen.state, HistoryState)
        table = screen.query_one("#history-table", DataTable)
        # The table shows the state's rows, and the screen keeps no copy of its own.
        assert [r.session_id for r in screen.state.rows] == _keys(table) == ["S-day3", "S-day2", "S-day1"]
        for name in ("rows", "diagnostics", "marked"):
            assert not hasattr(screen, name), name

        await press_settled(pilot, "space")
        assert screen.state.marked == "S-day3"
        assert str(table.get_cell("S-day3", "mark")) == "●"

        # The filter the rows are drawn under is the state's.
        await press_settled(pilot, "/", *"day2", "enter")
        assert screen.state.query.matches(("S-day2",)) and not screen.state.query.matches(("S-day3",))
        assert [r.session_id for r in screen.state.shown()] == _keys(table) == ["S-day2"]
