"""The briefing's detail pane: it follows the cursor once it rests, asks daimon
about the item under it (provisionally from the item's own rows while daimon
confirms), and never paints an answer for a row the cursor has left: each
answer is asked with the view state's ticket (the item and the generation)
and dropped when the state moved on."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.css.query import NoMatches

from daimon_tui.models import Item, ProjectRef
from daimon_tui.ui.briefing.messages import PaneRested
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.evidence import EvidencePanel
from daimon_tui.ui.widgets.item_detail import ItemDetail

# `services.evidence` is imported where it is used, not here: it brings git and our world and
# transcript readers, and the first frame waits for every module imported at start.

if TYPE_CHECKING:
    from daimon_tui.models.details import ItemDetails
    from daimon_tui.models.team import TeamView
    from daimon_tui.ui.briefing.state import BriefingState, Ticket

# How long the cursor rests on a row before the detail pane shows it.
DETAIL_REST_S = 0.08
# The lookup starts once the cursor rests this long (DETAIL_REST_S of it spent before the pane filled).
INSPECT_REST_S = 0.15


def detail_extras(details: ItemDetails) -> tuple:
    """The witnesses and lifecycle panels under daimon's `why`."""
    from daimon_tui.ui.widgets.timeline import timeline_renderable
    from daimon_tui.ui.widgets.witnesses import witness_renderable

    out = []
    if details.witnesses is not None:
        out.append(witness_renderable(details.witnesses))
    if details.timeline is not None:
        out.append(timeline_renderable(details.timeline))
    return tuple(out)


class DetailPane(VerticalScroll):
    """Lives in a briefing screen and is given what it reads: the view's state
    (the row under the cursor, provisional or not), the project and moment, the
    world-check's panels for an item and the teammates' view. It keeps daimon's
    answers and posts `PaneRested` when the cursor rested on a row."""

    def __init__(self, state: BriefingState, project: ProjectRef, now: float | None, *,
                 world_extras: Callable[[Item], tuple], team: Callable[[], TeamView | None],
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = state
        self.project = project
        self.now = now
        self.world_extras = world_extras
        self.team = team
        self.details: dict[str, ItemDetails] = {}
        # answered from the item's own rows while daimon confirms (the benchmark's hook)
        self.provisional_details: dict[str, ItemDetails] = {}
        self.lock = asyncio.Lock()
        # daimon's inspector reads today's store: useful beside a retained
        # session, misleading beside a past moment.
        self.inspect_today = True

    def compose(self) -> ComposeResult:
        yield ItemDetail(id="detail")
        yield EvidencePanel(id="evidence")

    def on_mount(self) -> None:
        self.border_title = "detail · J/K scroll · o open"

    @property
    def detail(self) -> ItemDetail:
        return self.query_one(ItemDetail)

    def forget(self) -> None:
        """daimon confirmed a new briefing: every answer is asked again."""
        self.details.clear()
        self.provisional_details.clear()

    def clear(self) -> None:
        """No row is under the cursor: nothing of the row before stays, and no
        answer asked for it paints (the state's generation moved on)."""
        self.workers.cancel_group(self, "detail")
        self.workers.cancel_group(self, "inspect")
        with contextlib.suppress(NoMatches):
            self.detail.show_item(None)
            self.query_one(EvidencePanel).follow(None, None)

    def scroll_half_page(self, direction: int) -> None:
        """Scroll half a page while the list keeps the focus."""
        self.scroll_relative(y=direction * max(1, self.size.height // 2), animate=False)

    def extras(self, item: Item, details: ItemDetails) -> tuple:
        return detail_extras(details) + self.world_extras(item)

    def _paints(self, ticket: Ticket, item: Item) -> bool:
        """The answer asked with `ticket` for `item` is still for the row under the cursor."""
        row = self.state.row
        return self.state.holds(ticket) and row is not None and row.item is item

    @work(exclusive=True, group="detail")
    async def follow(self) -> None:
        # The keypress repaints only the list. Filling the pane re-lays out the
        # screen (its height follows its content), which at 5,000 rows held the
        # cursor back; so the pane fills once the cursor rests DETAIL_REST_S,
        # and a move in between cancels the pending fill (exclusive group).
        await asyncio.sleep(DETAIL_REST_S)
        row, ticket = self.state.row, self.state.ticket()
        try:
            detail = self.detail
            # The transcript of today's item (not beside a past moment).
            item = row.item if row and self.inspect_today else None
            self.query_one(EvidencePanel).follow(item, self.project, still=lambda: self.state.holds(ticket))
        except NoMatches:
            return  # the screen is closing
        self.post_message(PaneRested(row))  # the detail is on screen: the row counts as read after a rest
        team = self.team()
        if row is None:
            detail.show_item(None)
        elif row.withheld is not None:
            detail.show_withheld(row.withheld)
        elif row.team is not None and team is not None:
            from daimon_tui.ui.widgets.team_section import team_detail

            detail.update(team_detail(row.team, team))
        elif row.item is not None:
            item = row.item
            cached = self.details.get(item.id or "")
            if cached is not None:
                detail.show_item(item, cached.inspection, extras=self.extras(item, cached))
            elif not self.inspect_today:
                detail.show_item(item, None)
            else:
                detail.show_item(item, None, loading=item.id is not None)
                # Before confirmation the child is busy with the full read: the
                # item's own rows answer meanwhile (provisional). `show` of the
                # confirmed briefing rebuilds the list, which lands here again.
                if item.id and not self.state.provisional:
                    self.inspect(item, ticket)
                elif item.id:
                    self.inspect_provisionally(item, ticket)

    @work(exclusive=True, group="inspect")
    async def inspect(self, item: Item, ticket: Ticket) -> None:
        from daimon_tui.services import evidence as evidence_service
        # exclusive: moving the cursor cancels the previous (sleeping) lookup;
        # one lookup at a time, and a result for a row the cursor left is kept
        # but not painted.
        await asyncio.sleep(max(0.0, INSPECT_REST_S - DETAIL_REST_S))
        async with self.lock:
            if not self._paints(ticket, item):
                return
            # The judging child answers from the snapshot it already holds;
            # the fold never runs in this process (memory, GIL).
            details = await evidence_service.item_details(self.project, item.id or "", self.now)
        self.details[item.id or ""] = details
        if self._paints(ticket, item):
            with contextlib.suppress(NoMatches):  # the screen closed during the read
                self.detail.show_item(item, details.inspection, extras=self.extras(item, details))

    @work(exclusive=True, group="inspect")
    async def inspect_provisionally(self, item: Item, ticket: Ticket) -> None:
        from daimon_tui.services import evidence as evidence_service
        # While the child confirms: daimon's readers over the item's own rows,
        # in a thread of this process (a byte search, a few rows folded).
        await asyncio.sleep(max(0.0, INSPECT_REST_S - DETAIL_REST_S))
        if not self._paints(ticket, item):
            return
        found = await evidence_service.provisional_item_details(self.project, item.id or "", self.now)
        # The confirmed answer wins: arrived meanwhile, it is not painted over.
        if found is None or not self.state.provisional or (item.id or "") in self.details:
            return
        self.provisional_details[item.id or ""] = found
        if self._paints(ticket, item):
            with contextlib.suppress(NoMatches):  # the screen closed during the read
                self.detail.show_item(item, found.inspection, extras=self.extras(item, found), provisional=True)

    def reader(self, item: Item) -> Callable[[], Awaitable[ItemDetails]] | None:
        """How the item view (o) asks daimon (None: it does not)."""
        if not item.id or not self.inspect_today:
            return None

        async def read() -> ItemDetails:
            from daimon_tui.services import evidence as evidence_service
            details = await evidence_service.item_details(self.project, item.id or "", self.now)
            self.details[item.id or ""] = details
            return details

        return read
