"""The Queue view's verbs controller (`ui.controller`): a verb key on the entry
under the cursor, `z` undo. The curation verbs (resolve, retract, reverify) go
through the same flow as the briefing's; a decision (confirm, ratify, reject…)
is previewed, then written by `services.queue`. Only one runs at a time; what
it did goes into the view's state, and the screen draws again."""

from __future__ import annotations

from collections.abc import Callable

from daimon_tui.domain import verbs
from daimon_tui.models import ProjectRef
from daimon_tui.models.queue import QueueEntry
from daimon_tui.services import action_log
from daimon_tui.services import queue as queue_service
from daimon_tui.services.action_log import ActionLog
from daimon_tui.ui import own_writes
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.queue.cards import VERB_LABELS, entry_texts
from daimon_tui.ui.queue.decision_modal import DecisionModal
from daimon_tui.ui.queue.state import QueueState
from daimon_tui.ui.read_worker import work

CURATION = frozenset({"resolve", "retract", "reverify"})
CURATION_TALLY = {"resolve": "resolve", "retract": "retract", "reverify": "reverify"}


class QueueVerbs(Controller):
    def __init__(self, state: QueueState, project: ProjectRef, log: ActionLog, *,
                 decided: Callable[[], None], undone: Callable[[], None]) -> None:
        super().__init__()
        self.state = state
        self.project = project
        self.action_log = log
        self.decided = decided  # the screen draws again
        self.undone = undone  # the screen reads the queue again

    @work(exclusive=True, group="queue-verb")
    async def undo(self) -> None:
        """`z`: the same undo as the briefing's (the last undoable action, named in its preview)."""
        from daimon_tui.ui.verb_flow import run_verb

        self.state.busy = True
        try:
            outcome = await run_verb(self.app, "undo", (), self.project, self.action_log)
        finally:
            self.state.busy = False
        if outcome.status in ("applied", "partial") and self.is_attached:
            self.undone()

    @work(exclusive=True, group="queue-verb")
    async def run(self, entry: QueueEntry, verb: str) -> None:
        self.state.busy = True
        try:
            outcome = await self._apply(entry, verb)
        finally:
            self.state.busy = False
        if outcome is None:
            return
        self.state.decided(entry, outcome)
        if self.is_attached:
            self.decided()

    async def _apply(self, entry: QueueEntry, verb: str) -> str | None:
        """Run the verb; the tally word for it, or None when cancelled."""
        if verb in CURATION:
            from daimon_tui.ui.verb_flow import run_verb

            result = await run_verb(
                self.app,
                verb,
                (entry.ref,),
                self.project,
                self.action_log,
                status=self.state.resolve_status(entry),
                texts=entry_texts(entry),
            )
            if result.status == "cancelled":
                return None
            return CURATION_TALLY[verb] if result.status == "applied" else result.status
        evidence = ""
        if verb == "claim-reopen":
            from daimon_tui.ui.screens.verb_modals import ReverifyModal

            data = await navigator(self.app).open_and_wait(ReverifyModal((entry.ref,)).with_texts(entry_texts(entry)))
            if not isinstance(data, verbs.ReverifyInput):
                return None
            evidence = data.evidence
        log_problem = await action_log.log_problem(self.action_log)
        if not await navigator(self.app).open_and_wait(DecisionModal(entry, verb, log_problem=log_problem)):
            return None
        own_writes.writing(self.app)
        try:
            verdict = await queue_service.decide(entry, verb, self.project, log=self.action_log, evidence=evidence)
        finally:
            own_writes.wrote(self.app)
        if verdict.applied:
            self.notify(f"{VERB_LABELS[verb]}: daimon now says {verdict.after}", title=entry.ref)
            return verb
        self.notify(
            verdict.message or verdict.code, title=f"{VERB_LABELS[verb]}: {verdict.outcome}", severity="error"
        )
        return "not activated" if verdict.code == "not-activated" else "refused"
