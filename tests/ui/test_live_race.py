"""A live change the watch saw while a confirmation was reading it, taken by
the screen only after that confirmation showed: the screen must not be left
provisional with nothing confirming (CI found it stuck: a verb's row never
reviewed, the header dim until the next write)."""

from __future__ import annotations

import asyncio

import pytest

from daimon_tui.services import live, session
from daimon_tui.store import paths
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging.live import EventsTail
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.daimon_cli import daimon
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


async def until(check, what: str, timeout: float = 20.0) -> None:
    """`wait_until` without the pilot's pause, which waits for the (held) screen's messages."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"not reached within {timeout}s: {what}"
        await asyncio.sleep(0.02)


async def test_a_live_change_taken_after_the_confirmation_that_read_it_leaves_nothing_provisional(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    batches: asyncio.Queue[live.BucketChange] = asyncio.Queue()

    async def changes(slug, on_fallback):  # the watch sees exactly what the test hands it, when it does
        while True:
            yield await batches.get()

    monkeypatch.setattr(live, "bucket_changes", changes)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and app.screen.briefing is not None
                         and not app.screen.provisional and app.screen.live.started,
                         timeout=40, what="daimon's confirmed briefing, watched")
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        tail = EventsTail(paths.bucket_dir(screen.project.slug) / "events.jsonl")
        tail.prime()
        assert daimon("resolve", screen.current_item().id, "--project", str(demo_store.project)) == 0
        rows = tail.appended()
        assert rows

        held, answer = asyncio.Event(), asyncio.Event()
        confirmation = session.confirmation

        async def confirming(*args, **kwargs):  # daimon still reading when the watch sees the rows
            await answer.wait()
            return await confirmation(*args, **kwargs)

        async def busy() -> None:  # the screen busy painting: its messages wait their turn
            await held.wait()

        monkeypatch.setattr(session, "confirmation", confirming)
        screen.call_later(busy)
        screen.load(repaint=False)
        await until(lambda: screen.live._confirming is not None, "the confirmation reading")
        await batches.put(live.BucketChange(frozenset({"events.jsonl"}), rows, tail.offset))
        await until(lambda: screen.live._posted is not None, "the watch's message posted")
        answer.set()
        await until(lambda: not screen.provisional, "the confirmation shown")
        held.set()
        await settle(pilot)
        await pilot.pause(0.5)
        loading = [w for w in app.workers if w.group == "briefing-load" and not w.is_finished]
        assert not screen.provisional or loading, "provisional, and nothing confirming"
