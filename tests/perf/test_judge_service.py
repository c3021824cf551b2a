"""The judging child: it reads the same sandbox store as the app (daimon's
sandbox is a ContextVar a child never inherits), answers with what daimon
judges in-process (briefing, item details, audit), survives between requests,
and a failed child falls back to the in-process read with a diagnostic."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from daimon_briefing import config, store
from daimon_briefing.surfaces import Writer

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.child import first_paint, judge_child, judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold, verdict_cache
from daimon_tui.store.read import audit, details, reader

NOW = demo.DEMO_NOW.timestamp()


def ref(store_: demo.DemoStore) -> ProjectRef:
    return reader.resolve_project(str(store_.project))


def test_child_env_exports_the_sandbox_and_no_foreign_setting(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAIMON_CHECKPOINT_DIR", "/nowhere/real-home-store")
    monkeypatch.setenv("DAIMON_DISABLE", "1")
    env = judge_service.child_env()
    active = config.active_settings()
    assert active is not None
    for name, value in active.items():
        if name != "DAIMON_ENV_FILE":
            assert env[name] == str(value)
    assert env["DAIMON_CHECKPOINT_DIR"] == str(demo_store.checkpoint_dir)
    assert "DAIMON_DISABLE" not in env  # ours, not the sandbox's
    empty = Path(env["DAIMON_ENV_FILE"])
    assert empty.is_file() and empty.read_text() == ""
    assert env["DAIMON_TUI_CACHE"] == os.environ["DAIMON_TUI_CACHE"]


def test_one_child_answers_briefing_details_and_audit_like_daimon_in_process(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)
    # A real store elsewhere that the child would read if the sandbox were lost.
    monkeypatch.setenv("DAIMON_CHECKPOINT_DIR", str(demo_store.root.parent / "elsewhere"))
    here = reader.load_briefing(project, NOW)
    assert len(here.items()) > 3
    target = here.items()[0].id
    assert target
    item_here = details.read_details(project, target, NOW)
    audit_here = audit.load_audit(project)

    async def scenario() -> tuple:
        service = judge_service.service()
        there = await service.call("briefing", project, NOW, model=Briefing)
        pid = service.pid
        item = await service.call("details", project, target, NOW, model=details.ItemDetails)
        report = await service.call("audit", project, model=audit.AuditReport)
        same_child = pid is not None and service.pid == pid
        # A write in the sandbox is what the same child sees next.
        assert store.append_event(target, "resolved", note="from a test", source="ui",
                                  project_dir=project.target, writer=Writer.HUMAN)
        again = await service.call("briefing", project, NOW, model=Briefing)
        service.close()
        return there, item, report, same_child, again

    there, item, report, same_child, again = asyncio.run(scenario())
    assert there == here and not there.provisional
    assert item == item_here
    assert report == audit_here
    assert report.receipt_failures > 0  # the demo has a tampered session
    assert same_child
    assert target not in {i.id for i in again.items()}
    assert target in {i.id for i in again.resolved}
    # and the child saved the verdict cache where the app looks for it.
    assert verdict_cache.load(project.slug) is not None


def test_a_killed_child_is_replaced_on_the_next_request(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)

    async def scenario() -> tuple[int, int, Briefing]:
        service = judge_service.service()
        await service.call("audit", project, model=audit.AuditReport)
        first = service.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        for _ in range(500):  # until the child is gone (`pid` is None once it has exited), at most 10 s
            if service.pid is None:
                break
            await asyncio.sleep(0.02)
        assert service.pid is None
        briefing = await service.call("briefing", project, NOW, model=Briefing)
        second = service.pid or 0
        service.close()
        return first, second, briefing

    first, second, briefing = asyncio.run(scenario())
    assert second and second != first
    assert [i.id for i in briefing.items()] == [i.id for i in reader.load_briefing(project, NOW).items()]


def test_failed_child_falls_back_in_process_and_says_so(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)
    monkeypatch.setattr(judge_service.sys, "executable", "/bin/false")
    briefing = asyncio.run(first_paint.confirm_async(project, NOW))
    assert [i.id for i in briefing.items()] == [i.id for i in reader.load_briefing(project, NOW).items()]
    assert any("judging child failed" in n.message for n in briefing.notes)


def test_a_garbled_or_refused_answer_is_a_failure_not_a_crash(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)

    async def ask(what: str) -> None:
        try:
            await judge_service.service().call(what, project, NOW, model=Briefing, timeout=60)
        finally:
            judge_service.service().close()

    with pytest.raises(judge_service.JudgeFailed, match="unknown request"):
        asyncio.run(ask("rm -rf"))
    # `python -m this` prints a poem, not an answer.
    monkeypatch.setattr(judge_service, "CHILD_MODULE", "this")
    with pytest.raises(judge_service.JudgeFailed, match="unreadable answer"):
        asyncio.run(ask("briefing"))


def test_waiting_reads_go_by_priority_and_one_nobody_waits_for_is_never_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = judge_service.JudgeService()
    sent: list[str] = []
    release = __import__("threading").Event()

    def exchange(request: bytes, env: dict, timeout: float) -> bytes:
        import json

        what = json.loads(request)["what"]
        sent.append(what)
        if what == "audit":
            release.wait(10)  # the child is busy with the audit meanwhile
        return b'{"ok": true, "value": {"slug": "s", "name": "n"}}\n'

    monkeypatch.setattr(service, "_exchange", exchange)
    project = ProjectRef(slug="s", name="n")

    async def scenario() -> list:
        audit_read = asyncio.create_task(service.call("audit", project, model=ProjectRef))
        while not sent:
            await asyncio.sleep(0.01)
        briefing = asyncio.create_task(service.call("briefing", project, model=ProjectRef))
        left = asyncio.create_task(service.call("details", project, "old-row", model=ProjectRef))
        await asyncio.sleep(0.05)
        here = asyncio.create_task(service.call("details", project, "row-under-cursor", model=ProjectRef))
        await asyncio.sleep(0.05)
        left.cancel()  # the cursor moved on before the child got to it
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(audit_read, briefing, here)

    answers = asyncio.run(scenario())
    assert all(isinstance(a, ProjectRef) for a in answers)
    assert sent == ["audit", "details", "briefing"]  # the row under the cursor before the briefing
    assert service.dropped == 1


def test_a_read_ahead_waits_behind_a_confirmation_asked_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the evidence pane's read-ahead runs while a person reads; a briefing to confirm (after a
    # write, say) goes first, whichever was asked first
    service = judge_service.JudgeService()
    sent: list[str] = []
    release = threading.Event()

    def exchange(request: bytes, env: dict, timeout: float) -> bytes:
        import json

        what = json.loads(request)["what"]
        sent.append(what)
        if what == "details":
            release.wait(10)  # the child is busy meanwhile
        return b'{"ok": true, "value": {"slug": "s", "name": "n"}}\n'

    monkeypatch.setattr(service, "_exchange", exchange)
    project = ProjectRef(slug="s", name="n")

    async def scenario() -> list:
        busy = asyncio.create_task(service.call("details", project, "row", model=ProjectRef))
        while not sent:
            await asyncio.sleep(0.01)
        ahead = asyncio.create_task(service.call("evidence-warm", project, 1, model=ProjectRef))
        await asyncio.sleep(0.05)
        briefing = asyncio.create_task(service.call("briefing", project, model=ProjectRef))
        await asyncio.sleep(0.05)
        release.set()
        return await asyncio.gather(busy, ahead, briefing)

    asyncio.run(scenario())
    assert sent == ["details", "briefing", "evidence-warm"]


def test_the_child_keeps_a_first_opens_fold_only_after_its_answer_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "a"}\n{"what": "b"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=answers))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: request["what"].encode())
    built_after: list[bytes] = []
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: built_after.append(answers.getvalue()))
    assert judge_child.main() == 0
    assert built_after == [b"a\n", b"a\nb\n"]


def test_the_childs_kept_fold_build_waits_until_no_request_came_for_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_child, "_idle_since", None)  # an answer is being made
    waiter = threading.Thread(target=judge_child._until_idle, daemon=True)
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive()
    monkeypatch.setattr(judge_child, "_idle_since", time.monotonic())  # just answered
    waiter.join(0.3)
    assert waiter.is_alive()
    monkeypatch.setattr(judge_child, "_idle_since", time.monotonic() - judge_child.BUILD_AFTER_IDLE_S)
    waiter.join(5)
    assert not waiter.is_alive()


def test_the_child_gives_memory_back_once_no_request_came_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.store import process_memory

    given = threading.Event()
    release = threading.Event()

    def lines():
        yield b'{"what": "a"}\n'
        release.wait(30)  # the app sits open: no further request

    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=lines()))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=io.BytesIO()))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: b"{}")
    monkeypatch.setattr(judge_child, "GIVE_BACK_AFTER_S", 0.2)
    monkeypatch.setattr(process_memory, "give_back", lambda collect=True: given.set() or True)
    child = threading.Thread(target=judge_child.main, daemon=True)
    child.start()
    try:
        assert given.wait(20)
    finally:
        release.set()
        child.join(20)
    assert not child.is_alive()
