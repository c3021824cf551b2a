"""Start-up recovery asks daimon's ledgers what became of each interrupted intent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from daimon_briefing import store
from daimon_briefing.surfaces import Writer

from daimon_tui.domain import undo_plan, verbs
from daimon_tui.domain.action_entries import LoggedRecord, note_digest
from daimon_tui.store import writer_process
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.write import plans, recovery, writer
from tests.daimon_records import events_stamped
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
NIGHTLY = "Switch the nightly job to its own bucket prefix"


def _intent(log: ActionLog, slug: str, item: str, op: str, ledger: str, status: str | None = None,
            note: str | None = None):
    planned = LoggedRecord(item_id=item, op=op, outcome="intent", ledger=ledger, status=status,
                           note=None if note is None else note_digest(item, note))
    return log.intend(project=slug, verb="resolve" if op == "resolve" else op, item_ids=(item,),
                      planned=(planned,))


def test_each_pending_intent_is_settled_by_what_daimon_holds(demo_store, tmp_path: Path, writer_gone) -> None:
    p = ref(demo_store)
    retry, nightly = ids(demo_store.project)[RETRY_Q], ids(demo_store.project)[NIGHTLY]
    log = ActionLog(tmp_path / "actions.jsonl")
    wrote = _intent(log, p.slug, retry, "resolve", "events.jsonl", "done")
    assert writer.resolve(retry, "done", project=p).outcome == "applied"
    never = _intent(log, p.slug, nightly, "resolve", "events.jsonl", "done")
    queue = _intent(log, p.slug, "amd-1", "amend-ratify", "amendments.jsonl")
    other = _intent(log, "another-project", retry, "resolve", "events.jsonl", "done")

    notes = {n.action_id: n for n in recovery.recover(log, p)}
    assert set(notes) == {wrote.action_id, never.action_id, queue.action_id}
    assert notes[wrote.action_id].landed == (retry,)
    assert notes[never.action_id].not_landed == (nightly,) and "did not land" in notes[never.action_id].message
    assert notes[queue.action_id].unknown == ("amd-1",)
    outcomes = {e.action_id: e.outcome for e in log.entries()}
    assert outcomes[wrote.action_id] == "applied" and outcomes[never.action_id] == "not-applied"
    assert outcomes[queue.action_id] == "failed"
    assert [e.action_id for e in log.pending()] == [other.action_id]  # another project's waits for it
    assert recovery.recover(log, p) == ()


# ---- issue 24: whose intent, and whose row ------------------------------------------


def test_an_intent_whose_writer_still_runs_is_left_to_it(demo_store, tmp_path: Path) -> None:
    """Another instance's in-flight write is not settled by this one's start-up."""
    p = ref(demo_store)
    log = ActionLog(tmp_path / "actions.jsonl")
    intent = _intent(log, p.slug, ids(demo_store.project)[RETRY_Q], "resolve", "events.jsonl", "resolved")
    assert intent.writer == writer_process.me() and writer_process.alive(intent.writer)
    assert recovery.recover(log, p) == ()
    assert [e.action_id for e in log.pending()] == [intent.action_id]


def _applied_by_another(log: ActionLog, p, item: str, status: str, note: str) -> None:
    """Instance B's whole verb, logged as `verb_flow` logs it."""
    theirs = log.intend(project=p.slug, verb="resolve", item_ids=(item,))
    result = writer.resolve(item, status, note, project=p)
    assert result.outcome == "applied"
    log.settle(theirs, "applied", records=(LoggedRecord(item_id=item, op="resolve", outcome="applied",
                                                         ledger="events.jsonl", ref=item, ts=result.ts,
                                                         status=verbs.logged_status("resolve", status)),))


def test_a_row_another_actions_outcome_names_is_never_credited(demo_store, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A was killed after its intent; B resolved the same item (same status, same
    empty note): A's restart must not call B's row its own, or `z` undoes B's write."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    monkeypatch.setattr(writer_process, "_ME", f"{2**22 + 7}:1")
    a = _intent(log, p.slug, item, "resolve", "events.jsonl", "resolved", note="")
    monkeypatch.setattr(writer_process, "_ME", None)
    _applied_by_another(log, p, item, "resolved", "")
    [note] = recovery.recover(log, p)
    assert note.action_id == a.action_id and note.not_landed == (item,) and not note.landed
    undoable = log.undo_choice(p.slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry
    assert undoable is not None and undoable.action_id != a.action_id


def test_a_ui_row_with_another_note_is_not_the_interrupted_write(demo_store, tmp_path: Path, writer_gone) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    a = _intent(log, p.slug, item, "resolve", "events.jsonl", "resolved", note="shipped in 1.2")
    # another app instance's resolve (its outcome never logged), same status, its own note
    assert store.append_event(item, "resolved", note="fixed upstream", source="ui", project_dir=p.target,
                              writer=Writer.HUMAN)
    [note] = recovery.recover(log, p)
    assert note.action_id == a.action_id and not note.landed and note.unknown == (item,)


def test_an_older_ui_record_is_never_the_interrupted_write(demo_store, tmp_path: Path, writer_gone) -> None:
    """The item was resolved from the app an hour ago (the same status, the same
    empty note) and reopened since; the interrupted resolve never landed."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    now = datetime.now(UTC)
    with events_stamped(now - timedelta(hours=1)):
        assert store.append_event(item, "resolved", source="ui", project_dir=p.target, writer=Writer.HUMAN)
    with events_stamped(now - timedelta(minutes=30)):
        assert store.append_event(item, "reopened", source="cli", project_dir=p.target, writer=Writer.HUMAN)
    log = ActionLog(tmp_path / "actions.jsonl")
    a = _intent(log, p.slug, item, "resolve", "events.jsonl", "resolved", note="")
    [note] = recovery.recover(log, p)
    assert note.action_id == a.action_id and note.not_landed == (item,) and not note.landed


def test_a_cli_tombstone_is_never_credited_to_an_interrupted_forget(demo_store, tmp_path: Path,
                                                                     writer_gone) -> None:
    """`daimon forget` run by hand after the app died: its tombstone (daimon's
    `cli` source, as the app's own) is not the app's write; `z` never undoes it."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    a = _intent(log, p.slug, item, "forget", "events.jsonl", "forgotten")
    assert store.append_event(item, "forgotten:" + "0" * 16, kind="tombstone", source="cli", project_dir=p.target,
                              tombstone=True, writer=Writer.HUMAN)
    [note] = recovery.recover(log, p)
    assert note.action_id == a.action_id and not note.landed and note.unknown == (item,)
    [entry] = [e for e in log.entries() if e.action_id == a.action_id]
    assert entry.outcome == "failed"
    assert log.undo_choice(p.slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry is None


def test_undo_names_the_time_daimon_recorded_for_a_recovered_write(demo_store, tmp_path: Path,
                                                                    writer_gone) -> None:
    """The intent was logged and daimon written minutes before the restart that
    settled it: `z`'s preview names daimon's time for the write, not the restart's."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    now = datetime.now(UTC)
    planned = LoggedRecord(item_id=item, op="resolve", outcome="intent", ledger="events.jsonl",
                           status="resolved", note=note_digest(item, ""))
    intent = log._entry(project=p.slug, verb="resolve", outcome="intent", item_ids=(item,), records=(planned,),
                        writer=writer_process.me())
    log.append(intent.model_copy(update={"time": (now - timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")}))
    written = now - timedelta(minutes=7)
    with events_stamped(written):
        assert store.append_event(item, "resolved", source="ui", project_dir=p.target, writer=Writer.HUMAN)
    [note] = recovery.recover(log, p)
    assert note.landed == (item,)
    entry = log.undo_choice(p.slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry
    assert entry is not None and entry.action_id == intent.action_id
    plan = plans.build_undo_plan(p, entry)
    stamp = written.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert f"at {stamp}" in plan.warnings[0] and entry.time not in plan.warnings[0]
