"""Screen 1: the briefing, daimon's sections in daimon's order, with a detail pane that follows the cursor.

The screen composes and handles messages. The view's truth is one object, `state.BriefingState` (the
briefing, rows, the row under the cursor, filter, marks, withheld shown, provisional, the generation stale
answers are dropped by); the header (widgets.briefing_header), the `/` filter (widgets.filter_box), the list
(widgets.item_list, its rows from `list_rows`), the detail pane (`detail_pane`), the world-checks' progress and
the teammates' rows (widgets.team_section) draw and post what happened (`messages`). Controllers, plain objects
that run their work on this screen, own a concern each: the live watch (`live_watch`), the review (`review`),
the teammates' feed (`team_feed`), the verbs (`verbs`), the world-checks (`world_checks`), the item view and
whole text (`item_views`) and the evidence keys (`ui.item.evidence`); each key's action is a line that hands
the key to its controller."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen

from daimon_tui.domain import filtering
from daimon_tui.models import Briefing, Item, ProjectRef, WithheldItem
from daimon_tui.services import session
from daimon_tui.ui.actions import bindings, lead_bindings
from daimon_tui.ui.briefing.detail_pane import DetailPane, detail_extras
from daimon_tui.ui.briefing.first_frame import FirstFrame
from daimon_tui.ui.briefing.item_views import ItemViews
from daimon_tui.ui.briefing.list_rows import briefing_rows, empty_message, team_rows
from daimon_tui.ui.briefing.live_watch import LiveWatch
from daimon_tui.ui.briefing.messages import LiveApplied, PaneRested, ReloadWanted
from daimon_tui.ui.briefing.review import ReviewTracker, row_review_key
from daimon_tui.ui.briefing.state import BriefingState
from daimon_tui.ui.briefing.team_feed import TeamFeed
from daimon_tui.ui.briefing.verbs import Verbs
from daimon_tui.ui.briefing.world_checks import WorldChecks, WorldProgress, world_summary
from daimon_tui.ui.item.evidence import EvidenceController
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.briefing_header import BriefingHeader, header_text
from daimon_tui.ui.widgets.briefing_rows import Row, row_key
from daimon_tui.ui.widgets.filter_box import FILTER_MAX, FilterBox
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.item_list import ItemList
from daimon_tui.ui.widgets.item_row import daimon_lines_under, item_row, withheld_row
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_list import Entry, RowList
from daimon_tui.ui.widgets.safe_mode_banner import SafeModeBanner

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.models.details import ItemDetails
    from daimon_tui.models.team import TeamView

# Names other modules and tests import from here.
__all__ = ["FILTER_MAX", "BriefingScreen", "Row", "detail_extras", "header_text", "row_key", "world_summary"]

# The first painted briefing is on screen within this (one layout, one
# frame); what it does not need (the Footer's key widgets, starting the
# judging child) waits until then instead of delaying it.
FIRST_FRAME_S = 0.12
# Narrower than this, the detail pane sits below the list.
NARROW_COLUMNS = 100

# What only a later action needs (world-checks and GitPython, the live watcher,
# the audit, item details) is imported where it is used: the first frame
# waits for every module imported at startup.

ESC_NEVER_QUITS = "Esc never quits: press q to quit, ctrl+q from anywhere."
ESC_TOAST_S = 5.0


class BriefingScreen(Screen):
    """The default view."""

    VIEW_NAME = "Briefing"

    BINDINGS: ClassVar[list[Binding]] = [
        *lead_bindings("quit"),
        *bindings({"Move", "Briefing", "Review", "Verbs", "World", "Evidence", "Briefing list"}),
    ]

    # Whether this screen shows the project's latest checkpoint (the read-only views do not).
    LATEST: ClassVar[bool] = True

    # Rows as daimon prints them (its exact line) instead of the compact row.
    as_daimon: reactive[bool] = reactive(False, init=False)

    def __init__(self, project: ProjectRef, *, now: float | None = None, first: Briefing | None = None,
                 first_receipts: int = 0, confirming: asyncio.Future[Briefing] | None = None,
                 writes_disabled: bool | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        # The first paint (and the audit's kept count), when the app read them before opening this screen;
        # daimon's confirmation, when the app asked for it already (then `first` may be that answer).
        self.first = first
        self.first_receipts = first_receipts
        self.confirming = confirming
        self.state = BriefingState()  # the view's single truth
        self.withheld_ids: dict[str, str] = {}  # as the list shows them (shortest unique prefix)
        self.receipt_failures = 0
        self.audited_stamp: tuple | None = None  # the session files the count was judged on
        self.first_frame = FirstFrame(kept=writes_disabled is not None)  # given: a later open's kept frame
        self.writes_disabled = session.writes_disabled() if writes_disabled is None else writes_disabled
        self._esc_told_until = 0.0
        # The widgets that own each concern; made here so a worker may reach them before mount.
        self.header = BriefingHeader(latest=self.LATEST, id="briefing-header")
        self.filter_box = FilterBox(id="filter")
        self.item_list = ItemList(id="items-box", marked=self.state.marked)
        self.world_progress = WorldProgress(id="world-progress")
        self.world_checks = WorldChecks(self.world_progress)
        self.team_feed = self.make_team_feed()
        self.detail_pane = DetailPane(self.state, project, now, world_extras=self.world_checks.extras,
                                      team=lambda: self.team_feed.team, id="detail-scroll")
        # The controllers (`ui.controller`): each owns one concern and runs its work on this screen.
        self.live = LiveWatch(self.state, project.slug)
        self.review = ReviewTracker(project, self.state, enabled=self.LATEST)  # what is new since the last review
        self.verbs = Verbs(self.state, self.world_checks, self.review, self.current_row)
        self.item_views = ItemViews(project, self.detail_pane, self.world_checks, self.current_row)  # `o`, `enter`
        self.evidence = EvidenceController(project, self.current_item)  # copy, pager, editor
        for controller in (self.team_feed, self.live, self.review, self.verbs, self.world_checks, self.item_views,
                           self.evidence):
            controller.attach(self)

    def make_team_feed(self) -> TeamFeed:
        return TeamFeed(self.project, self.now)

    # ---- what other modules read off the screen (the state's) ---------------

    @property
    def briefing(self) -> Briefing | None:
        return self.state.briefing

    @property
    def provisional(self) -> bool:
        """True while any verdict on screen is not daimon's fresh judgement (the
        benchmark's hook); the header and each row say so too."""
        return self.state.provisional

    @provisional.setter
    def provisional(self, value: bool) -> None:
        self.state.provisional = value

    @property
    def filter_text(self) -> str:
        return self.state.filter_text

    @filter_text.setter
    def filter_text(self, text: str) -> None:
        if text != self.state.filter_text:
            self.state.filter_text = text
            self.rebuild(filtered=True)

    @property
    def show_withheld(self) -> bool:
        return self.state.show_withheld

    @show_withheld.setter
    def show_withheld(self, shown: bool) -> None:
        if shown != self.state.show_withheld:
            self.state.show_withheld = shown
            self.rebuild()

    @property
    def show_team(self) -> bool:
        return self.state.show_team

    @show_team.setter
    def show_team(self, shown: bool) -> None:
        if shown != self.state.show_team:
            self.state.show_team = self.team_feed.shown = shown
            self.rebuild()

    @property
    def rows(self) -> list[Row]:
        return self.state.rows

    @property
    def marked(self) -> set[str]:
        return self.state.marked

    @property
    def details(self) -> dict[str, ItemDetails]:
        return self.detail_pane.details

    @property
    def provisional_details(self) -> dict[str, ItemDetails]:
        return self.detail_pane.provisional_details

    @property
    def world(self) -> dict[str, tuple[ItemResult, float]]:
        return self.world_checks.results

    @property
    def team(self) -> TeamView | None:
        return self.team_feed.team

    def compose(self) -> ComposeResult:
        yield SafeModeBanner(deferred=self.first_frame.kept)
        yield self.header
        yield self.filter_box
        with Horizontal(id="briefing-body"):
            yield self.item_list
            yield self.detail_pane
        yield self.world_progress
        # The Footer comes after the first painted briefing (`show`): styling
        # its few dozen key widgets cost ~0.1 s of the first frame.

    def on_mount(self) -> None:
        self.first_frame.mounted(self)  # the review starts (a kept frame's: once drawn)
        self.query_one(ItemDetail).ages_at = self.ages_at()
        self.query_one("#items", RowList).focus()
        # What the app read and asked before opening this screen: used once here, not held.
        first, self.first = self.first, None
        asked, self.confirming = self.confirming, None
        pending = {"pending": asked} if asked is not None else {}  # a view built on this screen: its own `load`
        if first is not None:
            if self.LATEST:
                self.receipt_failures = self.first_receipts  # read with the first paint, off this thread
            if not first.provisional:  # daimon answered before the provisional read: nothing to confirm
                self.provisional = False
                self.show(first)
                self.call_after_refresh(self.first_frame.on_drawn, self)
                self.confirmed()
                return
            self.show(first)
            self.call_after_refresh(self.first_frame.on_drawn, self)
            # a running child (started before Textual) costs the first frame nothing; a kept frame's: once drawn
            delay = None if self.first_frame.kept else 0.0 if session.child_started() else FIRST_FRAME_S
            self.load(repaint=False, delay=delay, **pending)
        else:
            self.header.update(Text("reading daimon's store…", style="dim"))
            self.load(**pending)

    def ages_at(self) -> float | None:
        """The moment stored times' ages are said from; None: no ages."""
        return self.now if self.now is not None else time.time()

    def on_resize(self) -> None:
        # Under 100 columns the detail pane goes below the list (styles/app.tcss);
        # on a short terminal the header folds (unless `e` chose otherwise).
        with contextlib.suppress(NoMatches):
            self.query_one("#briefing-body").set_class(self.size.width < NARROW_COLUMNS, "narrow")
            self.paint_header()

    # ---- loading ---------------------------------------------------------

    @work(exclusive=True, group="briefing-load")
    async def load(self, repaint: bool = True, delay: float | None = 0.0,
                   pending: asyncio.Future[Briefing] | None = None) -> None:
        # First paint from the pointer, the trust ledger and the verdict cache (no events fold), every
        # row provisional; then daimon's full read confirms and corrects. A live change re-runs this
        # after `delay` (None: a kept frame's, once drawn), so a burst of writes costs one confirmation.
        if delay is None:
            delay = await self.first_frame.confirm_delay(self, FIRST_FRAME_S)
        self.provisional = True
        if repaint:
            quick = await session.provisional(self.project, self.now)
            if self.briefing is None and self.LATEST:
                self.receipt_failures = await session.kept_receipt_failures(self.project)
            if quick is not None:
                first_frame = self.briefing is None
                self.show(quick)
                if first_frame:
                    self.call_after_refresh(self.first_frame.on_drawn, self)
                    await asyncio.sleep(FIRST_FRAME_S)
        elif self.briefing is not None and not self.briefing.provisional:
            self.show(self.briefing.model_copy(update={"provisional": True}))
        if delay:
            await asyncio.sleep(delay)
        ended = self.live.confirming(self.project.slug)
        try:
            briefing = await session.confirmation(self.project, self.now, pending,
                                                  shown=lambda read: self.is_attached and self.show(read))
        finally:
            ended()
        if not self.is_attached:
            return  # the screen closed while daimon was reading
        self.show(briefing)
        self.provisional = False
        self.live.confirmed(briefing)
        self.confirmed()

    def confirmed(self) -> None:
        """daimon's judgement is on screen: what waits for it starts."""
        heap = getattr(self.app, "heap", None)
        if heap is not None:
            heap.settle()
        self.check_receipts()
        self.live.start()

    @work(exclusive=True, group="briefing-receipts")
    async def check_receipts(self) -> None:
        # After confirmation (never alongside it): every session's receipt,
        # checked natively, by the judging child over the snapshot it holds.
        # Receipts are judged on the session files: a ledger write (a verb, a
        # resolution from elsewhere) leaves them, and their count, as they were.
        found = await session.receipt_failures(self.project, self.audited_stamp)
        if found is None:
            return
        self.audited_stamp, self.receipt_failures = found
        if self.briefing is not None:
            with contextlib.suppress(NoMatches):  # the screen closed during the read
                self.paint_header()

    def show(self, briefing: Briefing) -> None:
        # Workers call this after a read; the screen may have closed meanwhile
        # (quit, another project): then there is nothing left to show it in.
        if not self.header.is_attached:
            return
        if self.briefing is None:
            self.mount_footer()
        self.state.shown(briefing)
        if not briefing.provisional:
            self.detail_pane.forget()
        self.review.observe(briefing)
        self.paint_header()
        self.rebuild()

    def paint_header(self) -> None:
        if self.briefing is None or not self.header.is_attached:
            return
        self.header.paint(self.briefing, self.receipt_failures, self._shown,
                          disabled=self.writes_disabled, now=self.ages_at(), review=self.review.header())

    def action_toggle_header(self) -> None:
        """`e`: the whole header (handoff, rulings) or one line per part."""
        self.header.toggle_fold()
        self.paint_header()

    @work(group="briefing-footer")
    async def mount_footer(self) -> None:
        await asyncio.sleep(FIRST_FRAME_S)
        if not self.is_attached:
            return  # closed (quit, another project) before the Footer came
        await self.mount(KeyFooter(show_command_palette=False))
        self.refresh_bindings()  # a Footer mounted late lists keys on the next bindings update

    def action_reload(self) -> None:
        self.load()
        if self.show_team:
            self.team_feed.load()

    # ---- the list --------------------------------------------------------

    def rebuild(self, *, filtered: bool = False) -> None:
        """The list again from the state; `filtered`: only the filter changed (a row it
        leaves out is not one the cursor wants back)."""
        if not self.item_list.is_attached:
            return  # the screen is closing
        briefing, state = self.briefing, self.state
        kept_at = self.rows.index(state.row) if state.row is not None and state.row in self.rows else 0
        if briefing is None:
            self.item_list.set_rows([], [], (), 0)
            return
        query = filtering.read(self.filter_text, is_new=self.review.is_new)
        self.filter_box.show_problems(query.problems)
        built = briefing_rows(briefing, query, withheld_shown=self.show_withheld, seen=state.seen,
                              with_world=self.world_checks.with_world, row_text=self.row_text,
                              lines_under=lambda item: daimon_lines_under(item) if self.as_daimon else [],
                              withheld_text=lambda entry, ids: self.withheld_text(entry, entry.id in self.marked, ids))
        self.withheld_ids = built.withheld_ids
        entries, rows = built.entries, built.rows
        if self.show_team:
            team_rows(built, self.team, self.briefing, query.terms, as_daimon=self.as_daimon,
                      prompt=self.review.team_prompt)
        if not rows:
            entries.append(Entry(Text(empty_message(briefing, query), style="italic")))
        # The cursor goes back to a row a rebuild took from under it, listed again; else it stays on its row.
        target = self.item_list.set_rows(entries, rows, (state.wanted, state.under), kept_at)
        state.rows = rows
        state.landed(rows[target] if target is not None else None, by_person=False, keep_lost=not filtered)
        if target is None:
            self.detail_pane.clear()
        self.review.rebuilt()

    def _shown(self, text: str) -> str:
        # The app masks the demo's temporary directory; a test host may have no mask.
        shown = getattr(self.app, "shown", None)
        return shown(text) if callable(shown) else text

    def row_text(self, item: Item) -> Text:
        return item_row(item, marked=item.id in self.marked, provisional=item.provisional,
                        as_daimon=self.as_daimon, change=self.review.change(item.id))

    def withheld_text(self, entry: WithheldItem, marked: bool, ids: dict[str, str] | None = None) -> Text:
        return withheld_row(entry, marked=marked, change=self.review.change(entry.id),
                            shown_id=(self.withheld_ids if ids is None else ids).get(entry.id or ""))

    def focus_item(self, item_id: str) -> bool:
        """Put the cursor on an item (another view's Enter); False when today's
        briefing no longer has it."""
        if self.briefing is None:
            return False
        withheld = {i.id for i in self.briefing.resolved} | {w.id for w in self.briefing.withheld}
        self.state.show_withheld = self.show_withheld or item_id in withheld
        if self.filter_text:
            self.filter_box.value = ""
            self.state.filter_text = ""
        self.rebuild()
        found = next((n for n, r in enumerate(self.rows)
                      if (r.item and r.item.id == item_id) or (r.withheld and r.withheld.id == item_id)), None)
        if found is None:
            return False
        self.item_list.put_cursor_on(found)
        return True

    def current_row(self) -> Row | None:
        if not self.item_list.is_attached:
            return None  # the screen is closing
        return self.item_list.current_row()

    def current_item(self) -> Item | None:
        row = self.current_row()
        return row.item if row else None

    def current_id(self) -> str | None:
        item = self.current_item() if self.rows else None
        return item.id if item else None

    def target_ids(self) -> tuple[str, ...]:
        """What a verb acts on: the marked rows, else the row under the cursor."""
        return self.state.target_ids(self.current_row())

    def action_cursor(self, delta: int) -> None:
        self.item_list.cursor(delta)

    @on(RowList.Highlighted, "#items")
    def follow_cursor(self) -> None:
        row = self.current_row()
        # a landing the rebuild chose is the row it already put in the state; any other is the person's move
        moved = row_key(row) != self.state.under
        self.state.landed(row, by_person=moved)
        self.review.leave(moved_on=moved)
        self.detail_pane.follow()

    def on_key(self) -> None:
        self.review.person_pressed()  # someone is at the keyboard: a rest on a row now reads it

    @on(PaneRested)
    def pane_rested(self, event: PaneRested) -> None:
        with contextlib.suppress(NoMatches):
            self.show_position()
        self.review.rest(event.row)

    @on(LiveApplied)
    def live_applied(self, event: LiveApplied) -> None:
        if event.base is not self.briefing:
            return  # stale: what it was applied to left the screen (a confirmation that read it came first)
        self.show(event.briefing)
        self.provisional = True

    @on(ReloadWanted)
    def reload_wanted(self, event: ReloadWanted) -> None:
        self.load(repaint=event.repaint, delay=event.delay)

    def show_position(self) -> None:
        self.item_list.show_position()

    # ---- filter, withheld, marks -------------------------------------------

    def action_filter(self) -> None:
        self.filter_box.open()

    @on(FilterBox.Applied)
    def filter_applied(self, event: FilterBox.Applied) -> None:
        self.filter_text = event.text

    @on(FilterBox.Left)
    def filter_left(self) -> None:
        self.query_one("#items", RowList).focus()

    def action_toggle_withheld(self) -> None:
        self.show_withheld = not self.show_withheld

    def watch_as_daimon(self) -> None:
        self.rebuild()

    def action_toggle_as_daimon(self) -> None:
        self.as_daimon = not self.as_daimon

    def action_mark(self) -> None:
        row = self.current_row()
        if row is None:
            self.notify("No item under the cursor to mark.")
            return
        if row.item is not None and row.item.id:
            item = row.item
            self.item_list.toggle_mark(item.id, lambda _marked: self.row_text(item))
        elif row.withheld is not None and row.withheld.id:
            # withheld rows are marked too, so restores can be batched
            entry = row.withheld
            self.item_list.toggle_mark(entry.id, lambda marked: self.withheld_text(entry, marked))
        else:
            self.notify("This item has no id: a verb cannot name it.")
            return
        self.action_cursor(1)

    def action_review(self, what: str) -> None:
        self.review.act(what)

    @on(ReviewTracker.Repaint)
    def review_repaint(self, event: ReviewTracker.Repaint) -> None:
        keys = event.keys
        if keys is None or (keys and not self.item_list.repaint_rows(lambda r: row_review_key(r) in keys,
                                                                       self.row_text)):
            self.rebuild()
        self.paint_header()
        self.item_list.border_title = self.review.progress() or None

    @on(ReviewTracker.Jump)
    def review_jump(self, event: ReviewTracker.Jump) -> None:
        said = self.item_list.jump(event.direction, lambda row: bool(self.review.change(row_review_key(row))))
        if said:
            self.notify(said)

    def action_escape(self) -> None:
        """Esc clears the filter (and leaves it), then the marks; it never quits."""
        box = self.filter_box
        if box.has_focus or box.value:
            box.clear_and_close()
        elif self.marked:
            self.marked.clear()
            self.rebuild()
            self.show_position()
            self.notify("Marks cleared.")
        else:
            self.escape_fallback()

    def escape_fallback(self) -> None:
        # Said once while the toast shows: Esc pressed again must not stack copies over the pane.
        now = time.monotonic()
        if now < self._esc_told_until:
            return
        self._esc_told_until = now + ESC_TOAST_S
        self.notify(ESC_NEVER_QUITS, timeout=ESC_TOAST_S)

    # ---- verbs (the `verbs` controller; a teammate's row: team_flow) and world-checks --------

    def action_verb(self, verb: str) -> None:
        row = self.current_row()
        if row is not None and row.team is not None and row.team.own is not None and not self.target_ids():
            from daimon_tui.ui.widgets.team_section import OWN_QUARANTINE_UNLISTED

            self.notify(OWN_QUARANTINE_UNLISTED, title=verb, severity="warning")
            return
        if row is not None and row.team is not None and row.team.own is None and self.team is not None \
                and verb != "undo":
            self.team_feed.act(verb, row.team, self.team)
            return
        self.verbs.act(verb)

    def action_world_check(self, every: bool) -> None:
        self.world_checks.ask(self.project, self.briefing, self.current_item(), every=every, now=self.now)

    @on(WorldChecks.Checked)
    def world_checked(self) -> None:
        self.rebuild()

    # ---- the teammates' section -------------------------------------------------

    def action_toggle_team(self) -> None:
        self.show_team = not self.show_team
        if self.show_team and self.team is None:
            self.team_feed.load()

    @on(TeamFeed.Changed)
    def team_changed(self, event: TeamFeed.Changed) -> None:
        if event.failed:
            self.show_team = False
        else:
            self.rebuild()

    # ---- one item: the item view, its whole text (`item_views`), its evidence (`ui.item.evidence`) ----

    def action_open_item(self) -> None:
        self.item_views.open_item()

    @on(RowList.Selected, "#items")
    def action_full_text(self) -> None:
        self.item_views.full_text()

    def action_scroll_detail(self, direction: int) -> None:  # the list keeps the focus
        self.detail_pane.scroll_half_page(direction)

    def action_copy(self, what: str) -> None:
        self.evidence.copy(what)

    async def action_open_transcript(self) -> None:
        await self.evidence.open_transcript()

    async def action_open_file(self) -> None:
        await self.evidence.open_file()
