"""`/` pressed while a filter box already has the keys: a leading `/` on an
empty box is the habit of pressing `/` twice (as `less` takes `//word`), so
it is swallowed and the box keeps the keys; past that, `/` types, because
the rows hold paths (an item's text, a log reason, a ledger's repair command)."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.widgets.filter_box import FilterBox
from daimon_tui.ui.widgets.row_filter import RowFilter
from tests.ui.settle import press_settled, settle

NOW = demo.DEMO_NOW.timestamp()


def _keys(table: DataTable) -> list[str | None]:
    return [row.key.value for row in table.ordered_rows]


async def test_a_second_slash_in_a_table_filter_is_not_typed(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        box = screen.query_one(RowFilter)
        await press_settled(pilot, "slash", "slash", *"day2")
        assert box.has_focus and box.value == "day2"
        await press_settled(pilot, "enter")
        assert _keys(screen.query_one("#history-table", DataTable)) == ["S-day2"]


async def test_a_slash_inside_a_table_query_types(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        box = app.screen.query_one(RowFilter)
        await press_settled(pilot, "slash", *"src/app.py", "slash")
        assert box.has_focus and box.value == "src/app.py/"


async def test_a_second_slash_in_the_briefing_filter_is_not_typed(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        box = screen.query_one("#filter", FilterBox)
        await press_settled(pilot, "slash", "slash", *"bucket", "enter")
        assert box.value == "bucket"
        texts = [r.item.text for r in screen.rows if r.item is not None]
        assert texts and all("bucket" in t for t in texts) and len(texts) < len(screen.briefing.items())
