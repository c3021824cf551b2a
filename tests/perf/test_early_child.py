"""The judging child started before the app's first paint (`early_child`):
the interactive app starts it before Textual is imported, the child warms
the named project before its first request, and the service takes it only
when it was started with the environment a new child would get."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from daimon_briefing import store
from daimon_briefing.surfaces import Writer

from daimon_tui import cli
from daimon_tui.models import Briefing
from daimon_tui.store.child import early_answer, early_child, judge_child, judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.read import reader

NOW = demo.DEMO_NOW.timestamp()


@pytest.fixture(autouse=True)
def _no_early_child_left() -> object:
    yield
    early_child.discard()
    judge_service.service().close()
    early_answer._judged = None


def test_the_child_warms_the_named_project_before_its_first_request(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[object] = []
    monkeypatch.chdir(sandbox_root)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "a", "project": "p"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=io.BytesIO()))
    monkeypatch.setattr(judge_child, "_warm", lambda request: events.append(("warm", request["project"])))
    monkeypatch.setattr(judge_child, "_calls", lambda: events.append("calls") or {})
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: events.append(request["what"]) or b"")
    monkeypatch.setattr(early_answer, "judge", lambda path, slug, answer: events.append(("judged", path, slug)))
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)
    assert judge_child.main([early_child.WARM_FLAG, json.dumps({"path": None, "slug": None})]) == 0
    # warmed (the working directory, as daimon resolves it), the named project's briefing judged
    # (before the other reads are imported) and the reads imported before the request came; a
    # request it does not answer warms again (cheap while daimon's memos hold) and is answered
    assert events == [("warm", {"path": str(sandbox_root)}), ("judged", None, None), "calls", ("warm", "p"), "a"]


def test_a_slug_is_warmed_as_a_slug(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed: list[dict] = []
    monkeypatch.setattr(judge_child, "_warm", lambda request: warmed.append(request["project"]))
    monkeypatch.setattr(judge_child, "_calls", dict)
    assert judge_child.warm_early(json.dumps({"path": None, "slug": "-home-me-proj"})) == {}
    assert warmed == [{"slug": "-home-me-proj"}]
    assert judge_child.warm_early("not json") is None  # the first request warms instead


def test_the_service_takes_the_early_child_started_with_its_environment(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    here = reader.load_briefing(project, NOW)
    early_child.spawn(str(demo_store.project), None, env=judge_service.child_env())
    assert early_child._early is not None
    early = early_child._early.proc.pid

    async def scenario() -> tuple[Briefing, int | None, Briefing]:
        service = judge_service.service()
        there = await service.call("briefing", project, NOW, model=Briefing)
        pid = service.pid
        # warmed before the request, it still sees a write made after the warm
        target = there.items()[0].id
        assert target and store.append_event(target, "resolved", note="from a test", source="ui",
                                             project_dir=project.target, writer=Writer.HUMAN)
        again = await service.call("briefing", project, NOW, model=Briefing)
        return there, pid, again

    there, pid, again = asyncio.run(scenario())
    assert pid == early
    assert there == here and not there.provisional
    assert again == reader.load_briefing(project, NOW)
    assert there.items()[0].id not in {i.id for i in again.items()}


def test_an_early_child_started_in_another_environment_is_ended_not_used(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    # started with the process environment, not the sandbox the app reads now: it would read another store
    early_child.spawn(str(demo_store.project), None)
    assert early_child._early is not None
    early = early_child._early.proc

    async def scenario() -> tuple[Briefing, int | None]:
        service = judge_service.service()
        return await service.call("briefing", project, NOW, model=Briefing), service.pid

    there, pid = asyncio.run(scenario())
    assert pid is not None and pid != early.pid
    assert early.poll() is not None  # ended
    assert there == reader.load_briefing(project, NOW)


def test_the_interactive_app_starts_the_child_before_it_imports_the_app(
        empty_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[tuple] = []
    monkeypatch.setattr(early_child, "spawn", lambda path, slug: spawned.append((path, slug)))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm-256color")
    from daimon_tui.ui import app as ui_app

    class Stand:
        return_code = 0

        def __init__(self, **_kw: object) -> None:
            spawned.append("app")

        def run(self) -> None:
            pass

    monkeypatch.setattr(ui_app, "DaimonTUI", Stand)
    assert cli.main(["--project", str(empty_store.project)]) == 0
    assert spawned == [(str(empty_store.project), None), "app"]


@pytest.mark.parametrize("argv", [["brief"], ["--demo"]], ids=["headless", "demo"])
def test_no_early_child_for_a_report_or_the_demo(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[tuple] = []
    monkeypatch.setattr(early_child, "spawn", lambda path, slug: spawned.append((path, slug)))
    monkeypatch.setattr(cli, "_store_context", lambda demo: (_ for _ in ()).throw(SystemExit(0)))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert spawned == []


def test_no_early_child_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[tuple] = []
    monkeypatch.setattr(early_child, "spawn", lambda path, slug: spawned.append((path, slug)))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert cli.main([]) == 2
    assert spawned == []


@pytest.mark.parametrize("running", [True, False], ids=["child-running", "no-child"])
async def test_the_first_confirmation_is_asked_at_once_when_a_child_runs(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, running: bool) -> None:
    from daimon_tui.store.child import first_paint
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.briefing import screen as briefing_screen
    from tests.ui.settle import settle

    asked: list[object] = []
    monkeypatch.setattr(judge_service.JudgeService, "started", lambda self: running)
    load = briefing_screen.BriefingScreen.load
    confirm = first_paint.confirm_async

    def recorded(self: briefing_screen.BriefingScreen, repaint: bool = True, delay: float = 0.0,
                 pending: object = None) -> object:
        asked.append(("screen", repaint, delay, pending is not None))
        return load(self, repaint, delay, pending)

    async def confirming(project, now=None, **kw):
        asked.append("asked")
        return await confirm(project, now, **kw)

    monkeypatch.setattr(briefing_screen.BriefingScreen, "load", recorded)
    monkeypatch.setattr(first_paint, "confirm_async", confirming)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert not app.screen.provisional
    if running:
        # a child started before Textual costs nothing to ask: asked before the first frame, once;
        # a screen that opened provisional waits for that answer, at once
        assert asked[0] == "asked" and asked.count("asked") == 1
        assert asked[1:] in ([], [("screen", False, 0.0, True)])
    else:
        assert asked[:2] == [("screen", False, briefing_screen.FIRST_FRAME_S, False), "asked"]


def test_the_early_warm_runs_at_a_lower_priority_than_the_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # on a machine with no spare core the warm must not slow the app's first paint; the answers keep their priority
    import os
    import threading

    def priority() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    seen: dict[str, int] = {}
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "a", "project": "p"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=io.BytesIO()))
    monkeypatch.setattr(judge_child, "_warm", lambda request: seen.setdefault(str(request["project"]), priority()))
    monkeypatch.setattr(judge_child, "_calls", dict)
    # the answer is empty bytes whatever the priority (a priority of 0 is falsy: `and` would answer 0)
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: (seen.setdefault("answer", priority()), b"")[1])
    monkeypatch.setattr(early_answer, "judge", lambda path, slug, answer: seen.setdefault("judged", priority()))
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)
    base = priority()
    assert judge_child.main([early_child.WARM_FLAG, json.dumps({"path": None, "slug": "-s"})]) == 0
    warm = min(base + judge_child.WARM_NICE, 19)
    assert seen == {"{'slug': '-s'}": warm, "judged": warm, "p": base, "answer": base}


# ---- the first briefing, judged before the app asks (`early_answer`) ----


def _first_request(project: object) -> dict:
    # as the app sends it: `judge_service.call("briefing", project, None)`, through JSON
    return json.loads(json.dumps({"what": "briefing", "project": project.model_dump(mode="json"), "args": (None,)}))


def _judge_now(demo_store: demo.DemoStore) -> object:
    early_answer.judge(str(demo_store.project), None, judge_child.resolve(judge_child.READS["briefing"][0]))
    return reader.resolve_project(str(demo_store.project))


def test_the_named_projects_briefing_is_judged_early_and_answers_its_request_once(
        demo_store: demo.DemoStore) -> None:
    project = _judge_now(demo_store)
    assert early_answer._judged is not None
    answer = early_answer.take(_first_request(project))
    assert answer is not None
    value = json.loads(answer)["value"]
    # daimon's own judgement (ages aside: said from the moment it was judged)
    assert [(i.id, i.state, i.mark, i.badges) for i in Briefing.model_validate(value).items()] == [
        (i.id, i.state, i.mark, i.badges) for i in reader.load_briefing(project).items()]
    assert early_answer.take(_first_request(project)) is None  # once


def test_an_early_answer_stands_only_for_the_request_it_answers(demo_store: demo.DemoStore) -> None:
    project = _judge_now(demo_store)
    # another read first (the cursor row's details: asked before the briefing) leaves it
    assert early_answer.take({**_first_request(project), "what": "details", "args": ["r-1"]}) is None
    assert early_answer._judged is not None
    frozen_clock = {**_first_request(project), "args": [NOW]}
    assert early_answer.take(frozen_clock) is None
    assert early_answer._judged is None  # the first briefing request ends it, whatever it asked


@pytest.mark.parametrize("change", ["ledger write", "session file", "too old"])
def test_an_early_answer_is_not_used_once_what_it_judged_has_moved(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    project = _judge_now(demo_store)
    if change == "ledger write":
        target = reader.load_briefing(project).items()[0].id
        assert target and store.append_event(target, "resolved", note="from a test", source="ui",
                                             project_dir=project.target, writer=Writer.HUMAN)
    elif change == "session file":
        (demo_store.checkpoint_dir / "S-new.json").write_text("{}")
    else:
        monkeypatch.setattr(early_answer, "FRESH_S", 0.0)
    assert early_answer.take(_first_request(project)) is None


def test_the_child_answers_its_first_request_with_the_early_answer(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[bytes] = []
    out = io.BytesIO()
    monkeypatch.chdir(sandbox_root)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "briefing"}\n{"what": "b"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=out))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: answered.append(request["what"]) or b"{}")
    monkeypatch.setattr(early_answer, "judge", lambda path, slug, answer: answered.append(("judged", path, slug)))
    kept = iter([b'{"ok": true, "value": "early"}'])
    monkeypatch.setattr(early_answer, "take", lambda request: next(kept, None))
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)
    assert judge_child.main([early_child.WARM_FLAG, json.dumps({"path": "/p", "slug": None})]) == 0
    # judged in the warm, for the project named on the command line; the first request is not read again
    assert answered == [("judged", "/p", None), "b"]
    assert out.getvalue().splitlines() == [b'{"ok": true, "value": "early"}', b"{}"]


def test_the_early_childs_first_briefing_is_daimons(demo_store: demo.DemoStore) -> None:
    # the real child, started as `daimon-tui` starts it: its first answer (judged early) is daimon's
    project = reader.resolve_project(str(demo_store.project))
    early_child.spawn(str(demo_store.project), None, env=judge_service.child_env())
    there = asyncio.run(judge_service.service().call("briefing", project, None, model=Briefing))
    here = reader.load_briefing(project)
    assert not there.provisional
    assert [(i.id, i.state, i.mark, i.badges) for i in there.items()] == [
        (i.id, i.state, i.mark, i.badges) for i in here.items()]


def test_the_early_answer_is_judged_and_kept_without_pydantic(demo_store: demo.DemoStore) -> None:
    # pydantic and our models cost the child ~0.1 s to import: the answer waiting for the app's
    # request is made without them, as a headless report is (they import after it). It needs the
    # shared vocabulary alone (`daimon_tui.models` and its `records` base), no topic module.
    import subprocess

    code = ("import sys\n"
            "from daimon_tui.store.child import early_answer, judge_child\n"
            f"early_answer.judge({str(demo_store.project)!r}, None,"
            " judge_child.resolve(judge_child.READS['briefing'][0]))\n"
            "print(early_answer._judged is not None, sorted(m for m in sys.modules if m == 'pydantic'"
            " or m.startswith('daimon_tui.models.') and m != 'daimon_tui.models.records'))\n")
    run = subprocess.run([sys.executable, "-c", code], env=judge_service.child_env(), capture_output=True,
                         text=True, timeout=60, cwd=demo_store.project)
    assert run.stdout.strip() == "True []", run.stderr[-2000:]


@pytest.mark.parametrize("which", ["demo", "hostile"])
def test_the_early_answers_line_is_the_one_the_child_sends_for_the_same_read(
        empty_store: demo.DemoStore, which: str) -> None:
    from tests.hostile.conftest import seed_hostile

    if which == "demo":
        demo.populate(empty_store.project)
    else:
        seed_hostile(empty_store.project)
    project = reader.resolve_project(str(empty_store.project))
    confirm = judge_child.resolve(judge_child.READS["briefing"][0])
    early_answer.judge(str(empty_store.project), None, lambda p, now: confirm(p, NOW))
    assert early_answer._judged is not None
    kept = json.loads(early_answer._judged.answer)
    sent = json.loads(judge_child._answer({"briefing": confirm}, {**_first_request(project), "args": [NOW]}))
    # the same JSON (pydantic's round-trip dump), and the app reads it back as the same briefing
    assert kept == sent
    assert Briefing.model_validate(kept["value"]) == reader.load_briefing(project, NOW)


def test_the_first_request_is_answered_before_the_other_reads_import(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # importing them beside the kept answer's check held the GIL that check needed
    import time

    order: list[str] = []

    class Answers(io.BytesIO):
        def write(self, data: bytes) -> int:
            if data.strip():
                order.append("answer")
            return super().write(data)

    def take(request: object) -> bytes:
        time.sleep(0.2)  # the kept answer's check: has anything it judged moved?
        return b'{"ok": true, "value": "early"}'

    monkeypatch.chdir(sandbox_root)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "briefing"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=Answers()))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", lambda: order.append("calls imported") or {})
    monkeypatch.setattr(early_answer, "judge", lambda path, slug, read: None)
    monkeypatch.setattr(early_answer, "take", take)
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)
    assert judge_child.main([early_child.WARM_FLAG, json.dumps({"path": "/p", "slug": None})]) == 0
    deadline = time.monotonic() + 5
    while len(order) < 2 and time.monotonic() < deadline:  # the warm goes on in its own thread
        time.sleep(0.01)
    assert order == ["answer", "calls imported"]


def test_a_first_request_the_early_answer_cannot_answer_is_not_held(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    out = io.BytesIO()
    monkeypatch.chdir(sandbox_root)
    monkeypatch.setattr(judge_child, "FIRST_REQUEST_WAIT_S", 60.0)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "details", "project": "p"}\n')))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=out))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(judge_child, "_answer", lambda calls, request: b'{"ok": true, "value": "read"}')
    monkeypatch.setattr(early_answer, "judge", lambda path, slug, read: None)
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)
    started = time.monotonic()
    assert judge_child.main([early_child.WARM_FLAG, json.dumps({"path": "/p", "slug": None})]) == 0
    # the warm imports the reads at once for it: it does not wait out FIRST_REQUEST_WAIT_S
    assert time.monotonic() - started < 10
    assert out.getvalue() == b'{"ok": true, "value": "read"}\n'
