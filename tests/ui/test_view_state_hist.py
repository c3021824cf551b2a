"""Issue 39, Deliver point 2: the History view holds its data in one state
object (`ui/history/state.py`), and the screen keeps none of it beside."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.history.screen import DiffScreen, HistoryScreen
from daimon_tui.ui.history.state import DiffState, HistoryState
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


async def test_the_diff_holds_daimons_change_rows_only_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        await press_settled(pilot, "space", "j", "j", "d")  # S-day3 marked, the cursor on S-day1
        await settle(pilot, rounds=4)
        diff = app.screen
        assert isinstance(diff, DiffScreen) and isinstance(diff.state, DiffState)
        table = diff.query_one("#diff-table", DataTable)
        assert diff.state.rows and [str(table.get_row_at(n)[2]) for n in range(table.row_count)] == [
            row.item_id or "—" for row in diff.state.rows]
        for name in ("item_ids", "texts", "details"):
            assert not hasattr(diff, name), name


async def test_history_holds_the_session_under_the_cursor_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one("#history-table", DataTable)
        state = screen.state
        assert state.cursor == "S-day3"
        # The state follows j/k.
        await press_settled(pilot, "j", "j", "k")
        assert state.cursor == "S-day2" and table.cursor_row == 1
        # A reload and a filter that leaves it keep the session; the filter cleared, it is in its place again.
        await press_settled(pilot, "ctrl+r")
        await settle(pilot, rounds=4)
        assert state.cursor == "S-day2" and table.cursor_row == 1
        await press_settled(pilot, "slash", *"day2", "enter")
        assert state.cursor == "S-day2" and table.cursor_row == 0
        await press_settled(pilot, "slash", "escape")
        assert state.cursor == "S-day2" and table.cursor_row == 1
        # The table draws the state's cursor, and the keys act on it.
        state.cursor = "S-day1"
        screen.fill()
        await settle(pilot)
        assert state.cursor == "S-day1" and table.cursor_row == 2
        await press_settled(pilot, "space")
        assert state.marked == "S-day1"
        # A filter that hides it: the cursor is on the row the table shows.
        await press_settled(pilot, "slash", *"day3", "enter")
        assert state.cursor == "S-day3" and table.cursor_row == 0
        assert not hasattr(screen, "cursor")
