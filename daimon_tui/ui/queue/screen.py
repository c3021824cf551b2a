"""The Queue view (3): what waits on the person, one item at a time.

Full detail of the current entry, the verbs that fit it on single keys, `n`/`p`
to move, `s` to skip, and a progress line. World-checks of the queue's items
run in the background while the person reads (`world_checks`); a contradicted
item not yet seen moves into the contradicted lane. Past the last entry: a
summary of what was done this sitting, read back from the action log.

The screen composes and draws; `state.QueueState` is the view's one truth, and
the verbs (`verbs`) and the world-check are its controllers.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from daimon_tui.domain import queue_order
from daimon_tui.models import ProjectRef
from daimon_tui.services import action_log
from daimon_tui.services import queue as queue_service
from daimon_tui.services.action_log import ActionLog
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.queue.cards import entry_card, inert_text, key_for, keys_line, lead_keys, summary_text
from daimon_tui.ui.queue.state import QueueState
from daimon_tui.ui.queue.verbs import QueueVerbs
from daimon_tui.ui.queue.world_checks import QueueWorldChecks
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet


class QueueScreen(Screen):
    CSS_PATH = sheet("queue")  # read when first opened, not at the first frame
    VIEW_NAME = "Queue"
    BINDINGS: ClassVar[list[BindingType]] = bindings({"Queue"})

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
        self.state = QueueState()
        self.verbs = QueueVerbs(self.state, project, self.action_log, decided=self.paint, undone=self.load)
        self.world_checks = QueueWorldChecks(self.state, project, checked=self.paint)
        for controller in (self.verbs, self.world_checks):
            controller.attach(self)

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
        self.state.read(queue)
        self.paint()
        if self.world_check and self.project.path:
            self.world_checks.check()

    # ---- painting ----------------------------------------------------------------

    def paint(self) -> None:
        state = self.state
        queue = state.queue
        if queue is None:
            return
        progress = Text(f"{self.VIEW_NAME} · {state.progress()}", style="bold")
        lanes = queue_order.lane_counts(e.kind for e in queue.entries)
        if lanes:
            progress.append(f"\n{lanes}", style="dim")
        for note in queue.notes:
            progress.append("\n")
            progress.append_text(inert_text(note.message, "yellow", 300))
        self.query_one("#queue-progress", Static).update(progress)
        card = self.query_one("#queue-card", Static)
        keys = self.query_one("#queue-keys", Static)
        entry = state.current
        if entry is None:
            card.update(Text("Loading what was done…"))
            keys.update(lead_keys() + Text(" p  previous   ctrl+r  reload"))
            self.show_summary()
            return
        state.seen.add(entry.key)
        done = state.done.get(entry.key)
        card.update(entry_card(entry, state.world_words(entry), done if done and done != "skip" else None))
        keys.update(keys_line(entry))

    @work(exclusive=True, group="queue-summary")
    async def show_summary(self) -> None:
        entries = await action_log.read_entries(self.action_log)
        mine = [e for e in entries if e.project == self.project.slug and e.time >= self.state.sitting_start]
        if self.state.queue is not None and self.state.current is None:
            self.query_one("#queue-card", Static).update(summary_text(mine, self.state.queue, self.state.done))

    # ---- actions ------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        if self.state.queue is None or self.state.busy:
            self.say_busy()
            return
        self.state.move(delta)
        self.paint()

    def say_why_not(self, past_the_end: str) -> None:
        if self.state.busy or self.state.queue is None:
            self.say_busy()
        else:
            self.notify(past_the_end)

    def say_busy(self) -> None:
        self.notify("Wait: the queue is still being read." if self.state.queue is None else
                    "Wait: a verb on this entry is still running.")

    def action_skip(self) -> None:
        entry = self.state.current
        if entry is None or self.state.busy:
            self.say_why_not("Nothing left to skip: p goes back.")
            return
        self.state.done.setdefault(entry.key, "skip")
        self.action_move(1)

    def action_reload(self) -> None:
        self.load()

    def action_verb(self, key: str) -> None:
        entry = self.state.current
        if entry is None or self.state.busy:
            self.say_why_not("No entry here: p goes back.")
            return
        verb = key_for(entry, key)
        if verb is None:
            self.notify(f"{key}: no verb on this key fits a {entry.kind} entry", severity="warning")
            return
        self.verbs.run(entry, verb)

    def action_undo(self) -> None:
        if not self.state.busy:
            self.verbs.undo()
