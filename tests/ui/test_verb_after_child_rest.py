"""A verb after the judging child was given back at rest (issue 42.3): the
next verb's preview and write start a new child, and nothing is lost: the
intent and outcome are in the log, daimon's ledger holds each write once, and
no write was settled by the app's fallback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.child import judge_service
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from tests.daimon_records import brief_text as brief
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.ui.test_verb_modals import RETRY_Q, done, drive, on_screen, to_preview, until


def test_undo_after_the_child_rested_is_written_once_and_logged(demo_store, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    service = judge_service.service()
    service.close()
    monkeypatch.setattr(service, "idle_s", 0.5, raising=False)
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    pids: list[int | None] = []

    async def script(pilot) -> None:
        await to_preview(pilot)
        await pilot.press("y")
        await done(pilot, 1)
        pids.append(service.pid)
        started = time.monotonic()
        await until(pilot, lambda: service.pid is None, tries=750)  # given back: 15 s at most
        assert time.monotonic() - started >= 0.4  # not before its idle time
        await pilot.press("z")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 2)
        pids.append(service.pid)

    try:
        app = drive(ref(demo_store), log, (item,), script)
    finally:
        service.close()
    first, undo = app.outcomes
    assert first.status == "applied" and undo.status == "applied", (first.message, undo.message)
    assert "judging child failed" not in (undo.message or "")
    assert pids[0] is not None and pids[1] is not None and pids[0] != pids[1]
    rows = [r for r in events(demo_store) if r["item_ref"] == item]
    assert [(r["status"], r["source"]) for r in rows] == [("resolved", "ui"), ("reopened", "ui")]
    assert RETRY_Q in brief(demo_store)
    entries = log.entries()
    assert [e.verb for e in entries] == ["resolve", "undo"] and entries[1].undoes == entries[0].action_id
    assert all(e.outcome == "applied" for e in entries), [e.outcome for e in entries]
    written = [(line.entry.verb, line.entry.outcome) for line in log.lines() if line.entry is not None]
    assert written == [("resolve", "intent"), ("resolve", "applied"), ("undo", "intent"), ("undo", "applied")]
    assert log.verify_chain().ok
