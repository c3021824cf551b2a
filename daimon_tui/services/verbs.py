"""A verb's steps below the screens: the plan (by the judging child, over the
snapshot it holds), the intent in our action log, the write (by the judging
child, `store.child.write_request`), the outcome line, and what a verb needs
to know before any modal (safe mode, daimon's rules for a retract's input).

Write-ahead rule: nothing reaches daimon unless its intent is durably in the
action log first: `write_ahead` logs the intent, then writes, then logs the
outcome. `ui/verb_flow.py` asks the person (its modals) between the plan and
`write_ahead`; recovery after a kill is `session.recover`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from daimon_tui.domain import undo_plan, verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord, note_digest
from daimon_tui.models import ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.action_log import ActionLog, ActionLogError
from daimon_tui.store.child import plan_request, write_request
from daimon_tui.store.own_files import no_room
from daimon_tui.store.write import plans


class IntentNotLogged(Exception):
    """The intent line could not be written: nothing may reach daimon."""


def write_wait_s() -> float:
    """How long a write waits for the judging child before it is settled from daimon's ledgers."""
    return write_request.WRITE_WAIT_S


def verb_off(verb: str) -> str | None:
    """Why `verb` is off in daimon's current mode (safe mode), or None."""
    return plans.verb_off(verb)


def retract_input_refusal(reason: str, evidence: tuple[str, ...]) -> str | None:
    """daimon's own message for a quarantine's reason and evidence, or None (the retract modal's check)."""
    return plans.retract_input_refusal(reason, evidence)


def _refusal_logged(refusal: verbs.Refusal, op: verbs.Op) -> LoggedRecord:
    return LoggedRecord(item_id=refusal.item_id, op=op, outcome="refused", reason=refusal.code)


_DEFAULT_OP: dict[str, verbs.Op] = {"resolve": "resolve", "retract": "quarantine", "restore": "reopen",
                                    "reverify": "reverify", "forget": "forget", "undo": "reopen"}


def _planned(plan: verbs.Plan) -> tuple[LoggedRecord, ...]:
    # what the intent line names: enough for a restart to ask daimon whether
    # it landed, and to tell its row from another's (the note's digest)
    return tuple(LoggedRecord(item_id=w.item_id, op=w.op, outcome="intent", ledger=w.ledger,
                              ref=w.quarantine_id, status=verbs.logged_status(w.op, w.status),
                              note=note_digest(w.item_id, w.note)
                              if w.ledger == verbs.EVENTS and w.op != "forget" else None)
                 for w in plan.writes)


def log_outcome(log: ActionLog, project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...], status: str,
                results: tuple[verbs.WriteResult, ...], refusals: tuple[verbs.Refusal, ...],
                undoes: str | None, intent: ActionEntry | None = None) -> str | None:
    """The action's outcome line (settling `intent` when there is one); its
    action id, or None when the log could not be written."""
    outcome = {"applied": "applied", "partial": "applied", "refused": "refused", "failed": "failed"}.get(
        status, "not-applied")
    reason = ""
    if status != "applied":
        codes = [r.code for r in results if r.outcome != "applied"] + [r.code for r in refusals]
        reason = codes[0] if codes else ""
    if status == "partial":
        reason = "partial"
    records = tuple(rec for r in results for rec in verbs.logged_records(r)) + tuple(
        _refusal_logged(r, _DEFAULT_OP[verb]) for r in refusals if r.item_id)
    # a line names the items its records touched (an undo: the items undone)
    item_ids = tuple(dict.fromkeys(r.item_id for r in records)) or item_ids
    # only an undo that compensated names what it undid: a refused `z` is a refusal
    undoes = undoes if outcome == "applied" else None
    try:
        if intent is not None:
            entry = log.settle(intent, outcome, reason=reason, records=records, item_ids=item_ids)
        else:
            entry = log.record(project=project.slug, verb=verb, outcome=outcome, item_ids=item_ids,
                               reason=reason, records=records, undoes=undoes)
    except OSError:
        return None
    return entry.action_id


async def head_problem(log: ActionLog) -> str | None:
    """What the log's head file says is wrong with its last line, or None
    (the chain cannot vouch for its own last line)."""
    return await asyncio.to_thread(log.head_check)


async def store_problem(project: ProjectRef) -> str | None:
    """Why daimon's store cannot take the write now (no room on its disk, which
    need not be the log's), or None: said in the preview, before `y`."""
    bucket = await asyncio.to_thread(paths.bucket_dir, project.slug)
    if bucket is None:
        return None
    full = await asyncio.to_thread(no_room, bucket)
    return None if full is None else f"daimon's store {bucket} cannot be written: {full.strerror}"


async def undo_plan_for(log: ActionLog, project: ProjectRef,
                        undo_of: ActionEntry | None) -> tuple[verbs.Plan, ActionEntry | None]:
    """The plan for `z` (the last undoable action, naming any newer ones it
    steps over) or for a chosen Log row, and the action it undoes. Our log is
    read here; daimon's state by the judging child (no fold in the app)."""
    if undo_of is not None:
        undone_by = await asyncio.to_thread(log.undone_by, undo_of.action_id)
        refused = undo_plan.undo_target_refusal(project.slug, undo_of, undone_by)
        return refused or await plan_request.ask_undo(project, undo_of), undo_of
    choice = await asyncio.to_thread(log.undo_choice, project.slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS)
    return await plan_request.ask_undo(project, choice.entry, choice.skipped), choice.entry


async def plan(project: ProjectRef, verb: verbs.VerbName, items: tuple[str, ...],
               data: verbs.VerbInput) -> verbs.Plan:
    """The verb's plan, by the judging child over the snapshot it holds (no fold here)."""
    return await plan_request.ask(project, verb, items, data)


async def log_intent(log: ActionLog, project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...],
                     plan: verbs.Plan, undoes: str | None) -> ActionEntry:
    """The intent line, durably in the log before anything reaches daimon.
    Raises IntentNotLogged (the log's own words) when it cannot land."""
    try:
        return await asyncio.to_thread(log.intend, project=project.slug, verb=verb, item_ids=item_ids,
                                       planned=_planned(plan), undoes=undoes)
    except ActionLogError as exc:
        raise IntentNotLogged(str(exc)) from exc


async def write_ahead(log: ActionLog, project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...],
                      plan: verbs.Plan, undoes: str | None, *, typed_id: str = "",
                      writing: Callable[[ActionEntry], Callable[[], None]],
                      told: Callable[[str], None] | None = None,
                      ) -> tuple[tuple[verbs.WriteResult, ...], str, str | None, ActionEntry]:
    """A confirmed plan, written: the intent durably in the log, then the
    plan's writes by the judging child (the rulings the preview showed are
    approved), then the outcome line settling the intent.

    Raises IntentNotLogged before anything reaches daimon. `writing(intent)`
    is called once the intent is logged and the write starts; what it returns
    is called when the write returned (or failed). Returns the results, the
    status word, the outcome line's action id (None: it could not be logged;
    the next start settles the intent) and the intent."""
    intent = await log_intent(log, project, verb, item_ids, plan, undoes)
    rulings = tuple(r for f in plan.items if f.reach for r in f.reach.active_rulings)
    written = writing(intent)
    try:
        results = await write_request.apply(plan, project=project, intent=intent, typed_id=typed_id,
                                            approved_rulings=rulings, told=told, log=log)
    finally:
        written()
    status = verbs.outcome_status(results, plan.refusals)
    action_id = log_outcome(log, project, verb, item_ids, status, results, plan.refusals, undoes, intent)
    return results, status, action_id, intent
