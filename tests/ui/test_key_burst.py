"""Keys typed in one burst (a fast typist, a terminal that replays them) land
where the key before them sent the focus: `/bucket` filters for "bucket"
instead of sending `b u c k e t` to the list (`u` restore, `c` copy...), and a
key after Enter goes back to the list. Textual moves focus on a later turn of
the event loop (`Widget.focus` is `call_later`), so keys already queued went
to the old widget."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Input

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.widgets.filter_box import FilterBox
from daimon_tui.ui.widgets.row_filter import RowFilter
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
_CHARS = {"slash": "/", "enter": "\r", "escape": "\x1b"}


def burst(app: App[object], *keys: str) -> None:
    """Every key queued at once, as the terminal driver queues what it read in one go."""
    for key in keys:
        app.post_message(events.Key(key, _CHARS.get(key, key if len(key) == 1 else None)))


async def test_a_burst_after_slash_types_into_the_briefing_filter(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        box = screen.query_one("#filter", FilterBox)
        burst(app, "slash", *"bucket")
        await settle(pilot)
        assert box.has_focus and box.value == "bucket"
        assert app.screen is screen  # nothing else opened (`enter` in the list, `o`...)


async def test_a_key_after_enter_in_a_burst_goes_back_to_the_list(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        box = screen.query_one("#filter", FilterBox)
        burst(app, "slash", *"retry", "enter", "j")
        await settle(pilot)
        assert box.value == "retry" and not box.has_focus


async def test_a_burst_after_slash_types_into_a_table_filter(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        assert isinstance(app.screen, HistoryScreen)
        box = app.screen.query_one(RowFilter)
        burst(app, "slash", *"day2")
        await settle(pilot)
        assert box.has_focus and box.value == "day2"


async def test_a_burst_after_slash_types_into_the_search_box(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot, rounds=4)
        box = app.screen.query_one("#search-box", Input)
        await pilot.press("tab")  # to the hits
        await settle(pilot)
        assert not box.has_focus
        value = box.value
        burst(app, "slash", *"429")
        await settle(pilot)
        assert box.has_focus and box.value == value + "429"
