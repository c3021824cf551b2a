"""One coroutine runs a verb end to end: inputs → plan → preview → confirm →
intent logged → apply (by the judging child, which holds daimon's folded
snapshot; `write_request`) → re-read → outcome logged → notify.

Write-ahead rule: nothing reaches daimon unless its intent is durably in the
action log first. A log that cannot be written is named in the preview (no
`y`), and an intent that then fails to land refuses the verb.

Call it from an async worker, because it waits on modal screens:

    @work(exclusive=True, group="verb")
    async def run_verb_worker(self, verb):
        await run_verb(self.app, verb, ids, project, log)
"""

from __future__ import annotations

import asyncio

from textual.app import App

from daimon_tui.domain import undo_plan, verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord, note_digest
from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.store.action_log import ActionLog, ActionLogError
from daimon_tui.store.child import plan_request, write_request
from daimon_tui.store.write import plans
from daimon_tui.ui import own_writes, pending_write
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.screens.verb_modals import (
    ForgetConfirmModal,
    NothingSelectedModal,
    PlanPreviewModal,
    ResolveModal,
    RetractModal,
    ReverifyModal,
)

# How much of an item's text a toast names it by (inert, cut with a marker):
# a toast wraps, so a sentence is shown whole; only a text past a few lines is cut.
TOAST_TEXT_CUT = 240


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


def _log(log: ActionLog, project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...], status: str,
         results: tuple[verbs.WriteResult, ...], refusals: tuple[verbs.Refusal, ...],
         undoes: str | None, intent: ActionEntry | None = None) -> str | None:
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


async def _ask(app: App, screen) -> object:
    return await navigator(app).open_and_wait(screen)


def _resolve_input(data: verbs.ResolveInput, prefill: str, statuses: dict[str, str],
                   confirmed: frozenset[str]) -> verbs.ResolveInput:
    """Each item keeps its own prefilled status (from its own world-check)
    unless the person chose another status in the modal: then it is for all."""
    per_item = statuses if data.status == prefill else {}
    return data.model_copy(update={"per_item": per_item, "world_confirmed": confirmed})


async def _undo_plan(log: ActionLog, project: ProjectRef,
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


async def run_verb(app: App, verb: verbs.VerbName, items: tuple[str, ...], project: ProjectRef,
                   log: ActionLog, *, status: str = "resolved", statuses: dict[str, str] | None = None,
                   confirmed: frozenset[str] = frozenset(), undo_of: ActionEntry | None = None,
                   states: tuple[str | None, ...] | None = None,
                   texts: dict[str, str] | None = None) -> verbs.Outcome:
    """`undo_of` undoes that logged action (a Log row) instead of the last one;
    `states` are the items' states where the verb came from (reverify's words),
    `texts` their texts (the dialogs and the toast name an item by its text too)."""
    items = tuple(dict.fromkeys(i for i in items if i))
    data: verbs.VerbInput = None
    if verb != "undo" and not items:
        await _ask(app, NothingSelectedModal(verb))
        return verbs.Outcome(verb=verb, status="cancelled", message="no item selected")
    off = plans.verb_off(verb)
    if off:  # safe mode: the verb needs a private daimon call; refused (and logged) before any modal
        refusals = tuple(verbs.Refusal(item_id=i, code="safe-mode", reason=off) for i in items)
        action_id = _log(log, project, verb, items, "refused", (), refusals, None)
        app.notify(off, title=f"{verb}: off in safe mode", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=refusals, action_id=action_id, message=off)
    if verb == "resolve":
        data = await _ask(app, ResolveModal(items, status=status).with_texts(texts))
        if isinstance(data, verbs.ResolveInput):
            data = _resolve_input(data, status, statuses or {}, confirmed)
    elif verb == "retract":
        data = await _ask(app, RetractModal(items, check=plans.retract_input_refusal).with_texts(texts))
    elif verb == "reverify":
        data = await _ask(app, ReverifyModal(items, states=states).with_texts(texts))
    if verb in ("resolve", "retract", "reverify") and data is None:
        return verbs.Outcome(verb=verb, status="cancelled")

    undo_entry = None
    if verb == "undo":
        # the chain cannot vouch for its own last line: its head file does.
        # Not logged: the log refuses to append over a line its head disowns.
        head = await asyncio.to_thread(log.head_check)
        if head is not None:
            app.notify(f"undo refused: {head}", title="undo: refused", severity="error")
            return verbs.Outcome(verb=verb, status="refused", message=head)
    try:
        if verb == "undo":
            plan, undo_entry = await _undo_plan(log, project, undo_of)
        else:
            # by the judging child, over the snapshot it holds: no fold here
            plan = await plan_request.ask(project, verb, items, data)
    except Exception as exc:  # an unreadable store is a message, not a crash
        app.notify(f"{verb}: could not read daimon's state ({type(exc).__name__})", severity="error")
        return verbs.Outcome(verb=verb, status="failed", message=type(exc).__name__)

    undoes = undo_entry.action_id if undo_entry is not None else None
    logged_items = items if verb != "undo" else (undo_entry.item_ids if undo_entry is not None else ())
    if not plan.allowed:
        message = verbs.summarize(verb, (), plan.refusals)
        action_id = _log(log, project, verb, logged_items, "refused", (), plan.refusals, undoes)
        app.notify(message, title=f"{plan.title}: refused", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=plan.refusals, action_id=action_id,
                             message=message)

    log_problem = await asyncio.to_thread(log.probe)
    if not await _ask(app, PlanPreviewModal(plan, log_problem=log_problem)) or log_problem:
        return verbs.Outcome(verb=verb, status="refused" if log_problem else "cancelled",
                             message=log_problem or "")
    typed_id = ""
    if verb == "forget":
        confirmed = await _ask(app, ForgetConfirmModal(items[0]))
        if not isinstance(confirmed, verbs.ForgetInput) or confirmed.typed_id != items[0]:
            return verbs.Outcome(verb=verb, status="cancelled", message="forget not confirmed")
        typed_id = confirmed.typed_id
        plan = plan.model_copy(update={"writes": tuple(w.model_copy(update={"note": confirmed.reason})
                                                       for w in plan.writes)})
    rulings = tuple(r for f in plan.items if f.reach for r in f.reach.active_rulings)
    try:
        intent = await asyncio.to_thread(log.intend, project=project.slug, verb=verb, item_ids=logged_items,
                                         planned=_planned(plan), undoes=undoes)
    except ActionLogError as exc:
        message = f"nothing was written to daimon: {exc}"
        app.notify(message, title=f"{plan.title}: refused", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=plan.refusals, message=message)
    own_writes.writing(app)
    pending = asyncio.create_task(pending_write.shown_after(app, plan.title, logged_items, intent.time))

    def told(story: str) -> None:
        app.notify(story, title=f"{plan.title}: the judging child failed", severity="warning", timeout=30)

    try:
        results = await write_request.apply(plan, project=project, intent=intent, typed_id=typed_id,
                                            approved_rulings=rulings, told=told, log=log)
    finally:
        pending.cancel()
        own_writes.wrote(app)
    status_word = verbs.outcome_status(results, plan.refusals)
    action_id = _log(log, project, verb, logged_items, status_word, results, plan.refusals, undoes, intent)
    message = verbs.summarize(verb, results, plan.refusals)
    # the text of the item written (an undo's is the undone action's, not the row under the cursor)
    if len(logged_items) == 1 and (texts or {}).get(logged_items[0]):
        message += f": {inert((texts or {})[logged_items[0]], limit=TOAST_TEXT_CUT)}"
    if action_id is None:
        # the intent is logged: the next start settles it from daimon's ledgers
        action_id = intent.action_id
        message += (" (its outcome could not be logged: the next logged action writes it, or the next start "
                    "records it from daimon's ledgers)")
    if status_word == "applied":
        app.notify(message, title=plan.title)
    else:
        app.notify(message, title=f"{plan.title}: {status_word}", severity="error")
    return verbs.Outcome(verb=verb, status=status_word, results=results, refusals=plan.refusals,
                         action_id=action_id, message=message)
