"""The review's summary (`S`, and on quitting after verbs): what was resolved,
retracted, restored, reverified and kept in this review, and what is left."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.review_summary import ReviewSummary


def summary_text(summary: ReviewSummary, *, quitting: bool) -> Text:
    text = Text()
    for n, line in enumerate(summary.lines()):
        text.append(("\n" if n else "") + inert(line, limit=400), style="bold" if n == 0 else "")
    if summary.left:
        text.append("\n\nStill new:", style="bold")
        for key, change in summary.left[:12]:
            text.append(f"\n  {inert(key, limit=60)}  «{inert(change, limit=60)}»", style="yellow")
        if len(summary.left) > 12:
            text.append(f"\n  … {len(summary.left) - 12} more (n jumps to the next)", style="dim")
    text.append("\n\n" + ("q quits · Esc goes back to the briefing" if quitting else "Esc or S closes"),
                style="dim italic")
    return text


class ReviewSummaryScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,S", "app.pop_screen", "Close"),
        Binding("q", "leave", "Quit" , show=False),
    ]

    def __init__(self, summary: ReviewSummary, *, quitting: bool) -> None:
        super().__init__()
        self.summary = summary
        self.quitting = quitting

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-summary"):
            yield Static(summary_text(self.summary, quitting=self.quitting))

    def action_leave(self) -> None:
        if self.quitting:
            self.app.exit(0)
        else:
            self.app.pop_screen()
