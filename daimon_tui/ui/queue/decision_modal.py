"""The preview of one queue verdict: what is written where, then y/n."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from daimon_tui.models.queue import QueueEntry
from daimon_tui.services import queue as queue_service
from daimon_tui.ui.queue.cards import VERB_LABELS, inert_text
from daimon_tui.ui.screens.verb_modals import ConfirmModal


class DecisionModal(ConfirmModal):
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
            body.append_text(inert_text(line, "", 300))
            body.append("\n")
        if len(lines) > 1:
            body.append("\nSide effects\n", style="bold")
        for line in lines[1:]:
            body.append("  • ")
            body.append_text(inert_text(line, "", 300))
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
