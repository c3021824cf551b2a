"""What a newcomer's pass over every screen found: each a behaviour that failed before its fix."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.projects import ProjectsScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (80, 24)


def make_app(store: demo.DemoStore) -> DaimonTUI:
    return DaimonTUI(project_path=str(store.project), now=NOW)


async def test_switcher_counts_what_the_briefing_header_counts(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: not app.screen.briefing.provisional, what="the confirmed briefing")
        shown = len(app.screen.briefing.items())
        await pilot.press("P")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        await wait_until(pilot, lambda: "confirming" not in str(screen.query_one("#projects-notes").render()))
        cell = screen.query_one(DataTable).get_cell_at((0, 4))
        assert str(cell) == str(shown) == "11"


async def test_ctrl_r_reloads_every_screen_that_reloads(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        loads: list[str] = []
        for view in ("1", "2", "3", "4", "5"):
            await pilot.press(view)
            await settle(pilot)
            screen = app.screen
            loads.clear()
            screen.load = lambda: loads.append("load")  # type: ignore[method-assign]
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert loads, f"ctrl+r did not reload {type(screen).__name__}"
            loads.clear()
            await pilot.press("R")
            await pilot.pause()
            assert not loads, f"R still reloads {type(screen).__name__}"
