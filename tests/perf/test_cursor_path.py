"""The cursor keypress repaints only the list: the detail pane (whose update
re-lays out the screen) fills once the cursor rests, and a burst of moves
fills it once, for the row the cursor stopped on."""

from __future__ import annotations

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing import detail_pane
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.item_detail import ItemDetail
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


async def test_a_burst_of_moves_fills_the_pane_once_for_the_last_row(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long rest, so a slow (shared) machine cannot fill between two presses.
    monkeypatch.setattr(detail_pane, "DETAIL_REST_S", 1.0)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and not screen.provisional
        detail = screen.query_one(ItemDetail)
        first = screen.current_item()
        assert first is not None and first.text in detail.plain()
        filled: list[str] = []
        original = detail.show_item

        def spy(item, *args, **kwargs):  # type: ignore[no-untyped-def]
            filled.append(item.text if item else "")
            original(item, *args, **kwargs)

        detail.show_item = spy  # type: ignore[method-assign]
        await pilot.press("j", "j", "j")
        await pilot.pause()
        # The keys moved the cursor at once; the pane has not been touched yet.
        stopped = screen.current_item()
        assert stopped is not None and stopped is not first
        assert filled == []
        assert first.text in detail.plain()
        await wait_until(pilot, lambda: bool(filled), what="the pane filled once the cursor rested")
        await settle(pilot)
        assert filled and set(filled) == {stopped.text}
        assert stopped.text in detail.plain()
