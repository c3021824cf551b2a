"""A verb's writes carried out by the judging child (`write_request`): the
same record and the same re-read verdict as the app's own `writer.apply_plan`;
daimon's kill switch holds there; and a child that fails never turns into a
double write or a success nobody saw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from daimon_briefing import config, view

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.child import judge_service, write_request
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans, recovery, writer
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
NIGHTLY = "Switch the nightly job to its own bucket prefix"
ASKED = verbs.ResolveInput(status="merged", note="shipped in 1.2")


def _plan(store: demo.DemoStore, item: str) -> verbs.Plan:
    plan = plans.build_plan("resolve", (item,), ref(store), ASKED)
    assert plan.allowed, plan.refusals
    return plan


def _intent(tmp_path: Path, plan: verbs.Plan) -> ActionEntry:
    planned = tuple(LoggedRecord(item_id=w.item_id, op=w.op, outcome="intent", ledger=w.ledger,
                                 ref=w.quarantine_id, status=verbs.logged_status(w.op, w.status))
                    for w in plan.writes)
    return ActionLog(tmp_path / "actions.jsonl").intend(project=plan.project, verb=plan.verb,
                                                         item_ids=tuple(w.item_id for w in plan.writes),
                                                         planned=planned)


def _apply(store: demo.DemoStore, plan: verbs.Plan, intent: ActionEntry) -> tuple[verbs.WriteResult, ...]:
    async def scenario() -> tuple[verbs.WriteResult, ...]:
        try:
            return await write_request.apply(plan, project=ref(store), intent=intent)
        finally:
            judge_service.service().close()

    return asyncio.run(scenario())


def _ui_rows(store: demo.DemoStore, item: str) -> list[dict]:
    return [r for r in events(store) if r.get("item_ref") == item and r.get("source") == "ui"]


def _without(row: dict, *keys: str) -> dict:
    return {k: v for k, v in row.items() if k not in keys}


def test_the_child_writes_what_the_app_writes(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    by_text = ids(demo_store.project)
    there, here = by_text[RETRY_Q], by_text[NIGHTLY]
    child_plan, app_plan = _plan(demo_store, there), _plan(demo_store, here)

    [by_child] = _apply(demo_store, child_plan, _intent(tmp_path, child_plan))
    [by_app] = writer.apply_plan(app_plan, project=ref(demo_store))

    assert by_child.outcome == by_app.outcome == "applied"
    own = ("item_id", "ref", "ts", "rows")  # each item's own id and time, in its rows too
    assert _without(by_child.model_dump(), *own) == _without(by_app.model_dump(), *own)
    [row_child], [row_app] = _ui_rows(demo_store, there), _ui_rows(demo_store, here)
    assert _without(row_child, "item_ref", "ts") == _without(row_app, "item_ref", "ts")
    assert (row_child["status"], row_child["note"]) == ("merged", "shipped in 1.2")
    assert by_child.ts == row_child["ts"]
    for item in (there, here):
        assert view.lineage(ref(demo_store).target, item).lifecycle == "resolved"


def test_daimons_kill_switch_holds_in_the_child(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    plan = _plan(demo_store, item)
    with config.settings_override({**config.active_settings(), "DAIMON_DISABLE": "1"}):
        [result] = _apply(demo_store, plan, _intent(tmp_path, plan))
    assert result.outcome == "refused" and result.code == "disabled"
    assert _ui_rows(demo_store, item) == []


def _failing_child(monkeypatch: pytest.MonkeyPatch, before: object = None) -> None:
    async def call(*_args: object, **_kwargs: object) -> object:
        if callable(before):
            before()
        raise judge_service.JudgeFailed("the child ended: test")

    monkeypatch.setattr(judge_service.service(), "call", call)


def test_a_child_that_failed_before_writing_leaves_the_write_to_the_app(
        demo_store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    plan = _plan(demo_store, item)
    _failing_child(monkeypatch)
    [result] = _apply(demo_store, plan, _intent(tmp_path, plan))
    [row] = _ui_rows(demo_store, item)
    assert result.outcome == "applied" and result.ts == row["ts"] and result.after == "resolved"


def test_a_child_that_failed_after_writing_is_not_written_twice(
        demo_store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    plan = _plan(demo_store, item)
    intent = _intent(tmp_path, plan)
    _failing_child(monkeypatch, before=lambda: writer.apply_plan(plan, project=ref(demo_store)))
    [result] = _apply(demo_store, plan, intent)
    [row] = _ui_rows(demo_store, item)
    assert result.outcome == "applied" and result.ts == row["ts"]


def test_a_write_nobody_can_vouch_for_is_a_failure(
        demo_store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    plan = _plan(demo_store, item)
    _failing_child(monkeypatch)

    def unknown(*_args: object) -> None:
        raise recovery.Unknown("test")

    monkeypatch.setattr(recovery, "landed", unknown)
    [result] = _apply(demo_store, plan, _intent(tmp_path, plan))
    assert result.outcome == "failed" and "cannot tell" in result.message
    assert _ui_rows(demo_store, item) == []
