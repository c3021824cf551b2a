"""Issue 28, point 13: the project switcher and the other views (filters,
closing hints, the footer at 80 columns)."""

from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.briefing import BriefingScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
NARROW = (80, 24)


def footer_keys(app: DaimonTUI) -> list[FooterKey]:
    """The keys the footer shows (a key it left out is not displayed)."""
    footer = app.screen.query_one(Footer)
    return [k for k in footer.query(FooterKey) if k.display]


def assert_whole(app: DaimonTUI) -> None:
    footer = app.screen.query_one(Footer)
    shown = footer_keys(app)
    assert shown, "the footer shows no key"
    for key in shown:  # a key past the edge is cut mid-word
        assert key.region.right <= footer.region.right, (key.key, key.description, key.region)


async def test_the_footer_fits_at_80_columns_with_whole_keys(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: bool(app.screen.query(Footer)) and bool(footer_keys(app)), what="footer")
        await pilot.pause()
        assert_whole(app)
        assert footer_keys(app)[0].key == "question_mark"  # the lower-priority keys went, not help
        # wider again: the keys left out come back
        await pilot.resize_terminal(200, 24)
        await settle(pilot)
        assert len(footer_keys(app)) > 8
        assert_whole(app)


async def test_the_footer_stays_while_filtering_and_says_what_acts(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("slash", "r", "e")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and app.screen.filter_box.has_focus
        await wait_until(pilot, lambda: bool(footer_keys(app)), what="a footer while filtering")
        said = {k.key: k.description for k in footer_keys(app)}
        assert "escape" in said and "enter" in said, said
        assert_whole(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.filter_box.value == "" and not app.screen.filter_box.display
