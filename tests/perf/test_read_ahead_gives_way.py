"""The judging child answers one request at a time, and the evidence pane's
read-ahead (one quoted item's transcript: up to a cold parse of the largest,
0.6-0.8 s at 25 MB) must not hold up a read a person waits on: the app
signals the child when such a read is queued behind a read-ahead under way,
and the read-ahead gives way (answered as reading nothing; the pane stops
reading ahead, as when it has nothing left)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
import time
from types import SimpleNamespace

import pytest

from daimon_tui.models import ProjectRef
from daimon_tui.models.evidence import Warmed
from daimon_tui.store.child import judge_child, judge_service
from daimon_tui.store.judging import kept_fold


def test_a_read_ahead_under_way_gives_way_when_signalled(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = io.BytesIO()
    requests = b'{"what": "evidence-warm", "args": [1]}\n{"what": "details", "args": ["i"]}\n'
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(requests)))
    monkeypatch.setattr("sys.stdout", SimpleNamespace(buffer=answers))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)

    def answer(calls: dict, request: dict) -> bytes:
        if request["what"] == "evidence-warm":
            time.sleep(20)  # a long parse, in Python: the signal's handler runs between its steps
        return json.dumps({"ok": True, "value": request["what"]}).encode()

    monkeypatch.setattr(judge_child, "_answer", answer)
    signal_it = threading.Timer(0.3, os.kill, args=(os.getpid(), judge_child.GIVE_WAY_SIGNAL))
    signal_it.start()
    started = time.monotonic()
    try:
        assert judge_child.main() == 0
    finally:
        signal_it.cancel()
    assert time.monotonic() - started < 5
    first, second = (json.loads(line) for line in answers.getvalue().splitlines())
    assert first == {"ok": True, "value": {"read": 0, "left": 0}}  # a Warmed that read nothing
    assert Warmed.model_validate(first["value"]) == Warmed()
    assert second == {"ok": True, "value": "details"}


def test_the_signal_outside_a_read_ahead_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = io.BytesIO()
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=io.BytesIO(b'{"what": "details", "args": ["i"]}\n')))
    monkeypatch.setattr("sys.stdout", SimpleNamespace(buffer=answers))
    monkeypatch.setattr(judge_child, "_warm", lambda request: None)
    monkeypatch.setattr(judge_child, "_calls", dict)
    monkeypatch.setattr(kept_fold, "build_in_background", lambda wait: None)

    def answer(calls: dict, request: dict) -> bytes:
        os.kill(os.getpid(), judge_child.GIVE_WAY_SIGNAL)
        time.sleep(0.2)
        return json.dumps({"ok": True, "value": request["what"]}).encode()

    monkeypatch.setattr(judge_child, "_answer", answer)
    assert judge_child.main() == 0
    assert json.loads(answers.getvalue()) == {"ok": True, "value": "details"}


def test_the_app_signals_the_child_when_a_person_waits_behind_a_read_ahead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = judge_service.JudgeService()
    sent: list[str] = []
    signalled: list[str] = []
    release = threading.Event()

    def exchange(request: bytes, env: dict, timeout: float) -> bytes:
        what = json.loads(request)["what"]
        sent.append(what)
        if what in ("evidence-warm", "audit"):
            release.wait(10)  # the child is busy with it meanwhile
        return b'{"ok": true, "value": {"slug": "s", "name": "n"}}\n'

    monkeypatch.setattr(service, "_exchange", exchange)
    monkeypatch.setattr(service, "_give_way", lambda: signalled.append(sent[-1]))
    project = ProjectRef(slug="s", name="n")

    async def scenario() -> None:
        ahead = asyncio.create_task(service.call("evidence-warm", project, 1, model=ProjectRef))
        while not sent:
            await asyncio.sleep(0.01)
        also_background = asyncio.create_task(service.call("audit", project, model=ProjectRef))
        await asyncio.sleep(0.05)
        assert signalled == []  # background work queued behind background work: no signal
        wanted = asyncio.create_task(service.call("evidence", project, "item", model=ProjectRef))
        await asyncio.sleep(0.05)
        assert signalled == ["evidence-warm"]
        release.set()
        await asyncio.gather(ahead, also_background, wanted)

    asyncio.run(scenario())
    assert sent == ["evidence-warm", "evidence", "audit"]
