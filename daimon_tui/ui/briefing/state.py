"""The briefing view's single truth: the briefing shown, its rows, the row the
cursor is on (and the one it wants back), the filter, the marks, whether
withheld rows show, whether the verdicts are provisional, and a generation
that moves whenever what the detail pane should show changes.

An async answer for the pane (detail, evidence, world-check, team) is asked
with a `Ticket` and painted only while `state.holds(ticket)`: a cursor move,
a filter to nothing, an item gone from outside all move the generation on,
so an answer for what was there before is dropped, whenever it lands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from daimon_tui.ui.widgets.briefing_rows import Row, row_key

if TYPE_CHECKING:
    from daimon_tui.models import Briefing, Item


@dataclass(frozen=True, slots=True)
class Ticket:
    """What an async answer was asked for: the item and the state's generation then."""

    item_id: str | None
    generation: int


# mutable because it is the view's one state: every key, rebuild and answer moves it
@dataclass(slots=True)
class BriefingState:
    briefing: Briefing | None = None
    rows: list[Row] = field(default_factory=list)
    filter_text: str = ""
    # item ids (withheld rows too, so restores can be batched)
    marked: set[str] = field(default_factory=set)
    show_withheld: bool = False
    show_team: bool = False
    # True while any verdict on screen is not daimon's fresh judgement
    provisional: bool = True
    generation: int = 0
    # The row under the cursor (None: the list has none) and what it is (`row_key`).
    row: Row | None = None
    under: tuple | None = None
    # The row a rebuild took from under the cursor (a retract, withheld rows hidden)
    # while the person has not moved since: listed again (`h`, the filter cleared),
    # the cursor goes back to it.
    wanted: tuple | None = None
    # Each item this session listed, by id: a row daimon withholds since (a
    # retraction) still matches the filter its text matched.
    seen: dict[str, Item] = field(default_factory=dict)

    def ticket(self) -> Ticket:
        """What an answer for the row under the cursor is asked with now."""
        return Ticket(self.under[1] if self.under and self.under[0] == "item" else None, self.generation)

    def holds(self, ticket: Ticket) -> bool:
        """The view has not moved on since `ticket` was asked."""
        return ticket.generation == self.generation and ticket.item_id == self.ticket().item_id

    def moved(self) -> None:
        """What the pane should show changed: every answer asked before is stale."""
        self.generation += 1

    def shown(self, briefing: Briefing) -> None:
        self.briefing = briefing
        for item in (*briefing.items(), *briefing.resolved):
            if item.id:
                self.seen[item.id] = item
        for entry in briefing.withheld:  # a forgotten value is gone: nothing matches on it any more
            if entry.state == "forgotten" and entry.id:
                self.seen.pop(entry.id, None)

    def landed(self, row: Row | None, *, by_person: bool, keep_lost: bool = True) -> None:
        """The cursor is on `row` (None: the list has no row). A rebuild that
        leaves the row the cursor was on out (a retract, an item withheld, `h`
        off; with `keep_lost`, so not a filter) keeps wanting it until the person
        moves: listed again, the cursor goes back to it."""
        key = row_key(row) if row is not None else None
        if by_person or (key is not None and key == self.wanted):
            self.wanted = None
        elif keep_lost and self.under is not None and key != self.under and self.wanted is None:
            self.wanted = self.under
        if key != self.under or row is None:
            self.moved()
        self.row, self.under = row, key

    # ---- what a verb acts on, as this briefing shows it --------------------------

    def target_ids(self, row: Row | None) -> tuple[str, ...]:
        """The marked rows, withheld ones included, else `row` (the one under the
        cursor: an item, a withheld row, your own quarantine's withheld item)."""
        briefing = self.briefing
        if briefing and self.marked:
            shown = [i.id for i in (*briefing.items(), *briefing.resolved)] + [w.id for w in briefing.withheld]
            return tuple(i for i in dict.fromkeys(shown) if i and i in self.marked)
        found = row.item.id if row and row.item else (row.withheld.id if row and row.withheld else None)
        if row and row.team and row.team.own:
            from daimon_tui.ui.widgets.team_section import own_quarantine_item

            found = own_quarantine_item(row.team.own, briefing)
        return (found,) if found else ()

    def item_states(self, ids: tuple[str, ...]) -> tuple[str | None, ...]:
        """Each item's state as this briefing shows it (None where it is not listed)."""
        briefing = self.briefing
        return tuple(getattr(briefing.find(i), "state", None) if briefing else None for i in ids)

    def item_texts(self) -> dict[str, str]:
        """Each item's text as this briefing shows it, by id, resolved ones included (an
        undo names the item it undid, which the cursor is rarely on); a withheld item has
        none. A listed item wins over a resolved one of the same id, as `find` has it."""
        if self.briefing is None:
            return {}
        return {i.id: i.text for i in (*self.briefing.resolved, *self.briefing.items()) if i.id and i.text}

