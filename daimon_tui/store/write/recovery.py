"""Resolving interrupted writes at start-up.

The action log is a write-ahead record: an `intent` line is durable before
daimon is written, an outcome line follows. An intent with no outcome means
its writer died in between, or is still writing: only intents whose writer
process is gone are settled here (the intent names it: `writer_process`).

Whether the write landed is daimon's to say: each planned record is matched
in daimon's own ledgers by what the intent planned (the item, the status,
the digest of the note, the app's `ui` source), no older than the intent's
second, and never a row another action's outcome already names (another
instance's write on the same item). A forget's tombstone carries daimon's
`cli` source whoever wrote it, so it is never credited to the app: a
tombstone found is "cannot be told", and `z` never undoes it. The answer is
logged as the intent's outcome (once) and told to the person.
"""

from __future__ import annotations

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord, note_digest
from daimon_tui.models import ProjectRef
from daimon_tui.models.writes import Recovered
from daimon_tui.store import writer_process
from daimon_tui.store.action_log import ActionLog, ActionLogError
from daimon_tui.store.daimon_api.public import api as dapi
from daimon_tui.store.daimon_api.public import store, trust, view

# The event status each op writes (forget's tombstone names its key after the colon).
_EVENT_STATUS = {"reopen": "reopened", "reverify": "reopened", "unforget": store.LIFT_STATUS}

# A daimon record another action's outcome names: (ledger, item or quarantine id, ts).
Taken = frozenset[tuple[str, str, str]]


def taken_by_others(log: ActionLog, action_id: str) -> Taken:
    """The daimon records other actions' outcomes already name as theirs."""
    return frozenset((r.ledger or "", r.ref or r.item_id, r.ts) for e in log.entries()
                     if e.action_id != action_id and e.outcome != "intent"
                     for r in e.records if r.outcome == "applied" and r.ts)


def _status_fits(planned: LoggedRecord, status: str) -> bool:
    want = _EVENT_STATUS.get(planned.op)
    if want is not None:
        return status == want
    # a resolve's status is logged in the app's vocabulary (`safe_status`)
    return verbs.logged_status("resolve", status) == (planned.status or "resolved")


def _event_landed(project: ProjectRef, planned: LoggedRecord, since: str, taken: Taken) -> LoggedRecord | None:
    doubt = None
    for event in reversed(view.item_events(project.target, planned.item_id)):
        status = str(event.status or "").lower()
        if not event.ts or event.ts < since or (planned.ledger or "", planned.item_id, event.ts) in taken:
            continue
        if planned.op == "forget":
            if event.tombstone or status.startswith("forgotten"):
                # daimon writes every tombstone as `cli`: the app's and a
                # `daimon forget` run's cannot be told apart
                raise Unknown("a tombstone by daimon's cli source")
            continue
        if event.source != "ui" or not _status_fits(planned, status):
            continue
        if planned.note is not None and note_digest(planned.item_id, event.note or "") != planned.note:
            # another write's row, or this one's note as daimon judged it (redacted, withheld)
            doubt = doubt or event
            continue
        return planned.model_copy(update={"outcome": "applied", "reason": "recovered", "ts": event.ts,
                                          "ref": planned.item_id, "note": None,
                                          "status": verbs.logged_status(planned.op, status)})
    if doubt is not None:
        raise Unknown("a `ui` row whose note is not the one planned")
    return None


def _trust_landed(project: ProjectRef, planned: LoggedRecord, since: str, taken: Taken) -> LoggedRecord | None:
    qid = planned.ref
    if planned.op == "quarantine":
        now = dapi.lookup(project.target, planned.item_id)
        qid = now.quarantine_id if isinstance(now, view.Withheld) and now.reason == "quarantine" else None
    record = trust.get(qid, project_dir=project.target) if qid else None
    stamp = str(record.get("updated_at") or "") if isinstance(record, dict) else ""
    if not isinstance(record, dict) or stamp < since or (planned.ledger or "", qid or "", stamp) in taken:
        return None
    state = record.get("state")
    if (planned.op == "quarantine" and state == "released") or (planned.op == "release" and state != "released"):
        return None
    return planned.model_copy(update={"outcome": "applied", "reason": "recovered", "ref": qid, "ts": stamp,
                                      "note": None})


class Unknown(Exception):
    """daimon's ledgers cannot say whether this write landed."""


def landed(project: ProjectRef, planned: LoggedRecord, since: str, taken: Taken = frozenset()) -> LoggedRecord | None:
    """daimon's record of this planned write, if one landed at or after
    `since` and is not in `taken`; raises `Unknown` for a ledger whose
    records it cannot match, or a row that may or may not be this write's."""
    if planned.ledger == verbs.TRUST:
        return _trust_landed(project, planned, since, taken)
    if planned.ledger == verbs.EVENTS:
        return _event_landed(project, planned, since, taken)
    raise Unknown(planned.ledger)


def _resolve(log: ActionLog, project: ProjectRef, intent: ActionEntry) -> Recovered | None:
    records = []
    taken = taken_by_others(log, intent.action_id)
    for planned in intent.records:
        try:
            found = landed(project, planned, intent.time, taken)
        except Exception:  # an unreadable or unmatched ledger cannot vouch either way
            found = planned.model_copy(update={"outcome": "failed", "reason": "recovered-unknown", "note": None})
        records.append(found or planned.model_copy(update={"outcome": "not-applied", "reason": "recovered",
                                                           "note": None}))
    got = [r.item_id for r in records if r.outcome == "applied"]
    missed = [r.item_id for r in records if r.outcome == "not-applied"]
    unknown = [r.item_id for r in records if r.outcome == "failed"]
    outcome = "applied" if got else ("failed" if unknown else "not-applied")
    reason = "recovered" if len([x for x in (got, missed, unknown) if x]) <= 1 else "recovered-partial"
    note = Recovered(action_id=intent.action_id, verb=intent.verb, landed=tuple(got), not_landed=tuple(missed),
                     unknown=tuple(unknown))
    try:
        settled = log.settle(intent, outcome, reason=reason, records=tuple(records))
    except ActionLogError as exc:
        return note.model_copy(update={"logged": False, "log_problem": str(exc)})
    # settled meanwhile by its writer or another start: that outcome stands
    return note if settled.records == tuple(records) else None


def recover(log: ActionLog, project: ProjectRef) -> tuple[Recovered, ...]:
    """Settle every intent of `project` that has no outcome and whose writer
    is gone (another instance's in-flight write is its own to settle). Never raises."""
    try:
        pending = [e for e in log.pending(project.slug) if not writer_process.alive(e.writer)]
    except Exception:
        return ()
    return tuple(note for intent in pending if (note := _resolve(log, project, intent)) is not None)
