"""The briefing's verbs controller: what a verb key acts on, as this view shows
it (the marked rows or the row under the cursor, their states, texts and
world-check results), handed to the app as one request; and what the view
does with the outcome (reviewed rows, marks cleared, daimon asked again).

The app runs the verb (`DaimonTUI.run_verb`): its worker outlives a screen
switched away mid-write, so an intent already logged always gets its outcome.
The app never reads this view back; the outcome comes here, and is dropped if
the screen has closed meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from daimon_tui.ui.controller import Controller

# `domain.verbs` (its tables) is imported when a verb ends: a later open's first frame runs none.
if TYPE_CHECKING:
    from daimon_tui.domain.verbs import Outcome
    from daimon_tui.ui.briefing.review import ReviewTracker
    from daimon_tui.ui.briefing.state import BriefingState
    from daimon_tui.ui.briefing.world_checks import WorldChecks
    from daimon_tui.ui.widgets.briefing_rows import Row
# What `u` says on a row it has nothing to restore for.
NOTHING_TO_RESTORE = ("u restores a withheld item (retracted, quarantined, resolved or forgotten; h lists them). "
                      "This item is live in the briefing: there is nothing to restore.")


@dataclass(frozen=True, slots=True)
class VerbRequest:
    """A verb as the view asks it: the items, and what the view knows of them now."""

    verb: str
    ids: tuple[str, ...]
    status: str = "resolved"  # the resolve modal's prefill (the row under the cursor's world-check)
    statuses: dict[str, str] = field(default_factory=dict)  # each item's own prefill
    confirmed: frozenset[str] = frozenset()  # the items a world-check confirmed
    states: tuple[str | None, ...] = ()
    texts: dict[str, str] = field(default_factory=dict)


class Verbs(Controller):
    def __init__(self, state: BriefingState, world: WorldChecks, review: ReviewTracker,
                 current_row: Callable[[], Row | None]) -> None:
        super().__init__()
        self.current_row = current_row  # the list's row under the cursor
        self.state = state
        self.world = world
        self.review = review

    def request(self, verb: str) -> VerbRequest:
        row = self.current_row()
        ids = self.state.target_ids(row)
        under = row.item.id if row is not None and row.item is not None else None
        return VerbRequest(verb, ids, status=self.world.prefill_status(under),
                           statuses={i: self.world.prefill_status(i) for i in ids},
                           confirmed=self.world.confirmed(ids), states=self.state.item_states(ids),
                           texts=self.state.item_texts())

    def act(self, verb: str) -> None:
        row = self.current_row()
        if verb == "restore" and not self.state.marked and row is not None and row.item is not None \
                and row.item.state == "visible":
            self.notify(NOTHING_TO_RESTORE, title="restore", severity="warning")
            return
        self.app.run_verb(self.request(verb), self.done)  # type: ignore[attr-defined]

    def done(self, request: VerbRequest, outcome: Outcome) -> None:
        """The verb ended (applied, partial, refused or cancelled): the view follows."""
        from daimon_tui.domain.verbs import EVENTS

        if not self.is_attached:
            return
        if outcome.status in ("applied", "partial"):
            acted = request.ids if request.verb != "undo" else tuple(r.item_id for r in outcome.results)
            self.review.verb_acted(acted)
        if outcome.status != "cancelled":
            self.state.marked.clear()
            # Events rows alone (a resolution, a reopen): the live watch shows them as they land,
            # and only daimon's confirmation is left to come, not a provisional read of the whole
            # briefing again (~1 s at 5,000 items). A trust row (a retraction, its release) is
            # shown by that provisional read, which folds the trust ledger fresh.
            written = {r.ledger for r in outcome.results if r.outcome == "applied"}
            self.host.load(repaint=written != {EVENTS})  # type: ignore[attr-defined]
