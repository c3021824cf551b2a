"""Resolving interrupted writes at start-up.

The action log is a write-ahead record: an `intent` line is durable before
daimon is written, an outcome line follows. An intent with no outcome means the
app died in between. Whether the write landed is daimon's to say, so each
planned record is looked up in daimon's own ledgers (a record by the app's
source, on that item, no older than the intent's second); the answer is logged
as the intent's outcome and told to the person.
"""

from __future__ import annotations

from daimon_briefing import api as dapi
from daimon_briefing import store, trust, view

from daimon_tui.domain import verbs
from daimon_tui.domain.action_log import ActionEntry, ActionLog, ActionLogError, LoggedRecord
from daimon_tui.models import Frozen, ProjectRef

# The event status each op writes (forget's tombstone names its key after the colon).
_EVENT_STATUS = {"reopen": "reopened", "reverify": "reopened", "unforget": store.LIFT_STATUS}


class Recovered(Frozen):
    """One interrupted action and what daimon's ledgers say became of it."""

    action_id: str
    verb: str
    landed: tuple[str, ...] = ()
    not_landed: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    logged: bool = True
    log_problem: str = ""

    @property
    def message(self) -> str:
        parts = [f"An interrupted {self.verb} ({self.action_id}) from an earlier run:"]
        if self.landed:
            parts.append(f"landed in daimon's ledger for {', '.join(self.landed)}")
        if self.not_landed:
            parts.append(("and " if self.landed else "") + f"did not land for {', '.join(self.not_landed)}")
        if self.unknown:
            parts.append(f"cannot be told from daimon's ledgers for {', '.join(self.unknown)} (see the queue)")
        parts.append("; recorded in the action log." if self.logged
                     else f"; NOT recorded: {self.log_problem}")
        return " ".join(parts).replace(" ;", ";")


def _event_landed(project: ProjectRef, planned: LoggedRecord, since: str) -> LoggedRecord | None:
    want = _EVENT_STATUS.get(planned.op, (planned.status or "").lower())
    sources = ("ui", "cli") if planned.op == "forget" else ("ui",)
    for event in reversed(view.item_events(project.target, planned.item_id)):
        status = str(event.status or "").lower()
        if not event.ts or event.ts < since or event.source not in sources:
            continue
        if planned.op == "forget" and not (event.tombstone or status.startswith("forgotten")):
            continue
        if planned.op != "forget" and want and status != want:
            continue
        return planned.model_copy(update={"outcome": "applied", "reason": "recovered", "ts": event.ts,
                                          "ref": planned.item_id,
                                          "status": verbs.logged_status(planned.op, status)})
    return None


def _trust_landed(project: ProjectRef, planned: LoggedRecord, since: str) -> LoggedRecord | None:
    qid = planned.ref
    if planned.op == "quarantine":
        now = dapi.lookup(project.target, planned.item_id)
        qid = now.quarantine_id if isinstance(now, view.Withheld) and now.reason == "quarantine" else None
    record = trust.get(qid, project_dir=project.target) if qid else None
    if not isinstance(record, dict) or str(record.get("updated_at") or "") < since:
        return None
    state = record.get("state")
    if (planned.op == "quarantine" and state == "released") or (planned.op == "release" and state != "released"):
        return None
    return planned.model_copy(update={"outcome": "applied", "reason": "recovered", "ref": qid,
                                      "ts": str(record.get("updated_at"))})


class Unknown(Exception):
    """daimon's ledgers cannot say whether this write landed."""


def landed(project: ProjectRef, planned: LoggedRecord, since: str) -> LoggedRecord | None:
    """daimon's record of this planned write, if one landed at or after
    `since`; raises `Unknown` for a ledger whose records it cannot match."""
    if planned.ledger == verbs.TRUST:
        return _trust_landed(project, planned, since)
    if planned.ledger == verbs.EVENTS:
        return _event_landed(project, planned, since)
    raise Unknown(planned.ledger)


def _resolve(log: ActionLog, project: ProjectRef, intent: ActionEntry) -> Recovered:
    records = []
    for planned in intent.records:
        try:
            found = landed(project, planned, intent.time)
        except Exception:  # an unreadable or unmatched ledger cannot vouch either way
            found = planned.model_copy(update={"outcome": "failed", "reason": "recovered-unknown"})
        records.append(found or planned.model_copy(update={"outcome": "not-applied", "reason": "recovered"}))
    got = [r.item_id for r in records if r.outcome == "applied"]
    missed = [r.item_id for r in records if r.outcome == "not-applied"]
    unknown = [r.item_id for r in records if r.outcome == "failed"]
    outcome = "applied" if got else ("failed" if unknown else "not-applied")
    reason = "recovered" if len([x for x in (got, missed, unknown) if x]) <= 1 else "recovered-partial"
    note = Recovered(action_id=intent.action_id, verb=intent.verb, landed=tuple(got), not_landed=tuple(missed),
                     unknown=tuple(unknown))
    try:
        log.settle(intent, outcome, reason=reason, records=tuple(records))
    except ActionLogError as exc:
        return note.model_copy(update={"logged": False, "log_problem": str(exc)})
    return note


def recover(log: ActionLog, project: ProjectRef) -> tuple[Recovered, ...]:
    """Settle every intent of `project` that has no outcome. Never raises."""
    try:
        pending = log.pending(project.slug)
    except Exception:
        return ()
    return tuple(_resolve(log, project, intent) for intent in pending)
