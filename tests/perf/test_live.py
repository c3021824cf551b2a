"""Live: an external write with daimon's own functions shows without a keypress,
cursor and marks kept; appended rows apply at once, provisionally."""

from __future__ import annotations

import asyncio

from daimon_briefing import store
from daimon_briefing.surfaces import Writer

from daimon_tui.store.child import first_paint
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import live
from daimon_tui.store.read import reader
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen

NOW = demo.DEMO_NOW.timestamp()
NIGHTLY = "Switch the nightly job to its own bucket prefix"


async def wait_for(pilot, check, timeout: float = 10.0) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if check():
            return True
        await pilot.pause(0.05)
    return check()


def test_tail_reads_only_appended_rows_and_sees_rewrites(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    events = demo_store.checkpoint_dir / project.slug / "events.jsonl"
    tail = live.EventsTail(events)
    tail.prime()
    assert tail.appended() == []
    assert store.append_event("r-x", "resolved", note="n", source="ui", project_dir=project.target,
                              writer=Writer.HUMAN)
    rows = tail.appended()
    assert [r["item_ref"] for r in rows] == ["r-x"]
    data = events.read_bytes()
    events.write_bytes(data.replace(b"resolved", b"reopened", 1))  # same size, rewritten
    assert tail.appended() is None


def test_apply_events_moves_item_provisionally(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    confirmed = first_paint.confirm(project, NOW)
    target = next(i.id for i in confirmed.items() if i.text == NIGHTLY)
    change = live.apply_events(confirmed, [{"item_ref": target, "status": "resolved", "ts": "2026-12-01T10:00:00Z",
                                            "source": "cli"}])
    assert change is not None and change.resolved == 1
    moved = change.briefing.find(target)
    assert moved.state == "resolved" and moved.provisional and change.briefing.provisional
    gone = live.apply_events(confirmed, [{"item_ref": target, "status": "forgotten:abc", "ts": "2026-12-01T10:00:00Z",
                                          "source": "cli"}])
    assert gone is None or gone.briefing.find(target) is None


async def test_external_write_shows_without_keypress(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, BriefingScreen))
        screen = app.screen
        assert await wait_for(pilot, lambda: screen.briefing is not None and not screen.provisional)
        assert await wait_for(pilot, lambda: any(w.group == "briefing-live" and w.is_running for w in app.workers))
        await pilot.pause(0.3)  # let the watcher arm
        await pilot.press("j")
        await pilot.press("space")  # mark the second row (moves the cursor to the third)
        marked = set(screen.marked)
        cursor = screen.current_id()
        target = next(i.id for i in screen.briefing.items() if i.text == NIGHTLY)
        assert target != cursor and target not in marked
        assert store.append_event(target, "resolved", note="elsewhere", source="cli",
                                  project_dir=str(demo_store.project), writer=Writer.HUMAN)

        def gone() -> bool:
            return target not in {i.id for i in screen.briefing.items()}

        assert await wait_for(pilot, gone, timeout=5)
        assert await wait_for(pilot, lambda: not screen.provisional, timeout=20)
        assert gone() and screen.briefing.find(target).state == "resolved"
        assert screen.current_id() == cursor
        assert screen.marked == marked
        # a new checkpoint written by capture shows too
        day4 = demo.session("S-day4", demo.DEMO_NOW, "Day four")
        day4["working_context"]["recent_decisions"] = [{"text": "Adopt the day four plan", "trust": "inferred"}]
        demo.seed(demo_store.project, day4)
        assert await wait_for(pilot, lambda: screen.briefing.session_id == "S-day4", timeout=5)
        assert await wait_for(pilot, lambda: not screen.provisional, timeout=20)
        assert any(i.text == "Adopt the day four plan" for i in screen.briefing.items())
        assert screen.current_id() == cursor
