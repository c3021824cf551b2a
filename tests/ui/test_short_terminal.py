"""At 80x24 the briefing is a list first: the handoff and the rulings fold to
one line each (`e` shows them whole), so the list keeps its rows."""

from __future__ import annotations

from textual.widgets import Static

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.row_list import RowList
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SECOND_BATON = "Ship behind UPLOAD_RETRY once the nightly job moves"
RULING = "Never retry non-idempotent uploads automatically"


async def test_at_80x24_the_header_folds_and_e_unfolds_it(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        header = screen.query_one("#briefing-header", Static)
        text = str(header.render())
        # Every part is still there, one line each: baton, rulings.
        assert "HANDOFF (e)" in text and RULING in text
        assert header.region.height <= 4, text
        assert screen.query_one("#items", RowList).region.height >= 8
        await pilot.press("e")
        await settle(pilot)
        text = str(header.render())
        assert "HANDOFF (left deliberately by previous session" in text and f"→ {SECOND_BATON}" in text
        assert "Standing rulings (human-ratified — honor these):" in text
        await pilot.press("e")
        await settle(pilot)
        assert header.region.height <= 4


async def test_a_tall_terminal_shows_the_whole_header_and_e_folds_it(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        header = app.screen.query_one("#briefing-header", Static)
        assert f"→ {SECOND_BATON}" in str(header.render())
        await pilot.press("e")
        await settle(pilot)
        assert "HANDOFF (e)" in str(header.render())
