"""The review's summary (`S`, and on quitting after verbs): what was resolved,
retracted, restored, reverified, undone and kept in this review, and what is left."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.review_summary import WORDS, ReviewSummary
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.navigation import GoesBack, navigator
from daimon_tui.ui.style_sheets import sheet

# Rows listed per word before "… N more".
LISTED = 8
# A row's text is shown whole up to this (an item can run to pages).
TEXT_CUT = 1000


def summary_text(summary: ReviewSummary, *, quitting: bool, name: str | None = None,
                 text_of: Callable[[str], str | None] = lambda _key: None) -> Text:
    """The summary as the person reads it: the project by its name, and each
    row by its id and the item's text where the briefing still holds it."""

    def row(key: str) -> str:
        # Whole: an id is what the person pastes or searches, and the summary
        # scrolls and wraps; only a text past a page is cut.
        said = text_of(key)
        return f"{inert(key, limit=None)}  {inert(said, limit=TEXT_CUT)}" if said else inert(key, limit=None)

    text = Text(f"Review of {inert(name or summary.project, limit=80)}"
                + (f" since {inert(summary.since, limit=40)}" if summary.since else ""), style="bold")
    for word in WORDS:
        ids = getattr(summary, word)
        text.append(f"\n  {word:<11} {len(ids):>4}")
        for key in ids[:LISTED]:
            if word == "undone":  # one act, undone: the id, what was undone, the text
                key, done = key
                text.append(f"\n      {row(key)}  ({done}, then undone)", style="dim")
                continue
            text.append(f"\n      {row(key)}", style="dim")
        if len(ids) > LISTED:
            text.append(f"\n      … {len(ids) - LISTED} more", style="dim")
    text.append(f"\n  left        {len(summary.left):>4}  ({summary.reviewed} of {summary.total} reviewed)")
    if summary.left:
        text.append("\n\nStill new:", style="bold")
        for key, change in summary.left[:12]:
            text.append(f"\n  {row(key)}  «{inert(change, limit=60)}»", style="yellow")
        if len(summary.left) > 12:
            text.append(f"\n  … {len(summary.left) - 12} more (n jumps to the next)", style="dim")
    text.append("\n\n" + ("q quits · Esc goes back to the briefing" if quitting else "Esc or S closes"),
                style="dim italic")
    return text


class ReviewSummaryScreen(GoesBack, ModalScreen[None]):
    CSS_PATH = sheet("overlays")  # read when first opened, not at the first frame
    BINDINGS: ClassVar[list[BindingType]] = bindings({"Summary"})

    def __init__(self, summary: ReviewSummary, *, quitting: bool, name: str | None = None,
                 text_of: Callable[[str], str | None] = lambda _key: None) -> None:
        super().__init__()
        self.summary = summary
        self.quitting = quitting
        self.name_shown = name
        self.text_of = text_of

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-summary"):
            yield Static(summary_text(self.summary, quitting=self.quitting, name=self.name_shown,
                                      text_of=self.text_of))

    def action_leave(self) -> None:
        if self.quitting:
            self.app.exit(0)
        else:
            navigator(self.app).back(self)
