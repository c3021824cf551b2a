"""services/verbs: the write-ahead steps a verb's flow runs below the screens.
The intent is durably in the log before `log_intent` returns, names what the
write will touch, and an intent that cannot land is refused by name."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from daimon_tui.domain import verbs
from daimon_tui.models import ProjectRef
from daimon_tui.services import verbs as verb_steps
from daimon_tui.store.action_log import ActionLog

PROJECT = ProjectRef(slug="-tmp-proj", name="proj")
PLAN = verbs.Plan(verb="resolve", project=PROJECT.slug, writes=(
    verbs.PlannedWrite(item_id="o-1", op="resolve", ledger=verbs.EVENTS, record="{}", status="resolved",
                       note="fixed upstream"),))


def test_the_intent_is_in_the_log_when_log_intent_returns(tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    intent = asyncio.run(verb_steps.log_intent(log, PROJECT, "resolve", ("o-1",), PLAN, None))
    [pending] = ActionLog(log.path).pending(PROJECT.slug)  # read afresh: on disk, not in memory
    assert pending.action_id == intent.action_id and pending.outcome == "intent"
    assert [(r.item_id, r.op, r.outcome, r.ledger) for r in pending.records] == [
        ("o-1", "resolve", "intent", verbs.EVENTS)]
    assert pending.records[0].note  # the note's digest tells this row from another's


def test_an_intent_that_cannot_land_is_refused_by_name(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the log's directory should be")
    log = ActionLog(blocker / "actions.jsonl")
    with pytest.raises(verb_steps.IntentNotLogged) as refused:
        asyncio.run(verb_steps.log_intent(log, PROJECT, "resolve", ("o-1",), PLAN, None))
    assert str(log.path) in str(refused.value)


def test_an_outcome_settles_its_intent(tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    intent = asyncio.run(verb_steps.log_intent(log, PROJECT, "resolve", ("o-1",), PLAN, None))
    result = verbs.WriteResult(item_id="o-1", op="resolve", outcome="applied", ledger=verbs.EVENTS)
    action_id = verb_steps.log_outcome(log, PROJECT, "resolve", ("o-1",), "applied", (result,), (), None, intent)
    assert action_id == intent.action_id
    assert log.pending(PROJECT.slug) == []
    assert log.find(intent.action_id).outcome == "applied"


def test_an_outcome_that_cannot_be_logged_is_none(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    log = ActionLog(blocker / "actions.jsonl")
    refusal = verbs.Refusal(item_id="o-1", code="safe-mode", reason="off")
    assert verb_steps.log_outcome(log, PROJECT, "resolve", ("o-1",), "refused", (), (refusal,), None) is None


def _fake_apply(log: ActionLog, seen: list[str]):
    async def apply(plan: verbs.Plan, *, project: ProjectRef, intent, log: ActionLog, **_: object):
        # what daimon would be asked: the intent must be on disk by now
        seen.append("apply:" + ",".join(e.action_id for e in ActionLog(log.path).pending(project.slug)))
        return (verbs.WriteResult(item_id="o-1", op="resolve", outcome="applied", ledger=verbs.EVENTS),)

    return apply


def test_write_ahead_logs_the_intent_before_the_write_and_settles_it_after(tmp_path: Path, monkeypatch) -> None:
    from daimon_tui.store.child import write_request

    log = ActionLog(tmp_path / "actions.jsonl")
    seen: list[str] = []
    monkeypatch.setattr(write_request, "apply", _fake_apply(log, seen))

    def writing(intent) -> object:
        seen.append("writing:" + intent.action_id)
        return lambda: seen.append("wrote")

    results, status, action_id, intent = asyncio.run(verb_steps.write_ahead(
        log, PROJECT, "resolve", ("o-1",), PLAN, None, writing=writing))
    assert seen == [f"writing:{intent.action_id}", f"apply:{intent.action_id}", "wrote"]
    assert status == "applied" and action_id == intent.action_id and len(results) == 1
    assert log.pending(PROJECT.slug) == [] and log.find(intent.action_id).outcome == "applied"


def test_write_ahead_writes_nothing_when_the_intent_cannot_land(tmp_path: Path, monkeypatch) -> None:
    from daimon_tui.store.child import write_request

    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    log = ActionLog(blocker / "actions.jsonl")
    seen: list[str] = []
    monkeypatch.setattr(write_request, "apply", _fake_apply(log, seen))
    with pytest.raises(verb_steps.IntentNotLogged):
        asyncio.run(verb_steps.write_ahead(log, PROJECT, "resolve", ("o-1",), PLAN, None,
                                           writing=lambda _intent: seen.append("writing") or (lambda: None)))
    assert seen == []
