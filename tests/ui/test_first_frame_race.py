"""With a judging child already running (started before Textual), the app asks
daimon's confirmation beside its provisional read: whichever ends first is the
first frame, and the screen never asks daimon twice for the same open."""

from __future__ import annotations

import asyncio
import threading

import pytest

from daimon_tui.store.child import first_paint, judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.held import hold_confirmation
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (120, 30)


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each briefing the screen showed was provisional, in order."""
    seen: list[bool] = []
    show = BriefingScreen.show

    def recorded(self: BriefingScreen, briefing: object) -> None:
        seen.append(briefing.provisional)
        show(self, briefing)

    monkeypatch.setattr(BriefingScreen, "show", recorded)
    return seen


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every confirmation asked of daimon, and whether it answered ("asked", "answered", "failed")."""
    seen: list[str] = []
    confirm = first_paint.confirm_async

    async def counted(project, now=None, **kw):
        seen.append("asked")
        try:
            briefing = await confirm(project, now, **kw)
        except Exception:
            seen.append("failed")
            raise
        seen.append("answered")
        return briefing

    monkeypatch.setattr(first_paint, "confirm_async", counted)
    return seen


async def test_daimons_answer_before_the_provisional_read_ends_is_the_first_frame(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, shown: list[bool], asked: list[str]) -> None:
    monkeypatch.setattr(judge_service.JudgeService, "started", lambda self: True)
    released = threading.Event()
    provisional = first_paint.provisional_briefing

    def slow(project, now=None):  # the provisional read still reading when daimon answers
        released.wait(timeout=15)
        return provisional(project, now)

    monkeypatch.setattr(first_paint, "provisional_briefing", slow)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: bool(shown), timeout=12, what="the first frame")
            screen = app.screen
            assert isinstance(screen, BriefingScreen)
            # daimon's own answer, confirmed from the first frame: no provisional paint, no second question
            assert shown[0] is False and not screen.provisional
            assert not released.is_set()
            released.set()
            await settle(pilot)
            assert shown == [False] and asked == ["asked", "answered"]
            assert screen.briefing is not None and not screen.briefing.provisional
    finally:
        released.set()


async def test_a_provisional_frame_first_waits_for_the_confirmation_already_asked(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, shown: list[bool], asked: list[str]) -> None:
    monkeypatch.setattr(judge_service.JudgeService, "started", lambda self: True)
    release = hold_confirmation(monkeypatch)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(shown), what="the first frame")
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.provisional and shown == [True]
        release.set()
        await settle(pilot)
        assert not screen.provisional and shown[-1] is False
    # asked once, by the app before the screen opened; the screen took that answer
    assert asked == ["asked", "answered"]


async def test_an_early_confirmation_that_failed_is_asked_again(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, shown: list[bool]) -> None:
    monkeypatch.setattr(judge_service.JudgeService, "started", lambda self: True)
    confirm = first_paint.confirm_async
    asked: list[str] = []

    async def first_fails(project, now=None, **kw):
        asked.append("asked")
        if len(asked) == 1:
            await asyncio.sleep(0.3)  # after the provisional frame
            raise RuntimeError("the child went away")
        return await confirm(project, now, **kw)

    monkeypatch.setattr(first_paint, "confirm_async", first_fails)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: len(asked) == 2 and not app.screen.provisional, what="confirmed again")
        await settle(pilot)
        assert shown[0] is True and shown[-1] is False
    assert asked == ["asked", "asked"]


async def test_no_child_running_keeps_the_provisional_frame_then_one_confirmation(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, shown: list[bool], asked: list[str]) -> None:
    # no child yet (tests, a failed early start): the first frame is the provisional read, and
    # the confirmation is asked after it, as before
    monkeypatch.setattr(judge_service.JudgeService, "started", lambda self: False)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.screen.provisional
    assert shown[0] is True and shown[-1] is False
    assert asked == ["asked", "answered"]
