"""The first frame is right, not only fast: what daimon's events resolved
after the verdict cache was written shows resolved in it, and the handoff,
the standing ruling and the receipt banner sit where the confirmed frame has them."""

from __future__ import annotations

import pytest
from daimon_briefing import store
from daimon_briefing.surfaces import Writer
from textual.widgets import Static

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.held import hold_confirmation
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)
RULING = "Never retry non-idempotent uploads automatically"


def places(screen: BriefingScreen) -> dict[str, int]:
    """The y of the handoff, the ruling, the status line (banner) and the list."""
    header = screen.query_one("#briefing-header", Static)
    lines = str(header.render()).split("\n")

    def line_of(word: str) -> int:
        return next((n for n, line in enumerate(lines) if word in line), -1)  # -1: not shown

    return {
        "handoff": line_of("HANDOFF"),
        "ruling": line_of(RULING),
        "banner": line_of("session receipt(s) fail"),
        "header height": header.size.height,
        "list": screen.query_one("#items").region.y,
    }


async def test_the_first_frame_holds_later_resolutions_and_nothing_moves(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a previous open: daimon's verdicts and the receipt audit's count are kept
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and not screen.provisional
        await wait_until(pilot, lambda: screen.receipt_failures > 0, what="the audit's count")
        target = screen.briefing.sections[0].items[1].id
        confirmed_before = places(screen)
    # daimon's events resolve an item after the cache was written
    assert store.append_event(target, "resolved", note="done elsewhere", source="cli",
                              project_dir=str(demo_store.project), writer=Writer.HUMAN)

    release = hold_confirmation(monkeypatch)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and app.screen.briefing is not None,
                         what="the first frame")
        screen = app.screen
        await pilot.pause()
        assert screen.briefing.provisional
        assert target not in {i.id for i in screen.briefing.items()}
        assert screen.briefing.find(target).state == "resolved"
        first = places(screen)
        assert -1 not in first.values(), first
        release.set()
        await settle(pilot)
        assert not screen.provisional and target not in {i.id for i in screen.briefing.items()}
        assert places(screen) == first == confirmed_before
