"""One coroutine runs a verb end to end: inputs → plan → preview → confirm →
intent logged → apply (by the judging child, which holds daimon's folded
snapshot; `services.verbs`) → re-read → outcome logged → notify.

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
from collections.abc import Callable

from textual.app import App

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.services import action_log
from daimon_tui.services import verbs as verb_steps
from daimon_tui.services.action_log import ActionLog
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


async def _ask(app: App, screen) -> object:
    return await navigator(app).open_and_wait(screen)


def _resolve_input(data: verbs.ResolveInput, prefill: str, statuses: dict[str, str],
                   confirmed: frozenset[str]) -> verbs.ResolveInput:
    """Each item keeps its own prefilled status (from its own world-check)
    unless the person chose another status in the modal: then it is for all."""
    per_item = statuses if data.status == prefill else {}
    return data.model_copy(update={"per_item": per_item, "world_confirmed": confirmed})


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
    off = verb_steps.verb_off(verb)
    if off:  # safe mode: the verb needs a private daimon call; refused (and logged) before any modal
        refusals = tuple(verbs.Refusal(item_id=i, code="safe-mode", reason=off) for i in items)
        action_id = verb_steps.log_outcome(log, project, verb, items, "refused", (), refusals, None)
        app.notify(off, title=f"{verb}: off in safe mode", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=refusals, action_id=action_id, message=off)
    if verb == "resolve":
        data = await _ask(app, ResolveModal(items, status=status).with_texts(texts))
        if isinstance(data, verbs.ResolveInput):
            data = _resolve_input(data, status, statuses or {}, confirmed)
    elif verb == "retract":
        data = await _ask(app, RetractModal(items, check=verb_steps.retract_input_refusal).with_texts(texts))
    elif verb == "reverify":
        data = await _ask(app, ReverifyModal(items, states=states).with_texts(texts))
    if verb in ("resolve", "retract", "reverify") and data is None:
        return verbs.Outcome(verb=verb, status="cancelled")

    undo_entry = None
    if verb == "undo":
        # the chain cannot vouch for its own last line: its head file does.
        # Not logged: the log refuses to append over a line its head disowns.
        head = await verb_steps.head_problem(log)
        if head is not None:
            app.notify(f"undo refused: {head}", title="undo: refused", severity="error")
            return verbs.Outcome(verb=verb, status="refused", message=head)
    try:
        if verb == "undo":
            plan, undo_entry = await verb_steps.undo_plan_for(log, project, undo_of)
        else:
            # by the judging child, over the snapshot it holds: no fold here
            plan = await verb_steps.plan(project, verb, items, data)
    except Exception as exc:  # an unreadable store is a message, not a crash
        app.notify(f"{verb}: could not read daimon's state ({type(exc).__name__})", severity="error")
        return verbs.Outcome(verb=verb, status="failed", message=type(exc).__name__)

    undoes = undo_entry.action_id if undo_entry is not None else None
    logged_items = items if verb != "undo" else (undo_entry.item_ids if undo_entry is not None else ())
    if not plan.allowed:
        message = verbs.summarize(verb, (), plan.refusals)
        action_id = verb_steps.log_outcome(log, project, verb, logged_items, "refused", (), plan.refusals, undoes)
        app.notify(message, title=f"{plan.title}: refused", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=plan.refusals, action_id=action_id,
                             message=message)

    log_problem = await action_log.log_problem(log)
    store_problem = None if log_problem else await verb_steps.store_problem(project)
    confirmed = await _ask(app, PlanPreviewModal(plan, log_problem=log_problem, store_problem=store_problem))
    if store_problem:  # the log can take this refusal: it is logged
        refusals = tuple(verbs.Refusal(item_id=i, code="store-full", reason=store_problem) for i in logged_items)
        action_id = verb_steps.log_outcome(log, project, verb, logged_items, "refused", (), refusals, undoes)
        return verbs.Outcome(verb=verb, status="refused", refusals=refusals, action_id=action_id,
                             message=store_problem)
    if not confirmed or log_problem:
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

    def writing(intent: ActionEntry) -> Callable[[], None]:
        # the live watch tells the app's own rows apart; a slow write is named after a moment
        own_writes.writing(app)
        pending = asyncio.create_task(pending_write.shown_after(app, plan.title, logged_items, intent.time))

        def wrote() -> None:
            pending.cancel()
            own_writes.wrote(app)

        return wrote

    def told(story: str) -> None:
        app.notify(story, title=f"{plan.title}: the judging child failed", severity="warning", timeout=30)

    try:
        results, status_word, action_id, intent = await verb_steps.write_ahead(
            log, project, verb, logged_items, plan, undoes, typed_id=typed_id, writing=writing, told=told)
    except verb_steps.IntentNotLogged as exc:
        message = f"nothing was written to daimon: {exc}"
        app.notify(message, title=f"{plan.title}: refused", severity="error")
        return verbs.Outcome(verb=verb, status="refused", refusals=plan.refusals, message=message)
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
