"""Screen 1: the briefing, daimon's sections in daimon's order, with a detail
pane that follows the cursor.

The screen composes and routes: the header (widgets.briefing_header), the `/`
filter (widgets.filter_box), the list and its marks (widgets.item_list), the
detail pane (widgets.detail_pane), world-checks (widgets.world_check), the
teammates' section (widgets.team_feed, widgets.team_section) and the live
watch (widgets.live_watch) each own their behaviour."""

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
from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import Briefing, Item, ProjectRef, WithheldItem
from daimon_tui.store import kill_switch, paths
from daimon_tui.store.child import first_paint, judge_service
from daimon_tui.store.judging import verdict_cache
from daimon_tui.ui.actions import bindings, lead_bindings
from daimon_tui.ui.evidence_actions import EvidenceActions
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.briefing_header import BriefingHeader, header_text
from daimon_tui.ui.widgets.briefing_rows import Row, row_key
from daimon_tui.ui.widgets.detail_pane import DetailPane, detail_extras
from daimon_tui.ui.widgets.filter_box import FILTER_MAX, FilterBox
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.item_list import ItemList
from daimon_tui.ui.widgets.item_row import item_row, withheld_row
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.live_watch import LiveWatch
from daimon_tui.ui.widgets.review_tracker import ReviewTracker
from daimon_tui.ui.widgets.row_list import Entry, RowList
from daimon_tui.ui.widgets.safe_mode_banner import SafeModeBanner
from daimon_tui.ui.widgets.team_feed import TeamFeed
from daimon_tui.ui.widgets.world_check import WorldCheck, world_summary

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.models import TeamView
    from daimon_tui.store.read.details import ItemDetails
    from daimon_tui.ui.widgets.team_section import TeamRow

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

EMPTY_MESSAGES = {
    "no-checkpoint": "daimon has no checkpoint for this project yet. Press P to pick a project that has one.",
    "empty": "The latest checkpoint has nothing worth surfacing.",
    "closed": "daimon withholds every item while a ledger above cannot be read. See the note above.",
    "unavailable": "daimon could not read this project. See the note above.",
}


class BriefingScreen(EvidenceActions, Screen):
    """The default view."""

    VIEW_NAME = "Briefing"

    BINDINGS: ClassVar[list[Binding]] = [
        *lead_bindings("quit"),
        *bindings({"Move", "Briefing", "Review", "Verbs", "World", "Evidence"}),
        Binding("down", "cursor(1)", show=False),
        Binding("up", "cursor(-1)", show=False),
        Binding("escape", "escape", "Clear the filter, then the marks (never quits)", show=False),
    ]

    # Whether this screen shows the project's latest checkpoint (the read-only views do not).
    LATEST: ClassVar[bool] = True

    show_withheld: reactive[bool] = reactive(False, init=False)
    filter_text: reactive[str] = reactive("", init=False)
    # Rows as daimon prints them (its exact line) instead of the compact row.
    as_daimon: reactive[bool] = reactive(False, init=False)
    show_team: reactive[bool] = reactive(False, init=False)

    def __init__(self, project: ProjectRef, *, now: float | None = None,
                 first: Briefing | None = None, first_receipts: int = 0,
                 confirming: asyncio.Future[Briefing] | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        # The first paint (and the audit's kept count), when the app read them before opening this screen;
        # daimon's confirmation, when the app asked for it already (then `first` may be that answer).
        self.first = first
        self.first_receipts = first_receipts
        self.confirming = confirming
        self.briefing: Briefing | None = None
        self.withheld_ids: dict[str, str] = {}  # as the list shows them (shortest unique prefix)
        self.receipt_failures = 0
        self.audited_stamp: tuple | None = None  # the session files the count was judged on
        # True while any verdict on screen is not daimon's fresh judgement
        # (the benchmark's hook); the header and each row say so too.
        self.provisional = True
        self.writes_disabled = kill_switch.writes_disabled()
        self._esc_told_until = 0.0
        # The widgets that own each concern; made here so a worker may reach them before mount.
        self.header = BriefingHeader(latest=self.LATEST, id="briefing-header")
        self.filter_box = FilterBox(id="filter")
        self.item_list = ItemList(id="items-box")
        self.detail_pane = DetailPane(id="detail-scroll")
        self.world_checks = WorldCheck(id="world-progress")
        self.team_feed = self.make_team_feed()
        self.live = LiveWatch()
        self.review = ReviewTracker(project, enabled=self.LATEST)  # what is new since the last review

    def make_team_feed(self) -> TeamFeed:
        return TeamFeed(self.project, self.now)

    # ---- what other modules read off the screen (owned by its widgets) -----

    @property
    def rows(self) -> list[Row]:
        return self.item_list.rows

    @property
    def marked(self) -> set[str]:
        return self.item_list.marked

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
        yield SafeModeBanner()
        yield self.header
        yield self.filter_box
        with Horizontal(id="briefing-body"):
            yield self.item_list
            yield self.detail_pane
        yield self.world_checks
        yield self.team_feed
        yield self.live
        yield self.review
        # The Footer comes after the first painted briefing (`show`): styling
        # its few dozen key widgets cost ~0.1 s of the first frame.

    def on_mount(self) -> None:
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
                self.confirmed()
                return
            self.show(first)
            # with a child running (started before Textual), asking it costs the first frame nothing
            self.load(repaint=False, delay=0.0 if judge_service.service().started() else FIRST_FRAME_S, **pending)
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
    async def load(self, repaint: bool = True, delay: float = 0.0,
                   pending: asyncio.Future[Briefing] | None = None) -> None:
        # First paint from the pointer, the trust ledger and the verdict cache
        # (no events fold), every row provisional; then daimon's full read
        # confirms and corrects. A live change re-runs this after `delay`, so a
        # burst of writes costs one confirmation.
        self.provisional = True
        if repaint:
            try:
                quick = await asyncio.to_thread(first_paint.provisional_briefing, self.project, self.now)
            except Exception:  # the confirming read still answers
                quick = None
            if self.briefing is None and self.LATEST:
                # the audit's last count, while the session files are as it judged them
                self.receipt_failures = await asyncio.to_thread(verdict_cache.kept_receipt_failures,
                                                                self.project.slug)
            if quick is not None:
                first_frame = self.briefing is None
                self.show(quick)
                if first_frame:
                    await asyncio.sleep(FIRST_FRAME_S)
        elif self.briefing is not None and not self.briefing.provisional:
            self.show(self.briefing.model_copy(update={"provisional": True}))
        if delay:
            await asyncio.sleep(delay)
        # In a child process: the fold neither holds our GIL nor adds to our memory.
        ended = self.live.confirming(self.project.slug)
        try:
            briefing = await self._asked(pending) if pending is not None else None
            if briefing is None:
                briefing = await first_paint.confirm_async(self.project, self.now,
                                                            shown=lambda read: self.is_attached and self.show(read))
        finally:
            ended()
        if not self.is_attached:
            return  # the screen closed while daimon was reading
        self.show(briefing)
        self.provisional = False
        self.confirmed()

    @staticmethod
    async def _asked(pending: asyncio.Future[Briefing]) -> Briefing | None:
        """The confirmation the app asked for before this screen opened; None if
        it failed (it is asked again)."""
        if pending.cancelled():
            return None
        try:
            return await asyncio.shield(pending)
        except Exception:
            return None

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
        stamp = await asyncio.to_thread(paths.session_files_stamp)
        if stamp is not None and stamp == self.audited_stamp:
            return
        report, _failure = await judge_service.read("audit", self.project)
        self.audited_stamp = stamp
        self.receipt_failures = report.receipt_failures
        await asyncio.to_thread(verdict_cache.save_receipts, self.project.slug, stamp, report.receipt_failures)
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
        self.briefing = briefing
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

    def rebuild(self) -> None:
        if not self.item_list.is_attached:
            return  # the screen is closing
        briefing = self.briefing
        kept_row = self.current_row() if self.rows else None
        kept_at = self.rows.index(kept_row) if kept_row is not None and kept_row in self.rows else 0
        rows: list[Row] = []
        if briefing is None:
            self.item_list.set_rows([], rows, None, 0)
            return
        query = filtering.read(self.filter_text, is_new=self.review.is_new)
        terms = query.terms
        self.filter_box.show_problems(query.problems)
        entries: list[Entry] = []
        world = self.world_checks

        def heading(text: Text) -> None:
            entries.append(Entry(text))

        def add_item(item: Item) -> None:
            item = world.with_world(item)
            entries.append(Entry(self.row_text(item), key=len(rows)))
            rows.append(Row(item=item))

        sections = {s.key: s for s in briefing.sections}
        for key in briefing.order or tuple(sections):
            if key == "active_topic":
                if briefing.topic and not terms:
                    heading(Text.assemble(("Active topic: ", "bold"), inert(briefing.topic, limit=300)))
                continue
            section = sections.get(key)
            if section is None:
                continue
            shown = [i for i in section.items if filtering.matches(world.with_world(i), terms)]
            if not shown:
                continue
            count = f"{len(shown)} of {len(section.items)} match" if terms else section.count_label()
            heading(Text(f"{(section.header or section.title).rstrip(':')} ({count})", style="bold underline"))
            for item in shown:
                add_item(item)
            if section.note and not terms:
                heading(Text(f"  {inert(section.note.strip(), limit=300)}", style="dim italic"))
        if self.show_withheld or query.wants_withheld:
            resolved = [i for i in briefing.resolved if filtering.matches(i, terms)]
            withheld = [w for w in briefing.withheld if filtering.matches_withheld(w, terms)]
            if resolved or withheld:
                heading(Text("Withheld", style="bold underline"))
            for item in resolved:
                add_item(item)
            self.withheld_ids = shortest_unique(w.id for w in briefing.withheld if w.id)
            for entry in withheld:
                entries.append(Entry(self.withheld_text(entry, entry.id in self.marked), key=len(rows)))
                rows.append(Row(withheld=entry))
        if self.show_team:
            self.add_team_rows(entries, rows, terms)
        if not rows:
            message = EMPTY_MESSAGES.get(briefing.state, "No item matches the filter.")
            if query.problems and briefing.state == "briefing":
                message = "The filter box says what it does not understand."
            if briefing.state == "no-checkpoint" and briefing.notes:
                message = "daimon reads no checkpoint for this project: see the note above. P picks another."
            heading(Text(message, style="italic"))
        if self.item_list.set_rows(entries, rows, kept_row, kept_at) is None:
            self.query_one(ItemDetail).show_item(None)
        self.review.rebuilt()

    def _shown(self, text: str) -> str:
        # The app masks the demo's temporary directory; a test host may have no mask.
        shown = getattr(self.app, "shown", None)
        return shown(text) if callable(shown) else text

    def row_text(self, item: Item) -> Text:
        return item_row(item, marked=item.id in self.marked, provisional=item.provisional,
                        as_daimon=self.as_daimon, change=self.review.change(item.id))

    def withheld_text(self, entry: WithheldItem, marked: bool) -> Text:
        return withheld_row(entry, marked=marked, change=self.review.change(entry.id),
                            shown_id=self.withheld_ids.get(entry.id or ""))

    def focus_item(self, item_id: str) -> bool:
        """Put the cursor on an item (another view's Enter); False when today's
        briefing no longer has it."""
        if self.briefing is None:
            return False
        withheld = {i.id for i in self.briefing.resolved} | {w.id for w in self.briefing.withheld}
        if item_id in withheld and not self.show_withheld:
            self.show_withheld = True
        if self.filter_text:
            self.filter_box.value = ""
            self.filter_text = ""
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
        """What a verb acts on: the marked rows, withheld ones included, else
        the row under the cursor (an item or a withheld row)."""
        if self.briefing and self.marked:
            shown = [i.id for i in (*self.briefing.items(), *self.briefing.resolved)]
            shown += [w.id for w in self.briefing.withheld]
            return tuple(i for i in dict.fromkeys(shown) if i and i in self.marked)
        row = self.current_row()
        found = row.item.id if row and row.item else (row.withheld.id if row and row.withheld else None)
        if row and row.team and row.team.own:
            from daimon_tui.ui.widgets.team_section import own_quarantine_item

            found = own_quarantine_item(row.team.own, self.briefing)
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

    def action_cursor(self, delta: int) -> None:
        self.item_list.cursor(delta)

    @on(RowList.Highlighted, "#items")
    def follow_cursor(self) -> None:
        self.review.leave()
        self.detail_pane.follow()

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

    def watch_filter_text(self) -> None:
        self.rebuild()

    def watch_show_withheld(self) -> None:
        self.rebuild()

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

    # ---- verbs (wired by their own modules) and world-checks ----------------

    def prefill_status(self, item_id: str | None = None) -> str:
        """A world contradiction names the resolve status (gone, missing, merged);
        for `item_id`, else the item under the cursor."""
        if item_id is None:
            item = self.current_item()
            item_id = item.id if item else None
        return self.world_checks.prefill_status(item_id)

    def world_confirmed(self, item_ids: tuple[str, ...]) -> frozenset[str]:
        """The items whose claim the world-check confirmed (a resolve flags them)."""
        return self.world_checks.confirmed(item_ids)

    def action_verb(self, verb: str) -> None:
        row = self.current_row()
        if row is not None and row.team is not None and row.team.own is not None and not self.target_ids():
            from daimon_tui.ui.widgets.team_section import OWN_QUARANTINE_UNLISTED

            self.notify(OWN_QUARANTINE_UNLISTED, title=verb, severity="warning")
            return
        if row is not None and row.team is not None and row.team.own is None and self.team is not None \
                and verb != "undo":
            self.team_verb(verb, row.team, self.team)
            return
        self.app.run_verb(verb, self)  # type: ignore[attr-defined]

    def action_world_check(self, every: bool) -> None:
        if every:
            items = [i for i in (self.briefing.items() if self.briefing else ()) if i.has_badge("carried")]
        else:
            current = self.current_item()
            items = [current] if current else []
        self.world_checks.start(self.project, items, every=every, now=self.now)

    @on(WorldCheck.Checked)
    def world_checked(self) -> None:
        self.rebuild()

    # ---- the teammates' section -------------------------------------------------

    def action_toggle_team(self) -> None:
        self.show_team = not self.show_team
        if self.show_team and self.team is None:
            self.team_feed.load()

    def watch_show_team(self) -> None:
        self.team_feed.shown = self.show_team
        self.rebuild()

    @on(TeamFeed.Changed)
    def team_changed(self, event: TeamFeed.Changed) -> None:
        if event.failed:
            self.show_team = False
        else:
            self.rebuild()

    def add_team_rows(self, entries: list[Entry], rows: list[Row], terms: tuple) -> None:
        from daimon_tui.ui.widgets.team_section import team_rows

        if self.team is None:
            entries.append(Entry(Text("Teammates: reading the team copy…", style="dim italic")))
            return
        own_ids = {i.id for i in self.briefing.items() if i.id} if self.briefing else set()
        for text, team_row in team_rows(self.team, terms, own_ids, self.as_daimon):
            if team_row is None:
                entries.append(Entry(text))
            else:
                # daimon's exact line (`d`) carries no review marker, as the briefing's own rows.
                prompt = text if self.as_daimon else self.review.team_prompt(text, team_row)
                entries.append(Entry(prompt, key=len(rows)))
                rows.append(Row(team=team_row))

    @work(exclusive=True, group="verb")
    async def team_verb(self, verb: str, row: TeamRow, team: TeamView) -> None:
        from daimon_tui.ui.team_flow import run_team_verb

        outcome = await run_team_verb(self.app, verb, row, self.project, self.app.action_log,  # type: ignore[attr-defined]
                                      team)
        if outcome.status == "applied":
            self.load()
            self.team_feed.load()

    # ---- the detail pane, full screen, full text --------------------------------

    def action_scroll_detail(self, direction: int) -> None:
        """Scroll the detail pane half a page while the list keeps the focus."""
        self.detail_pane.scroll_half_page(direction)

    def action_open_item(self) -> None:
        row = self.current_row()
        if row is None or row.item is None:
            self.notify("No item under the cursor." if row is None else
                        "daimon shows nothing of a withheld item beyond what the pane says.")
            return
        from daimon_tui.ui.screens.item_screen import ItemScreen

        item = row.item
        cached = self.details.get(item.id or "")
        self.app.push_screen(ItemScreen(item, cached, lambda d: detail_extras(d) + self.world_checks.extras(item),
                                        read=self.detail_pane.reader(item), ages_at=self.query_one(ItemDetail).ages_at,
                                        project=self.project))

    @on(RowList.Selected, "#items")
    def selected(self) -> None:
        self.action_full_text()

    def action_full_text(self) -> None:
        """`enter` on a row: the item's whole text, however long."""
        from daimon_tui.ui.screens.full_text import FullTextScreen

        item = self.current_item()
        if item is None:
            self.notify("No item under the cursor." if self.current_row() is None else
                        "daimon shows no text for a withheld item.")
            return
        self.app.push_screen(FullTextScreen(item))
