"""Screen 1: the briefing, daimon's sections in daimon's order, with a detail
pane that follows the cursor."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from ...domain import filtering
from ...domain.inert import inert
from ...domain.world_badges import suggested_status, with_world
from ...domain.worldcheck import ItemResult, check_items
from ...store import audit, first_paint, history, live, paths, reader
from ...store.models import Briefing, Inspection, Item, ProjectRef, WithheldItem
from ..actions import bindings
from ..widgets.item_detail import ItemDetail
from ..widgets.item_row import item_row, withheld_row
from ..widgets.timeline import timeline_renderable
from ..widgets.witnesses import witness_renderable
from ..widgets.world_detail import world_renderable

# How long the cursor rests on a row before the detail pane shows it.
DETAIL_REST_S = 0.08


@dataclass(frozen=True)
class Details:
    """What the workers found about one item: daimon's `why`, its witnesses and lifecycle."""

    inspection: Inspection
    witnesses: history.WitnessReport | None
    timeline: history.Timeline | None

    def extras(self) -> tuple:
        out = []
        if self.witnesses is not None:
            out.append(witness_renderable(self.witnesses))
        if self.timeline is not None:
            out.append(timeline_renderable(self.timeline))
        return tuple(out)


def read_details(project: ProjectRef, item_id: str, now: float | None) -> Details:
    inspection = reader.inspect(project, item_id, now)
    if not inspection.found:
        return Details(inspection, None, None)
    return Details(inspection, history.witnesses(project, item_id), history.timeline(project, item_id))


@dataclass(frozen=True)
class Row:
    item: Item | None = None
    withheld: WithheldItem | None = None


def header_text(briefing: Briefing, receipt_failures: int = 0) -> Text:
    text = Text()
    text.append(inert(briefing.project.name or briefing.project.slug, limit=80), style="bold")
    if briefing.session_id:
        text.append(f"  ·  session {inert(briefing.session_id, limit=60)}")
    if briefing.created:
        text.append(f"  written {inert(briefing.created, limit=30)}", style="dim")
    counts = f"  {len(briefing.items())} items"
    hidden = len(briefing.resolved) + len(briefing.withheld)
    if hidden:
        counts += f", {hidden} withheld (h)"
    text.append(counts, style="dim")
    if briefing.degraded:
        text.append("\n⚠ RECEIPT UNVERIFIED: the latest checkpoint no longer matches its signed receipt; "
                    "verbatim labels are degraded.", style="bold yellow")
    if briefing.provisional:
        text.append("\nprovisional: confirming with daimon…", style="italic yellow")
    if receipt_failures:
        text.append(f"\n⚠ {receipt_failures} session receipt(s) fail: press 4 for the audit", style="bold red")
    for note in briefing.notes:
        text.append(f"\n⚠ {inert(note.message, limit=400)}", style="yellow" if note.level != "error" else "bold red")
    for ruling in briefing.rulings:
        text.append(f"\n{inert(ruling, limit=400)}", style="bold")
    return text


EMPTY_MESSAGES = {
    "no-checkpoint": "daimon has no checkpoint for this project yet. Press P to pick a project that has one.",
    "empty": "The latest checkpoint has nothing worth surfacing.",
    "closed": "daimon withholds every item while a ledger above cannot be read. See the note above.",
    "unavailable": "daimon could not read this project. See the note above.",
}


class BriefingScreen(Screen):
    """The default view."""

    BINDINGS: ClassVar[list[Binding]] = [
        *bindings({"Move", "Briefing", "Verbs", "World"}),
        Binding("down", "cursor(1)", show=False),
        Binding("up", "cursor(-1)", show=False),
    ]

    show_withheld: reactive[bool] = reactive(False, init=False)
    filter_text: reactive[str] = reactive("", init=False)

    def __init__(self, project: ProjectRef, *, now: float | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        self.briefing: Briefing | None = None
        self.rows: list[Row] = []
        self.marked: set[str] = set()
        self.details: dict[str, Details] = {}
        self.receipt_failures = 0
        self.world: dict[str, tuple[ItemResult, float]] = {}
        self.world_stop = threading.Event()
        # True while any verdict on screen is not daimon's fresh judgement
        # (the benchmark's hook); the header and each row say so too.
        self.provisional = True
        self.details_lock = asyncio.Lock()
        self.live_started = False

    def compose(self) -> ComposeResult:
        yield Static(id="briefing-header")
        yield Input(placeholder="filter: words, trust:verbatim, section:open, carried, stale, -word",
                    id="filter")
        with Horizontal(id="briefing-body"):
            yield OptionList(id="items")
            with VerticalScroll(id="detail-scroll"):
                yield ItemDetail(id="detail")
        yield ProgressBar(id="world-progress", show_eta=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#items", OptionList).focus()
        self.query_one("#briefing-header", Static).update(Text("reading daimon's store…", style="dim"))
        self.load()

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
            if quick is not None:
                self.show(quick)
        elif self.briefing is not None and not self.briefing.provisional:
            self.show(self.briefing.model_copy(update={"provisional": True}))
        if delay:
            await asyncio.sleep(delay)
        # In a child process: the fold neither holds our GIL nor adds to our memory.
        briefing = await first_paint.confirm_async(self.project, self.now)
        if not self.is_attached:
            return  # the screen closed while daimon was reading
        self.show(briefing)
        self.provisional = False
        self.check_receipts()
        if not self.live_started:
            self.live_started = True
            self.watch_live()

    @work(exclusive=True, group="briefing-receipts")
    async def check_receipts(self) -> None:
        # After confirmation (never alongside it): every session's receipt,
        # checked natively. In-process on purpose: it shares the one snapshot
        # the detail pane's `why` folds here; a child would fold a second copy
        # alongside it (twice the memory at once).
        report = await asyncio.to_thread(audit.load_audit, self.project)
        self.receipt_failures = report.receipt_failures
        if self.briefing is not None:
            self.query_one("#briefing-header", Static).update(header_text(self.briefing, self.receipt_failures))

    def show(self, briefing: Briefing) -> None:
        self.briefing = briefing
        if not briefing.provisional:
            self.details.clear()
        self.query_one("#briefing-header", Static).update(header_text(briefing, self.receipt_failures))
        self.rebuild()

    def action_reload(self) -> None:
        self.load()

    # ---- the list --------------------------------------------------------

    def rebuild(self) -> None:
        briefing = self.briefing
        option_list = self.query_one("#items", OptionList)
        keep = self.current_id()
        option_list.clear_options()
        self.rows = []
        if briefing is None:
            return
        terms = filtering.parse(self.filter_text)
        options: list[Option] = []

        def add_item(item: Item) -> None:
            item = self.with_world(item)
            self.rows.append(Row(item=item))
            options.append(Option(item_row(item, marked=item.id in self.marked, provisional=item.provisional),
                                  id=f"row-{len(self.rows) - 1}"))

        for section in briefing.sections:
            shown = [i for i in section.items if filtering.matches(self.with_world(i), terms)]
            if not shown:
                continue
            options.append(Option(Text(f"{section.title} ({len(shown)})", style="bold underline"), disabled=True))
            for item in shown:
                add_item(item)
        if briefing.topic and not terms:
            options.append(Option(Text.assemble(("Active topic: ", "bold"), inert(briefing.topic, limit=300)),
                                  disabled=True))
        if self.show_withheld:
            resolved = [i for i in briefing.resolved if filtering.matches(i, terms)]
            if resolved or briefing.withheld:
                options.append(Option(Text("Withheld", style="bold underline"), disabled=True))
            for item in resolved:
                add_item(item)
            for entry in briefing.withheld:
                self.rows.append(Row(withheld=entry))
                options.append(Option(withheld_row(entry), id=f"row-{len(self.rows) - 1}"))
        if not self.rows:
            message = EMPTY_MESSAGES.get(briefing.state, "No item matches the filter.")
            if briefing.state == "no-checkpoint" and briefing.notes:
                message = "daimon reads no checkpoint for this project: see the note above. P picks another."
            options.append(Option(Text(message, style="italic"), disabled=True))
        option_list.add_options(options)
        self.restore_cursor(keep)

    def restore_cursor(self, item_id: str | None) -> None:
        option_list = self.query_one("#items", OptionList)
        target = next((n for n, r in enumerate(self.rows) if r.item and r.item.id == item_id), 0 if self.rows else None)
        if target is None:
            self.query_one(ItemDetail).show_item(None)
            return
        option_list.highlighted = option_list.get_option_index(f"row-{target}")

    def current_row(self) -> Row | None:
        option_list = self.query_one("#items", OptionList)
        index = option_list.highlighted
        if index is None:
            return None
        option_id = option_list.get_option_at_index(index).id
        if not option_id or not option_id.startswith("row-"):
            return None
        return self.rows[int(option_id[4:])]

    def current_item(self) -> Item | None:
        row = self.current_row()
        return row.item if row else None

    def current_id(self) -> str | None:
        item = self.current_item() if self.rows else None
        return item.id if item else None

    def targets(self) -> list[Item]:
        """The marked items, else the one under the cursor."""
        if self.briefing and self.marked:
            return [i for i in (*self.briefing.items(), *self.briefing.resolved) if i.id in self.marked]
        item = self.current_item()
        return [item] if item else []

    def action_cursor(self, delta: int) -> None:
        option_list = self.query_one("#items", OptionList)
        if delta > 0:
            option_list.action_cursor_down()
        else:
            option_list.action_cursor_up()

    @on(OptionList.OptionHighlighted, "#items")
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
        except NoMatches:
            return  # the screen is closing
        if row is None:
            detail.show_item(None)
        elif row.withheld is not None:
            detail.show_withheld(row.withheld)
        elif row.item is not None:
            item = row.item
            cached = self.details.get(item.id or "")
            if cached is not None:
                detail.show_item(item, cached.inspection, extras=cached.extras() + self.world_extras(item))
            else:
                detail.show_item(item, None, loading=item.id is not None)
                # Before confirmation the full read is running: a `why` now
                # would fold the ledgers a second time. `show` of the confirmed
                # briefing rebuilds the list, which lands here again.
                if item.id and not self.provisional:
                    self.inspect(item)

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
            details = await asyncio.to_thread(read_details, self.project, item.id or "", self.now)
        self.details[item.id or ""] = details
        if self.current_item() is item:
            extras = details.extras() + self.world_extras(item)
            self.query_one(ItemDetail).show_item(item, details.inspection, extras=extras)

    # ---- live ------------------------------------------------------------

    @work(exclusive=True, group="briefing-live")
    async def watch_live(self) -> None:
        """Watch the bucket: appended events apply at once (provisional), any
        change re-confirms with daimon; cursor, marks and detail pane stay."""
        bucket = paths.bucket_dir(self.project.slug)
        if bucket is None or not bucket.is_dir():
            return
        tail = live.EventsTail(bucket / "events.jsonl")
        await asyncio.to_thread(tail.prime)

        def fell_back(message: str) -> None:
            self.notify(message, severity="warning")

        async for names in live.watch(bucket, on_fallback=fell_back):
            names = {n for n in names if not n.startswith(".")}
            if not names:
                continue
            rows = await asyncio.to_thread(tail.appended) if "events.jsonl" in names else []
            change = live.apply_events(self.briefing, rows) if rows and self.briefing else None
            if change is not None:
                self.show(change.briefing)
                self.provisional = True
                self.notify(f"daimon's ledger changed: {change.summary()} (confirming…)")
            before = self.briefing.session_id if self.briefing else None
            new_pointer = "latest.json" in names
            self.load(repaint=new_pointer or rows is None, delay=0.3)
            if new_pointer:
                self.announce_session(before)

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
        self.filter_text = event.value

    @on(Input.Submitted, "#filter")
    def filter_done(self) -> None:
        self.query_one("#items", OptionList).focus()

    def watch_filter_text(self) -> None:
        self.rebuild()

    def watch_show_withheld(self) -> None:
        self.rebuild()

    def action_toggle_withheld(self) -> None:
        self.show_withheld = not self.show_withheld

    def action_mark(self) -> None:
        item = self.current_item()
        if item is None or item.id is None:
            return
        self.marked.symmetric_difference_update({item.id})
        option_list = self.query_one("#items", OptionList)
        index = option_list.highlighted
        if index is not None:
            option_list.replace_option_prompt_at_index(
                index, item_row(item, marked=item.id in self.marked, provisional=item.provisional))
        self.action_cursor(1)

    def key_escape(self) -> bool:
        box = self.query_one("#filter", Input)
        if box.has_focus:
            box.value = ""
            box.display = False
            self.query_one("#items", OptionList).focus()
            return True
        return False

    # ---- verbs and world-checks are wired by their own modules --------------

    def prefill_status(self) -> str:
        """A world contradiction names the resolve status (gone, missing, merged)."""
        item = self.current_item()
        found = self.world.get(item.id or "") if item else None
        return suggested_status(found[0] if found else None)

    def action_verb(self, verb: str) -> None:
        self.app.run_verb(verb, self)  # type: ignore[attr-defined]

    # ---- world-checks ---------------------------------------------------------

    def with_world(self, item: Item) -> Item:
        found = self.world.get(item.id or "")
        return with_world(item, found[0] if found else None)

    def world_extras(self, item: Item) -> tuple:
        found = self.world.get(item.id or "")
        return (world_renderable(*found),) if found else ()

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

        report = await asyncio.to_thread(
            check_items, Path(self.project.path or "."), [(i.id or "", i.text, i.quote) for i in items],
            cancelled=stop.is_set, progress=progress,
        )
        bar.display = False
        checked_at = self.now if self.now is not None else time.time()
        for result in report.items:
            self.world[result.item_id] = (result, checked_at)
        contradicted = sum(1 for r in report.items if r.contradicted)
        await asyncio.to_thread(
            self.app.action_log.record,  # type: ignore[attr-defined]
            project=self.project.slug, verb="world-check", outcome="world-check",
            item_ids=tuple(r.item_id for r in report.items),
            reason=("cancelled " if report.cancelled else "") + f"{contradicted} contradicted",
        )
        if report.repo_error:
            self.notify(f"World-check: {report.repo_error}", severity="warning")
        self.notify(f"World-checked {len(report.items)} item(s): {contradicted} contradicted.",
                    severity="error" if contradicted else "information")
        self.rebuild()

    # ---- full text ------------------------------------------------------------

    @on(OptionList.OptionSelected, "#items")
    def selected(self) -> None:
        self.action_full_text()

    def action_full_text(self) -> None:
        """`enter` on a row: the item's whole text, however long."""
        from .full_text import FullTextScreen

        item = self.current_item()
        if item is not None:
            self.app.push_screen(FullTextScreen(item))
