"""Issue 25 point 9: the action log holds one record per row daimon wrote,
with daimon's own word and time, and a refused undo reads as a refusal."""

from __future__ import annotations

import json
from pathlib import Path

from daimon_briefing import store

from daimon_tui.domain import verbs
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.read.queue import build_queue
from daimon_tui.store.write import decisions, writer
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.store.test_queue import FAST, NOW, queue_store  # noqa: F401  (fixture)
from tests.store.test_writer import NIGHTLY, QUARANTINED_U, RETRY_Q


def _rows(path: Path, skip: int) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[skip:] if line.strip()]


def _count(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def _word(row: dict) -> str:
    return row.get("status") or row.get("event")


def _ref(row: dict) -> str:
    return row.get("item_ref") or next(v for k, v in row.items() if k.endswith("_id") and k != "event_id")


def _assert_records_are_rows(records, rows: list[dict]) -> None:
    assert rows, "daimon wrote no row"
    assert [(r.ref, r.status, r.ts) for r in records] == [(_ref(row), _word(row), row["ts"]) for row in rows]
    assert all(r.ts for r in records)


def test_forget_and_unforget_log_every_row_daimon_wrote_with_its_time_and_word(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[NIGHTLY]
    events = store.ledger_file(p.target, verbs.EVENTS)
    before = _count(events)
    forgot = writer.forget_item(item, item, "secret", project=p)
    assert forgot.outcome == "applied"
    written = _rows(events, before)
    assert len(written) >= 2  # the id row and the key row, in one append
    _assert_records_are_rows(verbs.logged_records(forgot), written)
    assert all(r.status.startswith("forgotten:") for r in verbs.logged_records(forgot))
    before = _count(events)
    lifted = writer.unforget(item, project=p)
    assert lifted.outcome == "applied"
    written = _rows(events, before)
    assert len(written) >= 2  # a lift writes one row per standing ref
    _assert_records_are_rows(verbs.logged_records(lifted), written)
    assert {r.status for r in verbs.logged_records(lifted)} == {"reopened:unforget"}  # daimon's word, not "lifted"


def test_resolve_and_retract_log_daimons_rows(demo_store) -> None:
    p, table = ref(demo_store), ids(demo_store.project)
    events = store.ledger_file(p.target, verbs.EVENTS)
    trust_path = store.ledger_file(p.target, verbs.TRUST)
    before = _count(events)
    resolved = writer.resolve(table[RETRY_Q], "done", project=p)
    assert resolved.outcome == "applied"
    _assert_records_are_rows(verbs.logged_records(resolved), _rows(events, before))
    before = _count(trust_path)
    retracted = writer.quarantine(table[NIGHTLY], "it was never right", ("artifact:notes.md",), project=p)
    assert retracted.outcome == "applied"
    _assert_records_are_rows(verbs.logged_records(retracted), _rows(trust_path, before))
    before = _count(trust_path)
    released = writer.restore(table[QUARANTINED_U], project=p)
    assert released.outcome == "applied" and released.op == "release"
    _assert_records_are_rows(verbs.logged_records(released), _rows(trust_path, before))


def test_queue_verdicts_log_daimons_rows_with_its_word_and_time(queue_store, tmp_path) -> None:  # noqa: F811
    project, _ids = queue_store
    log = ActionLog(tmp_path / "actions.jsonl")
    by_kind = {e.kind: e for e in build_queue(project, NOW.timestamp()).entries}
    plan = [("agent-claim", "claim-confirm"), ("supersede-candidate", "supersede-confirm"),
            ("amendment", "amend-ratify"), ("ruling", "ruling-ratify"), ("trust", "trust-dismiss"),
            ("relation", "relation-confirm")]
    for kind, verb in plan:
        path = store.ledger_file(project.target, decisions.LEDGER_OF[verb])
        before = _count(path)
        verdict = decisions.decide(by_kind[kind], verb, project, log=log, timing=FAST)
        assert verdict.applied, (verb, verdict)
        entry = log.find(verdict.action_id)
        _assert_records_are_rows(entry.records, _rows(path, before))
    superseded = log.entries()[1].records[0].status
    assert superseded.startswith("superseded-by:")  # daimon's word, not "superseded"


def test_a_refused_undo_is_a_refusal_not_an_undo(tmp_path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    done = log.record(project="p", verb="resolve", outcome="applied", item_ids=("o-1",))
    intent = log.intend(project="p", verb="undo", item_ids=("o-1",), undoes=done.action_id)
    refused = log.settle(intent, "refused", reason="newer-record")
    assert refused.undoes is None and refused.outcome == "refused"
    assert log.undone_by(done.action_id) is None
