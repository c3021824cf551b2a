"""Undo, planned: the compensating record for each write of a logged action
(resolve→reopen, quarantine→release, reopen→resolve, release→quarantine),
refused where daimon's current record is not the app's own write."""

from __future__ import annotations

import dataclasses

from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.badges import mark_label, raises_trust
from daimon_tui.domain.verbs import (
    EVENTS,
    TRUST,
    ItemFacts,
    Op,
    Plan,
    PlannedWrite,
    Refusal,
    StoreGuard,
    common_refusal,
    logged_status,
    refuse,
    safe_status,
)
from daimon_tui.models.records import Record

UNDOABLE_VERBS = frozenset({"resolve", "retract", "restore"})
UNDOABLE_OPS = frozenset({"resolve", "quarantine", "reopen", "release"})


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DoneRecord(Record):
    """One applied write of a logged action, as undo needs it (ids only)."""

    item_id: str
    op: Op
    status: str | None = None
    quarantine_id: str | None = None
    undid: str | None = None
    ts: str | None = None


def action_time(entry: ActionEntry) -> str:
    """When the action wrote: for one settled by a later start's recovery,
    the time daimon recorded for its write (the outcome line's own time is
    the recovery's), else the outcome line's time."""
    if entry.reason.startswith("recovered"):
        stamps = [r.ts for r in entry.records if r.outcome == "applied" and r.ts]
        if stamps:
            return max(stamps)
    return entry.time


def describe_action(entry: ActionEntry) -> str:
    """`resolve of r-1, r-2 at <time> (act-…)`: how a preview names an action."""
    items = ", ".join(entry.item_ids) if len(entry.item_ids) <= 4 else f"{len(entry.item_ids)} items"
    return f"{entry.verb} of {items or 'no item'} at {action_time(entry)} ({entry.action_id})"


def _not_ours(done: DoneRecord, facts: ItemFacts) -> Refusal | None:
    """Undo compensates only the app's own write: when daimon's current record
    for the item is a newer one (a verdict written since, by anyone), refuse
    and name it rather than overwrite it."""
    if done.op in ("resolve", "reopen"):
        latest = facts.latest
        want = done.status if done.op == "resolve" else "reopened"
        ours = (latest is not None and latest.source == "ui"
                and logged_status(done.op, latest.status) == want
                and (done.ts is None or latest.ts == done.ts))
        if ours or latest is None:
            return None
        return refuse(facts, "newer-record",
                       f"daimon's current record is {safe_status(latest.status)!r} from {latest.source!r} "
                       f"at {latest.ts}, not this app's write; undo will not overwrite it")
    if done.op == "quarantine" and facts.quarantine_id and done.quarantine_id \
            and facts.quarantine_id != done.quarantine_id:
        return refuse(facts, "newer-record",
                       f"the value is withheld by quarantine {facts.quarantine_id} now, not this app's "
                       f"{done.quarantine_id}; undo will not release it")
    return None


def undo_write(done: DoneRecord, facts: ItemFacts, guard: StoreGuard,
               action_id: str) -> PlannedWrite | Refusal:
    """The compensating record for one applied write: resolve→reopen,
    quarantine→release, reopen→resolve (with the status it undid),
    release→quarantine again. Forget and unforget are never undone."""
    note = f"undo of daimon-tui action {action_id}"
    if done.op not in UNDOABLE_OPS:
        return refuse(facts, "not-undoable", f"a {done.op} cannot be undone")
    refused = common_refusal(facts, guard, TRUST if done.op in ("quarantine", "release") else EVENTS)
    if refused is None:
        refused = _not_ours(done, facts)
    if refused:
        return refused
    if done.op == "resolve":
        if facts.lifecycle not in ("resolved", "superseded"):
            return refuse(facts, "state-moved", f"the item is {facts.lifecycle} now; nothing to undo")
        return PlannedWrite(item_id=facts.item_id, op="reopen", ledger=EVENTS, status="reopened", note=note,
                            undoes=done.status, record=f"events.jsonl reopened {facts.item_id}, source ui")
    if done.op == "quarantine":
        qid = done.quarantine_id or facts.quarantine_id
        if facts.lifecycle != "quarantined" or not qid:
            return refuse(facts, "state-moved", f"the item is {facts.lifecycle} now; nothing to undo")
        return PlannedWrite(item_id=facts.item_id, op="release", ledger=TRUST, quarantine_id=qid,
                            record=f"trust.jsonl released {qid}, channel ui")
    if done.op == "reopen":
        if facts.lifecycle != "active":
            return refuse(facts, "state-moved", f"the item is {facts.lifecycle} now; nothing to undo")
        status = done.undid or "resolved"
        return PlannedWrite(item_id=facts.item_id, op="resolve", ledger=EVENTS, status=status, note=note,
                            record=f"events.jsonl resolution {facts.item_id} status {status!r}, source ui")
    if facts.lifecycle == "quarantined" or facts.text is None:
        return refuse(facts, "state-moved", f"the item is {facts.lifecycle} now; nothing to undo")
    return PlannedWrite(item_id=facts.item_id, op="quarantine", ledger=TRUST, kind=facts.kind,
                        reason=note, evidence=(f"artifact:daimon-tui-action-{action_id}",),
                        record=f"trust.jsonl quarantined ({facts.kind}) again, channel ui")


# What daimon will not reverse, and how the item's mark and badges change, per compensating op.
_UNDO_EFFECTS: dict[str, tuple[str, ...]] = {
    "reopen": ("{id}: mark and badges: shows in the briefing again, marked freshly verified (the reopen is "
               "its newest verification), not ? unverified as before the resolve",
               "{id}: corroboration reset by the resolution does NOT come back (a ×N badge stays gone)"),
    "release": ("{id}: every item with this value shows again; mark and badges: as before the retraction",
                "{id}: the quarantine record stays in trust.jsonl, marked released"),
    "resolve": ("{id}: withheld again (resolved); the resolution time becomes its last-verified time; "
                "mark and badges: the row leaves the briefing again",
                "{id}: corroboration is reset by the resolution and will not come back on a later reopen"),
    "quarantine": ("{id}: every item with this value is hidden again: daimon re-activates the same "
                   "quarantine id (keyed by value) with this undo as its reason",
                   "{id}: the original reason and evidence are not restored; corroboration is kept; "
                   "mark and badges: the rows leave the briefing again"),
}


def plan_undo(project: str, entry: ActionEntry, done: list[DoneRecord], facts: dict[str, ItemFacts],
              guard: StoreGuard, skipped: tuple[ActionEntry, ...] = ()) -> Plan:
    """Compensate `entry`. `skipped` are newer applied actions that cannot be
    undone and stand in between: the preview names them, so a quick `y`
    never undoes an older action without saying so."""
    writes, refusals = [], []
    for record in done:
        got = undo_write(record, facts.get(record.item_id) or ItemFacts(item_id=record.item_id), guard,
                         entry.action_id)
        (writes if isinstance(got, PlannedWrite) else refusals).append(got)
    warnings = [f"undoes: {describe_action(entry)}"]
    if skipped:
        warnings.append("NEWER actions that cannot be undone stand in between; this undoes the OLDER one "
                        "named above: " + "; ".join(describe_action(e) for e in skipped))
    effects = ["a compensating record is appended; the original record stays in daimon's ledger",
               "it lands at a later second than the record it undoes (daimon folds by the second)"]
    for w in writes:
        effects.extend(line.format(id=w.item_id) for line in _UNDO_EFFECTS[w.op])
    raised = tuple(line for w in writes if (line := trust_raised(w, facts.get(w.item_id))))
    return Plan(verb="undo", project=project, writes=tuple(writes), refusals=tuple(refusals),
                effects=tuple(effects), warnings=tuple(warnings), items=tuple(facts.values()),
                undoes=entry.action_id, steps_over=tuple(e.action_id for e in skipped), trust_raised=raised)


def trust_raised(write: PlannedWrite, facts: ItemFacts | None) -> str | None:
    """The line naming a reopen that brings its item back more trusted than it
    would read now without the resolve it undoes, or None."""
    if write.op != "reopen" or facts is None:
        return None
    before, after = facts.mark_without_resolve, facts.mark_after_reopen
    if not raises_trust(before, after):
        return None
    return (f"{write.item_id} comes back [{mark_label(after)}], not [{mark_label(before)}] as it would read "
            "without the resolve: daimon counts the reopen as its newest verification, so a carried item past "
            "its staleness budget reads as fresh again; nothing about it was checked")


def undo_target_refusal(project: str, entry: ActionEntry, undone_by: str | None) -> Plan | None:
    """Why a chosen action (a Log row) cannot be undone, or None when it can be planned."""
    reason = code = None
    if undone_by:
        code, reason = "already-undone", f"{describe_action(entry)} was already undone by {undone_by}"
    elif entry.verb not in UNDOABLE_VERBS or entry.outcome != "applied" or not any(
            r.outcome == "applied" and r.op in UNDOABLE_OPS for r in entry.records):
        code, reason = "not-undoable", f"{describe_action(entry)} wrote nothing that undo can compensate"
    if code is None:
        return None
    return Plan(verb="undo", project=project, undoes=entry.action_id,
                refusals=(Refusal(item_id="", code=code, reason=reason or ""),))


def nothing_to_undo(project: str, skipped: tuple[ActionEntry, ...] = ()) -> Plan:
    reason = "no applied resolve, retract or restore to undo in this project"
    if skipped:
        reason += "; the last action cannot be undone: " + describe_action(skipped[0])
    return Plan(verb="undo", project=project,
                refusals=(Refusal(item_id="", code="nothing-to-undo", reason=reason),))
