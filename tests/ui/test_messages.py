"""Messages that say what happened: coalesced change toasts; a log that
cannot be opened is named with its OS error, not called a broken chain."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Label

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import press_settled, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


async def test_a_burst_of_ledger_changes_is_one_toast(demo_store) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        before = len(app._notifications)
        for n in range(10):
            screen.live.ledger_changed(f"o-{n} resolved")
        await pilot.pause(1.3)
        said = [n.message for n in list(app._notifications)[before:]]
        assert said == ["daimon's ledger changed 10 times; latest: o-9 resolved (confirming…)"]


async def test_a_log_that_cannot_be_opened_is_named_not_called_broken(demo_store, tmp_path: Path) -> None:
    from daimon_tui.ui.log.screen import LogScreen

    where = tmp_path / "actions.jsonl"
    where.mkdir()  # a directory where the log file should be
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=ActionLog(where))
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        app.action_view("log")
        await settle(pilot)
        assert isinstance(app.screen, LogScreen)
        banner = str(app.screen.query_one("#log-chain", Label).render())
    assert "CHAIN BROKEN" not in banner
    assert str(where) in banner and "not a regular file" in banner and "errno" in banner


async def test_an_empty_log_says_what_will_be_logged(demo_store, tmp_path: Path) -> None:
    from daimon_tui.ui.log.screen import LogScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=ActionLog(tmp_path / "actions.jsonl"))
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        app.action_view("log")
        await settle(pilot)
        assert isinstance(app.screen, LogScreen)
        banner = str(app.screen.query_one("#log-chain", Label).render())
    assert "Nothing logged yet: every verb, refusal and world-check made here is logged" in banner


async def test_the_apps_own_write_is_not_announced_as_a_change_to_daimons_ledger(demo_store) -> None:
    """The verb's own notice says what was written; the live watch must not add
    "daimon's ledger changed: 1 resolved" as if someone else had written."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        before = len(app._notifications)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)

        def said() -> list[str]:
            return [n.message for n in list(app._notifications)[before:]]

        # daimon's confirmation of the verb may come late on a loaded machine: the live watch has seen
        # the verb's rows by then, and a wrong announcement comes within the coalescing window after it
        await wait_until(pilot, lambda: any("daimon now says" in m for m in said()), what="the verb's notice")
        await pilot.pause(1.5)  # past the change toasts' coalescing window
        words = said()
        assert not any("ledger changed" in m for m in words), words


async def test_the_apps_own_write_is_confirmed_once_not_again_by_the_live_watch(demo_store, monkeypatch) -> None:
    """After a verb the screen reloads and daimon confirms the rows the verb
    wrote; the live watch then sees the same rows appended. A confirmation
    already reading the ledger past them covers them: asking again queued a
    second full judgement behind the first (at 5,019 items the screen stayed
    provisional ~12 s after a write instead of ~5)."""
    import asyncio
    import contextlib

    from daimon_tui.store.child import first_paint
    from daimon_tui.store.judging import live

    seen = asyncio.Event()
    real_apply = live.apply_events

    def apply(shown, rows):
        if rows:
            seen.set()
        return real_apply(shown, rows)

    monkeypatch.setattr(live, "apply_events", apply)
    import threading

    confirming = threading.Event()
    real_appended = live.EventsTail.appended

    def appended(tail):
        # the watch reads the rows once the verb's reload is confirming (as on a large store,
        # where daimon's confirmation runs long after the write was acknowledged)
        confirming.wait(10)
        return real_appended(tail)

    monkeypatch.setattr(live.EventsTail, "appended", appended)
    calls: list[bool] = []
    gated = [False]
    real_confirm = first_paint.confirm_async

    async def confirm(project, now=None, shown=None):
        calls.append(gated[0])
        if gated[0]:
            confirming.set()  # the verb's confirmation is still reading when the watch sees the rows
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.wait(), 10)
        return await real_confirm(project, now, shown=shown)

    monkeypatch.setattr(first_paint, "confirm_async", confirm)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await press_settled(pilot, "r")
        await press_settled(pilot, "enter")
        gated[0] = True
        calls.clear()
        await pilot.press("y")
        await wait_until(pilot, seen.is_set, 15, "the watch saw the verb's rows")
        await pilot.pause(1.0)  # past the reload's delay
        await settle(pilot, rounds=6)
        assert not screen.provisional
        assert calls == [True], (calls, seen.is_set())
