"""Screen 1: the briefing, daimon's sections in daimon's order, with a detail
pane that follows the cursor."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, ProgressBar, Static

from daimon_tui.domain import filtering
from daimon_tui.domain.ages import with_age
from daimon_tui.domain.inert import inert
from daimon_tui.models import Briefing, Handoff, Item, ProjectRef, WithheldItem
from daimon_tui.store import kill_switch, paths
from daimon_tui.store.judging import first_paint, judge_service, verdict_cache
from daimon_tui.ui import own_writes
from daimon_tui.ui.actions import bindings, lead_bindings
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.item_row import item_row, withheld_row
from daimon_tui.ui.widgets.row_list import Entry, RowList
from daimon_tui.ui.widgets.safe_input import SafeInput

# How long the cursor rests on a row before the detail pane shows it.
DETAIL_REST_S = 0.08
# The first painted briefing is on screen within this (one layout, one
# frame); what it does not need (the Footer's key widgets, starting the
# judging child) waits until then instead of delaying it.
FIRST_FRAME_S = 0.12
# Narrower than this, the detail pane sits below the list.
NARROW_COLUMNS = 100
# Up to this many rows the header folds (the handoff and rulings one line each).
SHORT_ROWS = 30


if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.models import TeamView
    from daimon_tui.store.read.details import ItemDetails
    from daimon_tui.ui.widgets.team_section import TeamRow

# What only a later action needs (world-checks and GitPython, the live watcher,
# the audit, item details) is imported where it is used: the first frame
# waits for every module imported at startup.


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


@dataclass(frozen=True)
class Row:
    item: Item | None = None
    withheld: WithheldItem | None = None
    team: TeamRow | None = None


def row_key(row: Row | None) -> tuple | None:
    """What a row is across a rebuild (a live change, a verb): the cursor stays on it."""
    if row is None:
        return None
    if row.item is not None:
        return ("item", row.item.id) if row.item.id else None
    if row.team is not None and row.team.entry is not None:
        return ("team", row.team.entry.item.id)
    if row.team is not None and row.team.quarantine is not None:
        q = row.team.quarantine
        return ("team", q.kind, q.author, q.ts)
    if row.team is not None and row.team.own is not None:
        return ("own-quarantine", row.team.own.quarantine_id)
    return None


def handoff_text(handoff: Handoff) -> Text:
    """daimon's baton block, as it leads `daimon brief`."""
    text = Text(f"HANDOFF (left deliberately by previous session, {inert(handoff.ts, limit=40)}):",
                style="bold magenta")
    for line in handoff.lines:
        text.append(f"\n→ {inert(line, limit=400)}", style="bold")
    return text


def folded_handoff(handoff: Handoff) -> Text:
    """The baton on one line (a short terminal): `e` shows daimon's whole block."""
    text = Text("HANDOFF (e): ", style="bold magenta")
    text.append("  ".join(f"→ {inert(line, limit=400)}" for line in handoff.lines), style="bold")
    return text


def folded_rulings(rulings: tuple[str, ...]) -> Text:
    """daimon's rulings section on one line, its heading shortened: the rulings come first."""
    text = Text("Standing rulings (e): ", style="bold cyan")
    text.append("  ".join(inert(line, limit=400) for line in rulings[1:]), style="bold")
    return text


PROVISIONAL_LINE = "provisional: confirming with daimon…"


def receipts_line(failures: int) -> Text:
    return Text(f"⚠ {failures} session receipt(s) fail: press 4 for the audit", style="bold red")


def status_line(provisional: bool, receipt_failures: int) -> Text:
    """The latest briefing's one status line, always there: whether daimon
    confirmed the rows and whether session receipts fail. One line in every
    frame, so the list never moves when the confirmation or the audit lands."""
    if receipt_failures:
        text = receipts_line(receipt_failures)
        if provisional:
            text.append(" · confirming with daimon…", style="italic yellow")
        return text
    if provisional:
        return Text(PROVISIONAL_LINE, style="italic yellow")
    return Text("confirmed by daimon", style="dim")


def header_text(briefing: Briefing, receipt_failures: int = 0, shown: Callable[[str], str] = str, *,
                latest: bool = True, disabled: bool = False, now: float | None = None, folded: bool = False) -> Text:
    """The header; `latest=False` for a retained or past checkpoint (History, as-of).
    `folded` (a short terminal): one line per part, the handoff and rulings folded,
    no greeting, so the list keeps its rows."""
    text = Text()
    if briefing.handoff:
        text.append_text(folded_handoff(briefing.handoff) if folded else handoff_text(briefing.handoff))
        text.append("\n")
    text.append("Briefing · ", style="bold")
    text.append(inert(briefing.project.name or briefing.project.slug, limit=80), style="bold")
    if briefing.session_id:
        text.append(f"  ·  session {inert(briefing.session_id, limit=60)}")
    counts = f"  {len(briefing.items())} items"
    hidden = len(briefing.resolved) + len(briefing.withheld)
    if hidden:
        counts += f", {hidden} withheld (h)"
    if folded:  # the counts before the date: a cut line keeps them
        text.append(counts, style="dim")
    if briefing.created:
        created = inert(briefing.created, limit=30)
        text.append(f"  written {with_age(created, now) if now is not None else created}", style="dim")
    if not folded:
        text.append(counts, style="dim")
    if disabled:
        text.append("\n⛔ daimon is disabled (DAIMON_DISABLE): reading works, every verb will be refused.",
                    style="bold red")
    if briefing.degraded:
        subject = "the latest checkpoint" if latest else "this checkpoint"
        text.append(f"\n⚠ RECEIPT UNVERIFIED: {subject} no longer matches its signed receipt; "
                    "verbatim labels are degraded.", style="bold yellow")
    if latest:
        text.append("\n")
        text.append_text(status_line(briefing.provisional, receipt_failures))
    else:
        if briefing.provisional:
            text.append(f"\n{PROVISIONAL_LINE}", style="italic yellow")
        if receipt_failures:
            text.append("\n")
            text.append_text(receipts_line(receipt_failures))
    for note in briefing.notes:
        style = "yellow" if note.level != "error" else "bold red"
        text.append(f"\n⚠ {inert(shown(note.message), limit=400)}", style=style)
    if briefing.greeting and briefing.state == "briefing" and not folded:
        text.append(f"\n{briefing.greeting}", style="italic")
    if folded and len(briefing.rulings) > 1:
        text.append("\n")
        text.append_text(folded_rulings(briefing.rulings))
        return text
    for n, ruling in enumerate(briefing.rulings):
        text.append(f"\n{inert(ruling, limit=400)}", style="bold cyan" if n == 0 else "bold")
    return text


def world_summary(items: int, checkable: int, contradicted: int) -> str:
    """What a `w`/`W` run found; "nothing checkable" is not "0 contradicted"."""
    if not checkable:
        return (f"World-check: nothing checkable in {items} item(s) "
                "(no file, branch, PR or dependency claim found).")
    return f"World-checked {checkable} of {items} item(s) with a checkable claim: {contradicted} contradicted."


EMPTY_MESSAGES = {
    "no-checkpoint": "daimon has no checkpoint for this project yet. Press P to pick a project that has one.",
    "empty": "The latest checkpoint has nothing worth surfacing.",
    "closed": "daimon withholds every item while a ledger above cannot be read. See the note above.",
    "unavailable": "daimon could not read this project. See the note above.",
}


FILTER_MAX = 500
FILTER_DEBOUNCE_S = 0.15
CHANGES_COALESCE_S = 1.0


class BriefingScreen(Screen):
    """The default view."""

    VIEW_NAME = "Briefing"

    BINDINGS: ClassVar[list[Binding]] = [
        *lead_bindings("quit"),
        *bindings({"Move", "Briefing", "Verbs", "World"}),
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
                 first: Briefing | None = None, first_receipts: int = 0) -> None:
        super().__init__()
        self.project = project
        self.now = now
        # The first paint (and the audit's kept count), when the app read them before opening this screen.
        self.first = first
        self.first_receipts = first_receipts
        self.briefing: Briefing | None = None
        self.rows: list[Row] = []
        self.marked: set[str] = set()
        self.details: dict[str, ItemDetails] = {}
        # answered from the item's own rows while daimon confirms (the benchmark's hook)
        self.provisional_details: dict[str, ItemDetails] = {}
        self.receipt_failures = 0
        self.audited_stamp: tuple | None = None  # the session files the count was judged on
        self.world: dict[str, tuple[ItemResult, float]] = {}
        self.world_stop = threading.Event()
        # True while any verdict on screen is not daimon's fresh judgement
        # (the benchmark's hook); the header and each row say so too.
        self.provisional = True
        self.details_lock = asyncio.Lock()
        self.live_started = False
        self._filter_pending = ""
        self._filter_timer: Timer | None = None
        self._changes: list[str] = []
        self._changes_timer: Timer | None = None
        self.writes_disabled = kill_switch.writes_disabled()
        # The teammates' section (`t`), read when first shown.
        self.team: TeamView | None = None
        self.team_live_started = False
        # None: the header folds by the terminal's height; `e` decides otherwise.
        self.fold_header: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="briefing-header")
        yield SafeInput(placeholder="filter: words, trust:verbatim, section:open, briefed:no, carried, stale, -word",
                        id="filter", max_length=FILTER_MAX)
        with Horizontal(id="briefing-body"):
            # The border is the box's, not the list's: a page turn repaints
            # the list's lines only.
            with Vertical(id="items-box"):
                yield RowList(id="items")
            with VerticalScroll(id="detail-scroll"):
                yield ItemDetail(id="detail")
        yield ProgressBar(id="world-progress", show_eta=False)
        # The Footer comes after the first painted briefing (`show`): styling
        # its few dozen key widgets cost ~0.1 s of the first frame.

    def on_mount(self) -> None:
        self.query_one(ItemDetail).ages_at = self.ages_at()
        self.query_one("#detail-scroll").border_title = "detail · J/K scroll · o full screen"
        self.query_one("#items", RowList).focus()
        if self.first is not None:
            if self.LATEST:
                self.receipt_failures = self.first_receipts  # read with the first paint, off this thread
            self.show(self.first)
            self.load(repaint=False, delay=FIRST_FRAME_S)
        else:
            self.query_one("#briefing-header", Static).update(Text("reading daimon's store…", style="dim"))
            self.load()

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
    async def load(self, repaint: bool = True, delay: float = 0.0) -> None:
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
        briefing = await first_paint.confirm_async(self.project, self.now,
                                                    shown=lambda read: self.is_attached and self.show(read))
        if not self.is_attached:
            return  # the screen closed while daimon was reading
        self.show(briefing)
        self.provisional = False
        heap = getattr(self.app, "heap", None)
        if heap is not None:
            heap.settle()
        self.check_receipts()
        if not self.live_started:
            self.live_started = True
            self.watch_live()

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
        try:
            header = self.query_one("#briefing-header", Static)
        except NoMatches:
            return
        if self.briefing is None:
            self.mount_footer()
        self.briefing = briefing
        if not briefing.provisional:
            self.details.clear()
            self.provisional_details.clear()
        self.paint_header(header)
        self.rebuild()

    def header_is_folded(self) -> bool:
        return self.size.height <= SHORT_ROWS if self.fold_header is None else self.fold_header

    def paint_header(self, header: Static | None = None) -> None:
        if self.briefing is None:
            return
        header = header or self.query_one("#briefing-header", Static)
        folded = self.header_is_folded()
        header.set_class(folded, "folded")  # one row per line (styles/app.tcss)
        header.update(header_text(self.briefing, self.receipt_failures, self._shown, latest=self.LATEST,
                                  disabled=self.writes_disabled, now=self.ages_at(), folded=folded))

    def action_toggle_header(self) -> None:
        """`e`: the whole header (handoff, rulings) or one line per part."""
        self.fold_header = not self.header_is_folded()
        with contextlib.suppress(NoMatches):
            self.paint_header()

    @work(group="briefing-footer")
    async def mount_footer(self) -> None:
        await asyncio.sleep(FIRST_FRAME_S)
        if not self.is_attached:
            return  # closed (quit, another project) before the Footer came
        await self.mount(Footer(show_command_palette=False))
        self.refresh_bindings()  # a Footer mounted late lists keys on the next bindings update

    def action_reload(self) -> None:
        self.load()
        if self.show_team:
            self.load_team()

    # ---- the list --------------------------------------------------------

    def rebuild(self) -> None:
        try:
            row_list = self.query_one("#items", RowList)
        except NoMatches:
            return  # the screen is closing
        briefing = self.briefing
        kept_row = self.current_row() if self.rows else None
        keep = row_key(kept_row)
        kept_at = self.rows.index(kept_row) if kept_row is not None and kept_row in self.rows else 0
        self.rows = []
        if briefing is None:
            row_list.set_entries([])
            return
        query = filtering.read(self.filter_text)
        terms = query.terms
        self.show_filter_problems(query.problems)
        entries: list[Entry] = []

        def heading(text: Text) -> None:
            entries.append(Entry(text))

        def add_item(item: Item) -> None:
            item = self.with_world(item)
            entries.append(Entry(self.row_text(item), key=len(self.rows)))
            self.rows.append(Row(item=item))

        sections = {s.key: s for s in briefing.sections}
        for key in briefing.order or tuple(sections):
            if key == "active_topic":
                if briefing.topic and not terms:
                    heading(Text.assemble(("Active topic: ", "bold"), inert(briefing.topic, limit=300)))
                continue
            section = sections.get(key)
            if section is None:
                continue
            shown = [i for i in section.items if filtering.matches(self.with_world(i), terms)]
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
            for entry in withheld:
                entries.append(Entry(withheld_row(entry, marked=entry.id in self.marked), key=len(self.rows)))
                self.rows.append(Row(withheld=entry))
        if self.show_team:
            self.add_team_rows(entries, terms)
        if not self.rows:
            message = EMPTY_MESSAGES.get(briefing.state, "No item matches the filter.")
            if query.problems and briefing.state == "briefing":
                message = "The filter box says what it does not understand."
            if briefing.state == "no-checkpoint" and briefing.notes:
                message = "daimon reads no checkpoint for this project: see the note above. P picks another."
            heading(Text(message, style="italic"))
        # A teammate's row that went (a retract, a sync) leaves the cursor where it was in the section.
        fallback = min(kept_at, len(self.rows) - 1) if keep and keep[0] == "team" else 0
        target = next((n for n, r in enumerate(self.rows) if keep and row_key(r) == keep),
                      fallback if self.rows else None)
        highlight = next((n for n, e in enumerate(entries) if e.key == target), None) if target is not None else None
        row_list.set_entries(entries, highlight)
        if target is None:
            self.query_one(ItemDetail).show_item(None)

    def _shown(self, text: str) -> str:
        # The app masks the demo's temporary directory; a test host may have no mask.
        shown = getattr(self.app, "shown", None)
        return shown(text) if callable(shown) else text

    def row_text(self, item: Item) -> Text:
        return item_row(item, marked=item.id in self.marked, provisional=item.provisional,
                        as_daimon=self.as_daimon)

    def show_filter_problems(self, problems: tuple[str, ...]) -> None:
        box = self.query_one("#filter", Input)
        box.border_title = Text("⚠ " + inert("; ".join(problems), limit=200), style="bold yellow") if problems else None
        box.set_class(bool(problems), "problem")

    def focus_item(self, item_id: str) -> bool:
        """Put the cursor on an item (another view's Enter); False when today's
        briefing no longer has it."""
        if self.briefing is None:
            return False
        withheld = {i.id for i in self.briefing.resolved} | {w.id for w in self.briefing.withheld}
        if item_id in withheld and not self.show_withheld:
            self.show_withheld = True
        if self.filter_text:
            self.query_one("#filter", Input).value = ""
            self.filter_text = ""
        self.rebuild()
        found = next((n for n, r in enumerate(self.rows)
                      if (r.item and r.item.id == item_id) or (r.withheld and r.withheld.id == item_id)), None)
        if found is None:
            return False
        row_list = self.query_one("#items", RowList)
        row_list.highlighted = next(n for n, e in enumerate(row_list.entries) if e.key == found)
        row_list.focus()
        return True

    def current_row(self) -> Row | None:
        try:
            row_list = self.query_one("#items", RowList)
        except NoMatches:
            return None  # the screen is closing
        index = row_list.highlighted
        if index is None or index >= row_list.entry_count:
            return None
        key = row_list.entries[index].key
        return self.rows[key] if key is not None and key < len(self.rows) else None

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

    def action_cursor(self, delta: int) -> None:
        row_list = self.query_one("#items", RowList)
        if delta > 0:
            row_list.action_cursor_down()
        else:
            row_list.action_cursor_up()

    @on(RowList.Highlighted, "#items")
    def follow_cursor(self) -> None:
        # The keypress repaints only the list. Filling the pane re-lays out the
        # screen (its height follows its content), which at 5,000 rows held the
        # cursor back; so the pane fills once the cursor rests DETAIL_REST_S,
        # and a move in between cancels the pending fill (exclusive group).
        self.fill_detail()

    @work(exclusive=True, group="detail")
    async def fill_detail(self) -> None:
        await asyncio.sleep(DETAIL_REST_S)
        try:
            row = self.current_row()
            detail = self.query_one(ItemDetail)
            self.show_position()
        except NoMatches:
            return  # the screen is closing
        if row is None:
            detail.show_item(None)
        elif row.withheld is not None:
            detail.show_withheld(row.withheld)
        elif row.team is not None and self.team is not None:
            from daimon_tui.ui.widgets.team_section import team_detail

            detail.update(team_detail(row.team, self.team))
        elif row.item is not None:
            item = row.item
            cached = self.details.get(item.id or "")
            if cached is not None:
                detail.show_item(item, cached.inspection, extras=detail_extras(cached) + self.world_extras(item))
            else:
                detail.show_item(item, None, loading=item.id is not None)
                # Before confirmation the child is busy with the full read: the
                # item's own rows answer meanwhile (provisional). `show` of the
                # confirmed briefing rebuilds the list, which lands here again.
                if item.id and not self.provisional:
                    self.inspect(item)
                elif item.id:
                    self.inspect_provisionally(item)

    def show_position(self) -> None:
        """Where the cursor is, in the list's border (at rest: it repaints the border)."""
        row_list = self.query_one("#items", RowList)
        index = row_list.highlighted
        key = row_list.entries[index].key if index is not None and index < row_list.entry_count else None
        number = "-" if key is None else f"{key + 1:,}"
        position = f"{number} / {len(self.rows):,}" if self.rows else ""
        marked = f"{len(self.marked):,} marked" if self.marked else ""
        self.query_one("#items-box").border_subtitle = " · ".join(p for p in (marked, position) if p)

    @work(exclusive=True, group="inspect")
    async def inspect(self, item: Item) -> None:
        # exclusive: moving the cursor cancels the previous (sleeping) lookup;
        # the lookup starts only once the cursor rests 150 ms (80 of them spent
        # before the pane filled), one at a time, and a result for a row the
        # cursor left is kept but not painted.
        await asyncio.sleep(max(0.0, 0.15 - DETAIL_REST_S))
        async with self.details_lock:
            if self.current_item() is not item:
                return
            # The judging child answers from the snapshot it already holds;
            # the fold never runs in this process (memory, GIL).
            details, _failure = await judge_service.read("details", self.project, item.id or "", self.now)
        self.details[item.id or ""] = details
        if self.current_item() is item:
            extras = detail_extras(details) + self.world_extras(item)
            with contextlib.suppress(NoMatches):  # the screen closed during the read
                self.query_one(ItemDetail).show_item(item, details.inspection, extras=extras)

    @work(exclusive=True, group="inspect")
    async def inspect_provisionally(self, item: Item) -> None:
        # While the child confirms: daimon's readers over the item's own rows,
        # in a thread of this process (a byte search, a few rows folded).
        await asyncio.sleep(max(0.0, 0.15 - DETAIL_REST_S))
        if self.current_item() is not item:
            return
        from daimon_tui.store.read import provisional_details

        found = await asyncio.to_thread(provisional_details.read_provisional, self.project, item.id or "", self.now)
        # The confirmed answer wins: arrived meanwhile, it is not painted over.
        if found is None or not self.provisional or (item.id or "") in self.details:
            return
        self.provisional_details[item.id or ""] = found
        if self.current_item() is item:
            extras = detail_extras(found) + self.world_extras(item)
            with contextlib.suppress(NoMatches):  # the screen closed during the read
                self.query_one(ItemDetail).show_item(item, found.inspection, extras=extras, provisional=True)

    # ---- live ------------------------------------------------------------

    @work(exclusive=True, group="briefing-live")
    async def watch_live(self) -> None:
        """Watch the bucket: appended events apply at once (provisional), any
        change re-confirms with daimon; cursor, marks and detail pane stay."""
        bucket = paths.bucket_dir(self.project.slug)
        if bucket is None or not bucket.is_dir():
            return
        from daimon_tui.store.judging import live

        tail = live.EventsTail(bucket / "events.jsonl")
        await asyncio.to_thread(tail.prime)

        def fell_back(message: str) -> None:
            self.notify(message, severity="warning")

        async for names in live.watch(bucket, on_fallback=fell_back):
            names = {n for n in names if not n.startswith(".")}
            if not names:
                continue
            rows = await asyncio.to_thread(tail.appended) if "events.jsonl" in names else []
            shown = self.briefing
            change = live.apply_events(shown, rows) if rows and shown else None
            if change is not None and shown is not None:
                self.show(change.briefing)
                self.provisional = True
                # the verb's own notice already said what the app wrote
                others = [row for row in rows if not own_writes.is_own(self.app, row)]
                told = change if len(others) == len(rows) else live.apply_events(shown, others) if others else None
                if told is not None:
                    self.ledger_changed(told.summary())
            before = self.briefing.session_id if self.briefing else None
            new_pointer = "latest.json" in names
            self.load(repaint=new_pointer or rows is None, delay=0.3)
            if new_pointer:
                self.announce_session(before)

    def ledger_changed(self, summary: str) -> None:
        """One toast per burst: ten changes at once must not cover the preview."""
        self._changes.append(summary)
        if self._changes_timer is None:
            self._changes_timer = self.set_timer(CHANGES_COALESCE_S, self._say_changes)

    def _say_changes(self) -> None:
        changes, self._changes, self._changes_timer = self._changes, [], None
        if len(changes) == 1:
            self.notify(f"daimon's ledger changed: {changes[0]} (confirming…)")
        elif changes:
            self.notify(f"daimon's ledger changed {len(changes)} times; latest: {changes[-1]} (confirming…)")

    @work(group="briefing-live-toast")
    async def announce_session(self, before: str | None) -> None:
        # Wait for the confirmed read, then say what the new session changed.
        old = {i.id for i in self.briefing.items()} if self.briefing else set()
        while self.provisional:
            await asyncio.sleep(0.1)
        if self.briefing is None or self.briefing.session_id == before:
            return
        now = {i.id for i in self.briefing.items()}
        sid = inert(self.briefing.session_id or "", limit=12)
        self.notify(f"new session {sid}: {len(now - old)} added, {len(old - now)} gone")

    # ---- filter, withheld, marks -------------------------------------------

    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = True
        box.focus()

    @on(Input.Changed, "#filter")
    def filter_changed(self, event: Input.Changed) -> None:
        # debounced: a burst of keys (a paste's replayed tail) rebuilds once
        self._filter_pending = event.value
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DEBOUNCE_S, self._apply_filter)

    def _apply_filter(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None
        self.filter_text = self._filter_pending

    @on(Input.Submitted, "#filter")
    def filter_done(self, event: Input.Submitted) -> None:
        self._apply_filter()
        # An empty filter leaves no empty box behind.
        if not event.value.strip():
            event.input.display = False
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
            self.marked.symmetric_difference_update({item.id})
            prompt = self.row_text(item)
        elif row.withheld is not None and row.withheld.id:
            # withheld rows are marked too, so restores can be batched
            self.marked.symmetric_difference_update({row.withheld.id})
            prompt = withheld_row(row.withheld, marked=row.withheld.id in self.marked)
        else:
            self.notify("This item has no id: a verb cannot name it.")
            return
        self.show_position()
        row_list = self.query_one("#items", RowList)
        if row_list.highlighted is not None:
            row_list.replace_prompt(row_list.highlighted, prompt)
        self.action_cursor(1)

    def action_escape(self) -> None:
        """Esc clears the filter (and leaves it), then the marks; it never quits."""
        box = self.query_one("#filter", Input)
        if box.has_focus or box.value:
            box.value = ""
            self._filter_pending = ""
            self._apply_filter()
            box.display = False
            self.query_one("#items", RowList).focus()
        elif self.marked:
            self.marked.clear()
            self.rebuild()
            self.show_position()
            self.notify("Marks cleared.")
        else:
            self.escape_fallback()

    def escape_fallback(self) -> None:
        self.notify("Esc never quits: press q to quit, ctrl+q from anywhere.")

    # ---- verbs and world-checks are wired by their own modules --------------

    def prefill_status(self, item_id: str | None = None) -> str:
        """A world contradiction names the resolve status (gone, missing, merged);
        for `item_id`, else the item under the cursor."""
        if item_id is None:
            item = self.current_item()
            item_id = item.id if item else None
        found = self.world.get(item_id or "")
        from daimon_tui.domain.world_badges import suggested_status

        return suggested_status(found[0] if found else None)

    def world_confirmed(self, item_ids: tuple[str, ...]) -> frozenset[str]:
        """The items whose claim the world-check confirmed (a resolve flags them)."""
        from daimon_tui.domain.worldcheck import badge_for

        return frozenset(i for i in item_ids if i in self.world and badge_for(self.world[i][0]) == "world-checked")

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

    # ---- the teammates' section -------------------------------------------------

    def action_toggle_team(self) -> None:
        self.show_team = not self.show_team
        if self.show_team and self.team is None:
            self.load_team()

    def watch_show_team(self) -> None:
        self.rebuild()

    @work(exclusive=True, group="team-load")
    async def load_team(self, delay: float = 0.0) -> None:
        if not self.team_live_started:
            self.team_live_started = True
            self.watch_team_copy()
        if delay:
            await asyncio.sleep(delay)
        # The judging child folds the reader's ledgers for the team view too.
        team, _failure = await judge_service.read("team", self.project, self.now)
        if self.is_attached:
            self.team = team
            self.rebuild()

    @work(exclusive=True, group="team-live")
    async def watch_team_copy(self) -> None:
        """A sync in another terminal shows without a key: re-read the team copy
        when it changes (hidden, the next `t` reads it afresh)."""
        from daimon_tui.store.read import team_live

        root = await asyncio.to_thread(team_live.team_root)

        def fell_back(message: str) -> None:
            self.notify(message, severity="warning")

        async for _batch in team_live.watch_team(root, on_fallback=fell_back):
            if not self.is_attached:
                return
            if self.show_team:
                self.load_team(delay=0.1)  # exclusive: a burst of batches costs one read
            else:
                self.team = None

    def add_team_rows(self, entries: list[Entry], terms: tuple) -> None:
        from daimon_tui.ui.widgets.team_section import team_rows

        if self.team is None:
            entries.append(Entry(Text("Teammates: reading the team copy…", style="dim italic")))
            return
        own_ids = {i.id for i in self.briefing.items() if i.id} if self.briefing else set()
        for text, team_row in team_rows(self.team, terms, own_ids, self.as_daimon):
            if team_row is None:
                entries.append(Entry(text))
            else:
                entries.append(Entry(text, key=len(self.rows)))
                self.rows.append(Row(team=team_row))

    @work(exclusive=True, group="verb")
    async def team_verb(self, verb: str, row: TeamRow, team: TeamView) -> None:
        from daimon_tui.ui.team_flow import run_team_verb

        outcome = await run_team_verb(self.app, verb, row, self.project, self.app.action_log,  # type: ignore[attr-defined]
                                      team)
        if outcome.status == "applied":
            self.load()
            self.load_team()

    # ---- world-checks ---------------------------------------------------------

    def with_world(self, item: Item) -> Item:
        found = self.world.get(item.id or "")
        if found is None:
            return item
        from daimon_tui.domain.world_badges import with_world

        return with_world(item, found[0])

    def world_extras(self, item: Item) -> tuple:
        found = self.world.get(item.id or "")
        if not found:
            return ()
        from daimon_tui.ui.widgets.world_detail import world_renderable

        return (world_renderable(*found),)

    def action_world_check(self, every: bool) -> None:
        if self.project.path is None:
            self.notify("World-checks need the project directory; this bucket was opened by slug.",
                        severity="warning")
            return
        running = [w for w in self.workers if w.group == "world" and w.is_running]
        if running:
            self.world_stop.set()
            self.notify("World-check cancelled.")
            return
        if every:
            items = [i for i in (self.briefing.items() if self.briefing else ()) if i.has_badge("carried")]
        else:
            current = self.current_item()
            items = [current] if current else []
        items = [i for i in items if i.id]
        if not items:
            self.notify("Nothing to world-check: no carried item." if every else "No item under the cursor.")
            return
        self.world_stop = threading.Event()
        self.world_check(tuple(items))

    @work(exclusive=True, group="world")
    async def world_check(self, items: tuple[Item, ...]) -> None:
        bar = self.query_one("#world-progress", ProgressBar)
        bar.update(total=len(items), progress=0)
        bar.display = len(items) > 1
        stop = self.world_stop

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, progress=done)

        from daimon_tui.domain.worldcheck import check_items

        report = await asyncio.to_thread(
            check_items, Path(self.project.path or "."), [(i.id or "", i.text, i.quote) for i in items],
            cancelled=stop.is_set, progress=progress,
        )
        bar.display = False
        checked_at = self.now if self.now is not None else time.time()
        for result in report.items:
            self.world[result.item_id] = (result, checked_at)
        contradicted = sum(1 for r in report.items if r.contradicted)
        checkable = sum(1 for r in report.items if r.results)
        try:
            await asyncio.to_thread(
                self.app.action_log.record,  # type: ignore[attr-defined]
                project=self.project.slug, verb="world-check", outcome="world-check",
                item_ids=tuple(r.item_id for r in report.items),
                reason=("cancelled " if report.cancelled else "") + f"{contradicted} contradicted",
            )
        except OSError as exc:  # the app's own log never crashes it: the check stands, unlogged
            self.notify(f"World-check not logged: {exc}", severity="error", timeout=10)
        if report.repo_error:
            self.notify(f"World-check: {report.repo_error}", severity="warning")
        self.notify(world_summary(len(report.items), checkable, contradicted),
                    severity="error" if contradicted else ("information" if checkable else "warning"))
        self.rebuild()

    # ---- the detail pane, full screen -----------------------------------------

    def action_scroll_detail(self, direction: int) -> None:
        """Scroll the detail pane half a page while the list keeps the focus."""
        pane = self.query_one("#detail-scroll", VerticalScroll)
        pane.scroll_relative(y=direction * max(1, pane.size.height // 2), animate=False)

    def action_open_item(self) -> None:
        row = self.current_row()
        if row is None or row.item is None:
            self.notify("No item under the cursor." if row is None else
                        "daimon shows nothing of a withheld item beyond what the pane says.")
            return
        from daimon_tui.ui.screens.item_screen import ItemScreen

        item = row.item
        cached = self.details.get(item.id or "")
        self.app.push_screen(ItemScreen(item, cached, lambda d: detail_extras(d) + self.world_extras(item),
                                        read=self.details_reader(item), ages_at=self.query_one(ItemDetail).ages_at))

    def details_reader(self, item: Item) -> Callable[[], Awaitable[ItemDetails]] | None:
        async def read() -> ItemDetails:
            details, _failure = await judge_service.read("details", self.project, item.id or "", self.now)
            self.details[item.id or ""] = details
            return details

        return read if item.id else None

    # ---- full text ------------------------------------------------------------

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
