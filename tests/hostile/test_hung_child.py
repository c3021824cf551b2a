"""A judging child that hangs on a confirmed write (issue 24, point 5): after
a bounded wait the write is settled from daimon's ledgers (written once,
never twice) and the person is told what happened."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.child import judge_service, write_request
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans
from daimon_tui.ui import pending_write
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"


def _plan(store: demo.DemoStore, item: str) -> verbs.Plan:
    plan = plans.build_plan("resolve", (item,), ref(store), verbs.ResolveInput(status="merged", note="1.2"))
    assert plan.allowed, plan.refusals
    return plan


def _intent(tmp_path: Path, plan: verbs.Plan) -> ActionEntry:
    planned = tuple(LoggedRecord(item_id=w.item_id, op=w.op, outcome="intent", ledger=w.ledger,
                                 status=verbs.logged_status(w.op, w.status)) for w in plan.writes)
    return ActionLog(tmp_path / "actions.jsonl").intend(project=plan.project, verb=plan.verb,
                                                         item_ids=(plan.writes[0].item_id,), planned=planned)


@pytest.mark.parametrize("hang", ["before-write", "after-write"])
def test_a_hung_child_is_ended_and_the_write_settled_from_daimons_ledgers(
        demo_store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hang: str) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    plan = _plan(demo_store, item)
    intent = _intent(tmp_path, plan)
    monkeypatch.setattr(judge_service, "CHILD_MODULE", "tests.hostile.hung_child")
    monkeypatch.setenv("DAIMON_TUI_TEST_HANG", hang)
    monkeypatch.setattr(write_request, "WRITE_WAIT_S", 8.0)
    stories: list[str] = []

    async def scenario() -> tuple[verbs.WriteResult, ...]:
        try:
            return await write_request.apply(plan, project=ref(demo_store), intent=intent, told=stories.append)
        finally:
            judge_service.service().close()

    [result] = asyncio.run(scenario())
    rows = [r for r in events(demo_store) if r.get("item_ref") == item and r.get("source") == "ui"]
    assert len(rows) == 1  # written once: by the child before it hung, or by the app after
    assert result.outcome == "applied" and result.ts == rows[0]["ts"]
    [story] = stories
    assert "no answer within 8 s" in story and item in story
    if hang == "after-write":
        assert "daimon's ledger holds the write" in story
    else:
        assert "written by the app itself" in story


def test_the_pending_write_is_named_with_its_time() -> None:
    text = pending_write.describe("Resolve", ("o-1", "o-2"), "2026-12-03T20:31:05Z")
    assert "o-1, o-2" in text and "since 2026-12-03T20:31:05Z" in text
    assert f"{write_request.WRITE_WAIT_S:.0f} s" in text


def test_the_app_shows_the_pending_write_and_then_what_became_of_it(
        demo_store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.ui.screens.verb_modals import ConfirmModal
    from tests.ui.test_verb_modals import drive, to_preview, until

    monkeypatch.setattr(ConfirmModal, "CONFIRM_DELAY_S", 0.0)

    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    monkeypatch.setattr(judge_service, "CHILD_MODULE", "tests.hostile.hung_child")
    monkeypatch.setenv("DAIMON_TUI_TEST_HANG", "on-write")
    monkeypatch.setattr(write_request, "WRITE_WAIT_S", 8.0)
    monkeypatch.setattr(pending_write, "SHOW_AFTER_S", 0.5)
    shown: list[tuple[str, str]] = []

    async def script(pilot) -> None:
        await to_preview(pilot)
        await pilot.press("y")
        for _ in range(200):  # the pending write is on screen while the child hangs
            await pilot.pause(0.05)
            if any(n.title == "write pending" for n in pilot.app._notifications):
                break
        shown.extend((n.title, n.message) for n in pilot.app._notifications)
        await until(pilot, lambda: len(pilot.app.outcomes) >= 1, tries=3000)
        await pilot.pause(0.2)
        shown.extend((n.title, n.message) for n in pilot.app._notifications)

    try:
        app = drive(ref(demo_store), log, (item,), script)
    finally:
        judge_service.service().close()
    [pending] = {m for t, m in shown if t == "write pending"}
    assert item in pending and "since " in pending and log.entries()[0].time[:10] in pending
    told = {m for t, m in shown if "the judging child failed" in t}
    assert len(told) == 1 and "no answer within 8 s" in next(iter(told))
    assert app.outcomes[0].status == "applied"
    assert len([r for r in events(demo_store) if r.get("item_ref") == item and r.get("source") == "ui"]) == 1
