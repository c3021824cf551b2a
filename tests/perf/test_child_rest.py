"""The judging child given back at rest (issue 42.3): once no request came for
the idle time, the child ends (it held a fold of every ledger: ~300 MB on the
heavy store); the next read starts a new one that answers as daimon does, and
a verb asked while the child is being retired, or after, is written once, by a
child, never lost and never settled by the app's fallback."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import pytest

from daimon_tui.domain import verbs
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.child import judge_child, judge_service, write_request
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.read import reader
from daimon_tui.store.write import plans
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.perf.test_write_request import _intent

NOW = demo.DEMO_NOW.timestamp()
IDLE_S = 0.5
RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
ASKED = verbs.ResolveInput(status="merged", note="shipped in 1.2")


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> judge_service.JudgeService:
    """The process's judging service with a short idle time (restored after)."""
    service = judge_service.service()
    service.close()
    monkeypatch.setattr(service, "idle_s", IDLE_S, raising=False)
    yield service
    service.close()


def ref(store_: demo.DemoStore) -> ProjectRef:
    return reader.resolve_project(str(store_.project))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _until_gone(service: judge_service.JudgeService, pid: int, within: float = 15.0) -> bool:
    """The child `pid` ended (and was reaped) within `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if service.pid is None and not _alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


def _ui_rows(store_: demo.DemoStore, item: str) -> list[dict]:
    return [r for r in events(store_) if r.get("item_ref") == item and r.get("source") == "ui"]


def test_an_idle_child_ends_and_the_next_read_answers_as_daimon_does(
        demo_store: demo.DemoStore, service: judge_service.JudgeService) -> None:
    project = ref(demo_store)

    async def scenario() -> tuple:
        first = await service.call("briefing", project, NOW, model=Briefing)
        pid = service.pid
        assert pid is not None
        gone = await _until_gone(service, pid)
        again = await service.call("briefing", project, NOW, model=Briefing)
        return first, pid, gone, again, service.pid

    first, pid, gone, again, second = asyncio.run(scenario())
    assert gone, "the child still runs after the idle time"
    assert second is not None and second != pid
    assert again == first == reader.load_briefing(project, NOW)
    assert not again.provisional


def test_a_child_asked_within_the_idle_time_lives_on(
        demo_store: demo.DemoStore, service: judge_service.JudgeService) -> None:
    project = ref(demo_store)

    async def scenario() -> set[int | None]:
        pids = set()
        await service.call("briefing", project, NOW, model=Briefing)
        for _ in range(8):  # 8 x 0.2 s: over three idle times, never one without a request
            await asyncio.sleep(0.2)
            await service.call("sessions", project, model=judge_child.resolve(judge_child.READS["sessions"][1]))
            pids.add(service.pid)
        return pids

    assert len(asyncio.run(scenario())) == 1


def test_a_verb_asked_while_the_child_is_retired_is_written_once_by_a_new_child(
        demo_store: demo.DemoStore, service: judge_service.JudgeService, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    project = ref(demo_store)
    item = ids(demo_store.project)[RETRY_Q]
    plan = plans.build_plan("resolve", (item,), project, ASKED)
    assert plan.allowed
    resting = threading.Event()

    def slow_end(proc: object) -> bool:  # the child said it ends, and takes a while: the verb is asked meanwhile
        ends = judge_service.JudgeService._ends_at_rest(service, proc)
        resting.set()
        time.sleep(0.5)
        return ends

    monkeypatch.setattr(service, "_ends_at_rest", slow_end, raising=False)
    told: list[str] = []

    async def scenario() -> tuple:
        await service.call("briefing", project, NOW, model=Briefing)
        first = service.pid
        assert await asyncio.to_thread(resting.wait, 15), "the idle child was never retired"
        results = await write_request.apply(plan, project=project, intent=_intent(tmp_path, plan), told=told.append)
        writer_pid = service.pid
        after = await service.call("briefing", project, NOW, model=Briefing)
        return first, results, writer_pid, after

    first, [result], writer_pid, after = asyncio.run(scenario())
    assert told == []  # no fallback: a child wrote it
    assert writer_pid is not None and writer_pid != first
    [row] = _ui_rows(demo_store, item)
    assert result.outcome == "applied" and result.ts == row["ts"]
    assert item in {i.id for i in after.resolved}


def test_a_verb_after_the_child_ended_is_written_once(
        demo_store: demo.DemoStore, service: judge_service.JudgeService, tmp_path: Path) -> None:
    project = ref(demo_store)
    item = ids(demo_store.project)[RETRY_Q]
    plan = plans.build_plan("resolve", (item,), project, ASKED)
    told: list[str] = []

    async def scenario() -> tuple:
        await service.call("briefing", project, NOW, model=Briefing)
        pid = service.pid
        assert pid is not None
        gone = await _until_gone(service, pid)
        results = await write_request.apply(plan, project=project, intent=_intent(tmp_path, plan), told=told.append)
        return gone, results

    gone, [result] = asyncio.run(scenario())
    assert gone and told == []
    [row] = _ui_rows(demo_store, item)
    assert result.outcome == "applied" and result.ts == row["ts"]


def test_no_idle_time_keeps_the_child(demo_store: demo.DemoStore, service: judge_service.JudgeService,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "idle_s", None, raising=False)
    project = ref(demo_store)

    async def scenario() -> tuple[int | None, int | None]:
        await service.call("briefing", project, NOW, model=Briefing)
        pid = service.pid
        await asyncio.sleep(3 * IDLE_S)
        return pid, service.pid

    before, after = asyncio.run(scenario())
    assert before is not None and after == before


def test_the_child_refuses_to_rest_while_it_builds_a_kept_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_fold, "building", lambda: True)
    assert judge_child.may_rest(None) is False
    monkeypatch.setattr(kept_fold, "building", lambda: False)
    assert judge_child.may_rest(None) is True
    warming = threading.Thread(target=time.sleep, args=(0.5,))
    warming.start()
    try:
        assert judge_child.may_rest(warming) is False  # the early warm still runs
    finally:
        warming.join()
