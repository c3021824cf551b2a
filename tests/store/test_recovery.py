"""Start-up recovery asks daimon's ledgers what became of each interrupted intent."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.domain.action_log import ActionLog, LoggedRecord
from daimon_tui.store.write import recovery, writer
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
NIGHTLY = "Switch the nightly job to its own bucket prefix"


def _intent(log: ActionLog, slug: str, item: str, op: str, ledger: str, status: str | None = None):
    planned = LoggedRecord(item_id=item, op=op, outcome="intent", ledger=ledger, status=status)
    return log.intend(project=slug, verb="resolve" if op == "resolve" else op, item_ids=(item,),
                      planned=(planned,))


def test_each_pending_intent_is_settled_by_what_daimon_holds(demo_store, tmp_path: Path) -> None:
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
