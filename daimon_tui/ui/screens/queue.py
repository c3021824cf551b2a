"""The Queue view (3): what waits on the person, one item at a time.

Full detail of the current entry, the verbs that fit it on single keys, `n`/`p`
to move, `s` to skip, and a progress line. World-checks of the queue's items
run in the background while the person reads; a contradicted item not yet
seen moves into the contradicted lane. Past the last entry: a summary of what
was done this sitting, read back from the action log.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static

from daimon_tui.domain import queue_order, verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.models.queue import QueueEntry, TriageQueue
from daimon_tui.services import action_log
from daimon_tui.services import queue as queue_service
from daimon_tui.services.action_log import ActionLog
from daimon_tui.ui import own_writes
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.screens.verb_modals import ConfirmModal
from daimon_tui.ui.widgets.item_detail import item_fields

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult

# Single keys: one verb per key, resolved against what fits the entry.
KEY_VERBS: dict[str, tuple[str, ...]] = {
    "a": (
        "claim-confirm",
        "supersede-confirm",
        "amend-ratify",
        "relation-confirm",
        "trust-confirm",
        "ruling-ratify",
        "refutation-ratify",
        "request-accept",
    ),
    "d": (
        "supersede-reject",
        "amend-reject",
        "relation-reject",
        "trust-dismiss",
        "ruling-reject",
        "refutation-reject",
        "request-reject",
    ),
    "o": ("claim-reopen",),
    "r": ("resolve", "claim-confirm"),
    "x": ("retract",),
    "v": ("reverify", "supersede-reject"),
}
# What each single key does, for `?` and the README (the entry's card names
# the one verb that fits it).
KEY_WORDS = {
    "a": "Accept what the entry proposes (confirm, ratify)",
    "d": "Decline it (reject, dismiss)",
    "o": "Reopen a claimed resolution, with evidence",
    "r": "Resolve (or confirm a claimed resolution)",
    "x": "Retract",
    "v": "Reverify (or reject a supersession)",
}
VERB_LABELS = {
    "resolve": "resolve",
    "retract": "retract",
    "reverify": "reverify",
    "claim-confirm": "confirm resolved",
    "claim-reopen": "reopen (evidence)",
    "supersede-confirm": "confirm supersession",
    "supersede-reject": "reject (reverify)",
    "amend-ratify": "ratify",
    "amend-reject": "reject",
    "relation-confirm": "confirm",
    "relation-reject": "reject",
    "trust-confirm": "confirm quarantine",
    "trust-dismiss": "dismiss",
    "ruling-ratify": "ratify this text",
    "ruling-reject": "reject",
    "refutation-ratify": "ratify",
    "refutation-reject": "reject",
    "request-accept": "accept the request",
    "request-reject": "decline the request",
}
CURATION = frozenset({"resolve", "retract", "reverify"})
CURATION_TALLY = {"resolve": "resolve", "retract": "retract", "reverify": "reverify"}


def _t(value: object, style: str = "", limit: int = 2000) -> Text:
    return Text(inert(value, limit=limit, keep_newlines=True), style=style)


def key_for(entry: QueueEntry, key: str) -> str | None:
    return next((v for v in KEY_VERBS.get(key, ()) if v in entry.verbs), None)


def lead_keys() -> Text:
    """`?` and `q` lead the keys line, as they lead every footer."""
    out = Text()
    out.append(" ? ", style="reverse")
    out.append(" help  ")
    out.append(" q ", style="reverse")
    out.append(" back  ")
    return out


def keys_line(entry: QueueEntry) -> Text:
    out = lead_keys()
    shown: set[str] = set()
    for key in KEY_VERBS:
        verb = key_for(entry, key)
        if verb and verb not in shown:
            shown.add(verb)
            out.append(f" {key} ", style="reverse bold")
            out.append(f" {VERB_LABELS[verb]}  ")
    out.append(" n ", style="reverse")
    out.append(" next  ")
    out.append(" p ", style="reverse")
    out.append(" previous  ")
    out.append(" s ", style="reverse")
    out.append(" skip")
    return out


def entry_texts(entry: QueueEntry) -> dict[str, str]:
    """The entry's item text by its id: the dialogs and the toast name it by its text."""
    return {entry.ref: entry.item.text} if entry.item is not None and entry.item.text else {}


def entry_card(entry: QueueEntry, world: str | None = None, done: str | None = None) -> RenderableType:
    head = Text()
    head.append(f"{entry.title}", style="bold reverse")
    head.append("  ")
    head.append_text(_t(entry.ref, "bold", 80))
    why = Text("why: ", style="bold")
    why.append_text(_t(entry.why, "italic", 400))
    parts: list[RenderableType] = [head, why]
    if done:
        parts.append(Text(f"done this sitting: {done}", style="green bold"))
    if world:
        parts.append(Text.assemble(("world-check: ", "bold"), _t(world, "yellow", 400)))
    if entry.prefill_status:
        parts.append(Text(f"suggested status: {entry.prefill_status}", style="yellow"))
    if entry.substitute_id:
        parts.append(Text.assemble(("substitute: ", "bold"), _t(entry.substitute_id, "", 80)))
    parts.append(Text(""))
    if entry.item is not None:
        parts.append(item_fields(entry.item))
    if entry.record is not None:
        table = Table.grid(padding=(0, 1))
        table.add_column(width=12)
        table.add_column(ratio=1)
        table.add_row(Text("record", style="bold"), _t(f"{entry.record.kind} {entry.record.id}", "", 120))
        for label, value in entry.record.fields:
            table.add_row(_t(label, "bold", 40), _t(value))
        if entry.record.context:
            table.add_row(Text("context", style="bold"), _t(entry.record.context, "dim", 200))
        if entry.record.waiting_since:
            table.add_row(Text("waiting since", style="bold"), _t(entry.record.waiting_since, "dim", 40))
        if entry.record.withheld:
            table.add_row(
                Text("withheld", style="bold red"),
                Text("part of this record is withheld: it cannot be ratified here", style="red"),
            )
        parts.append(table)
    return Group(*parts)


def summary_text(entries: list[ActionEntry], queue: TriageQueue, done: dict[str, str]) -> Text:
    out = Text()
    out.append("End of the queue\n\n", style="bold")
    skipped = sum(1 for v in done.values() if v == "skip")
    out.append(f"{len(queue.entries)} waiting item(s) went by; {skipped} skipped (still waiting).\n\n")
    if not entries:
        out.append("Nothing was written this sitting.\n", style="italic")
        return out
    out.append("Done this sitting (from the action log):\n", style="bold")
    for line in queue_order.summary_lines((e.verb, e.outcome) for e in entries):
        out.append(f"  {inert(line, limit=200)}\n")
    out.append("\n")
    for entry in entries:
        mark = "✓" if entry.outcome == "applied" else "✗"
        out.append(f"  {mark} ", style="green" if entry.outcome == "applied" else "red")
        out.append_text(_t(entry.verb, "bold", 40))
        out.append("  ")
        out.append_text(_t(", ".join(entry.item_ids), "", 200))
        out.append(f"  {entry.outcome}", style="dim")
        if entry.reason:
            out.append_text(_t(f" ({entry.reason})", "dim", 80))
        out.append("\n")
    return out


class DecisionModal(ConfirmModal):
    """The preview of one queue verdict: what is written where, then y/n."""

    def __init__(self, entry: QueueEntry, verb: str, *, log_problem: str | None = None) -> None:
        super().__init__(log_problem=log_problem)
        self.entry = entry
        self.verb = verb

    def compose(self) -> ComposeResult:
        body = Text()
        body.append("Will write\n", style="bold")
        lines = queue_service.decision_preview(self.entry, self.verb)
        for line in lines[:1]:
            body.append("  → ")
            body.append_text(_t(line, "", 300))
            body.append("\n")
        if len(lines) > 1:
            body.append("\nSide effects\n", style="bold")
        for line in lines[1:]:
            body.append("  • ")
            body.append_text(_t(line, "", 300))
            body.append("\n")
        with Vertical(id="verb-dialog"):
            yield Label(
                Text(f"{VERB_LABELS.get(self.verb, self.verb)}: preview", style="bold"), id="verb-title"
            )
            with VerticalScroll(id="verb-body"):
                yield Static(body, id="queue-preview")
            yield from self.log_refusal()
            hint = "nothing can be written (the action log cannot record it) · n/esc close" if self.log_problem \
                else "y confirm · n/esc cancel"
            yield Label(Text(hint), id="verb-hint")


class QueueScreen(Screen):
    VIEW_NAME = "Queue"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "move(1)", "Next"),
        Binding("p", "move(-1)", "Previous"),
        Binding("s", "skip", "Skip"),
        *(Binding(key, f"verb('{key}')", KEY_WORDS[key], show=False) for key in KEY_VERBS),
        Binding("ctrl+r", "reload", "Reload", show=False),
        Binding("z", "undo", "Undo", show=False),
    ]

    def __init__(
        self,
        project: ProjectRef,
        *,
        now: float | None = None,
        log: ActionLog | None = None,
        world_check: bool = True,
    ) -> None:
        super().__init__()
        self.project = project
        self.now = now
        self.action_log = log or action_log.open_log()
        self.world_check = world_check
        self.queue: TriageQueue | None = None
        self.index = 0
        self.done: dict[str, str] = {}
        self.seen: set[str] = set()
        self.world: dict[str, str] = {}
        self.world_results: dict[str, ItemResult] = {}
        self.sitting_start = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Static(Text("Queue · reading the queue…", style="bold"), id="queue-progress")
        with VerticalScroll(id="queue-scroll"):
            yield Static(Text(""), id="queue-card")
        yield Static(Text(""), id="queue-keys")

    def on_mount(self) -> None:
        self.load()

    # ---- reading ---------------------------------------------------------------

    @work(exclusive=True, group="queue-load")
    async def load(self) -> None:
        try:
            queue = await queue_service.read_queue(self.project, self.now)
        except Exception as exc:
            self.query_one("#queue-card", Static).update(
                Text(f"the queue could not be read ({type(exc).__name__})")
            )
            return
        self.queue = queue
        self.index = min(self.index, len(queue.entries))
        self.paint()
        if self.world_check and self.project.path:
            self.check_world()

    @work(exclusive=True, group="queue-world")
    async def check_world(self) -> None:
        queue = self.queue
        if queue is None:
            return
        try:
            from daimon_tui.domain import worldcheck
            from daimon_tui.services.world_check import check_items
        except ImportError:
            return
        items = [
            (e.item.id, e.item.text, e.item.quote) for e in queue.entries if e.item is not None and e.item.id
        ]
        if not items or not self.project.path:
            return
        try:
            report = await check_items(Path(self.project.path), items)
        except Exception:
            return
        contradicted = {}
        for result in report.items:
            findings = [r.finding for r in result.results]
            if not findings:
                continue
            words = "; ".join(f"{f.outcome.value}: {f.evidence}" for f in findings)
            self.world[result.item_id] = words
            self.world_results[result.item_id] = result
            if result.contradicted:
                contradicted[result.item_id] = "; ".join(
                    f.evidence for f in findings if f.outcome is worldcheck.Outcome.CONTRADICTED
                )
        if contradicted and self.queue is not None:
            current = self.current
            keep = frozenset(self.seen | set(self.done) | ({current.key} if current else set()))
            self.queue = queue_service.with_world_findings(self.queue, contradicted, keep=keep)
        self.paint()

    # ---- painting ----------------------------------------------------------------

    @property
    def current(self) -> QueueEntry | None:
        if self.queue is None or self.index >= len(self.queue.entries):
            return None
        return self.queue.entries[self.index]

    def progress(self) -> str:
        total = len(self.queue.entries) if self.queue else 0
        position = min(self.index + 1, total)
        return queue_order.progress_line(position, total, self.done)

    def paint(self) -> None:
        queue = self.queue
        if queue is None:
            return
        progress = Text(f"{self.VIEW_NAME} · {self.progress()}", style="bold")
        lanes = queue_order.lane_counts(e.kind for e in queue.entries)
        if lanes:
            progress.append(f"\n{lanes}", style="dim")
        for note in queue.notes:
            progress.append("\n")
            progress.append_text(_t(note.message, "yellow", 300))
        self.query_one("#queue-progress", Static).update(progress)
        card = self.query_one("#queue-card", Static)
        keys = self.query_one("#queue-keys", Static)
        entry = self.current
        if entry is None:
            card.update(Text("Loading what was done…"))
            keys.update(lead_keys() + Text(" p  previous   ctrl+r  reload"))
            self.show_summary()
            return
        self.seen.add(entry.key)
        world = self.world.get(entry.item.id) if entry.item is not None and entry.item.id else None
        done = self.done.get(entry.key)
        card.update(entry_card(entry, world, done if done and done != "skip" else None))
        keys.update(keys_line(entry))

    @work(exclusive=True, group="queue-summary")
    async def show_summary(self) -> None:
        entries = await action_log.read_entries(self.action_log)
        mine = [e for e in entries if e.project == self.project.slug and e.time >= self.sitting_start]
        if self.queue is not None and self.current is None:
            self.query_one("#queue-card", Static).update(summary_text(mine, self.queue, self.done))

    # ---- actions ------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        if self.queue is None or self.busy:
            self.say_busy()
            return
        self.index = max(0, min(len(self.queue.entries), self.index + delta))
        self.paint()

    def resolve_status(self, entry: QueueEntry) -> str:
        """The status the resolve modal preselects: from this sitting's
        world-check the way the briefing does, else the entry's evidence."""
        found = self.world_results.get(entry.item.id or "") if entry.item is not None else None
        if found is not None and found.contradicted:
            from daimon_tui.domain.world_badges import suggested_status

            return suggested_status(found)
        return entry.prefill_status or "resolved"

    def say_why_not(self, past_the_end: str) -> None:
        if self.busy or self.queue is None:
            self.say_busy()
        else:
            self.notify(past_the_end)

    def say_busy(self) -> None:
        self.notify("Wait: the queue is still being read." if self.queue is None else
                    "Wait: a verb on this entry is still running.")

    def action_skip(self) -> None:
        entry = self.current
        if entry is None or self.busy:
            self.say_why_not("Nothing left to skip: p goes back.")
            return
        self.done.setdefault(entry.key, "skip")
        self.action_move(1)

    def action_reload(self) -> None:
        self.load()

    def action_verb(self, key: str) -> None:
        entry = self.current
        if entry is None or self.busy:
            self.say_why_not("No entry here: p goes back.")
            return
        verb = key_for(entry, key)
        if verb is None:
            self.notify(f"{key}: no verb on this key fits a {entry.kind} entry", severity="warning")
            return
        self.run_entry_verb(entry, verb)

    def action_undo(self) -> None:
        if not self.busy:
            self.run_undo()

    @work(exclusive=True, group="queue-verb")
    async def run_undo(self) -> None:
        """`z`: the same undo as the briefing's (the last undoable action, named in its preview)."""
        from daimon_tui.ui.verb_flow import run_verb

        self.busy = True
        try:
            outcome = await run_verb(self.app, "undo", (), self.project, self.action_log)
        finally:
            self.busy = False
        if outcome.status in ("applied", "partial"):
            self.load()

    @work(exclusive=True, group="queue-verb")
    async def run_entry_verb(self, entry: QueueEntry, verb: str) -> None:
        self.busy = True
        try:
            outcome = await self._apply(entry, verb)
        finally:
            self.busy = False
        if outcome is None:
            return
        self.done[entry.key] = outcome
        if outcome in queue_order.TALLY_WORD and outcome != "skip":
            self.index += 1
        self.paint()

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
                status=self.resolve_status(entry),
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
