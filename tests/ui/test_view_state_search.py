"""The Search view holds its data in one state object (issue 39, Deliver point 2):
the hits the list shows, the marks, the toggles and the last answer live in
`screen.state`, and nowhere else on the screen."""

from __future__ import annotations

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.search.screen import SearchScreen
from daimon_tui.ui.widgets.row_list import RowList
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
DATA = ("all_projects", "team", "result", "hits", "marked", "ready", "warmup", "shown")


async def test_the_search_screen_holds_its_data_only_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        await pilot.press(*"retry", "ctrl+o", "tab")
        await settle(pilot, rounds=4)
        state = screen.state
        hit_list = screen.query_one("#search-hits", RowList)
        rows = hit_list.entries
        hit_list.highlighted = next(n for n, e in enumerate(rows) if (hit := state.hit(e.key)) and hit.live)
        await pilot.press("space")  # marks the live hit under the cursor
        await settle(pilot)
        assert state.hits and [state.hits[e.key].text for e in rows if e.key is not None] == [
            h.text for h in state.hits]
        assert state.result is not None and state.result.query == "retry" and state.all_projects and state.team
        assert state.ready and len(state.marked) == 1
        assert [name for name in DATA if name in vars(screen)] == []
