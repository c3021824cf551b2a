"""What the briefing view's parts post upward to its screen. A part says what
happened; the screen (which owns the view's state) decides what changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from daimon_tui.models import Briefing
    from daimon_tui.ui.widgets.briefing_rows import Row


class LiveApplied(Message):
    """The live watch applied appended events to `base`, the briefing it saw
    shown: show the result (provisional), unless the screen showed another
    since (a confirmation that read those events, taken first)."""

    def __init__(self, briefing: Briefing, base: Briefing) -> None:
        super().__init__()
        self.briefing = briefing
        self.base = base


class ReloadWanted(Message):
    """daimon's store changed: read it again (`repaint`: provisionally first), after `delay`."""

    def __init__(self, *, repaint: bool, delay: float) -> None:
        super().__init__()
        self.repaint = repaint
        self.delay = delay


class PaneRested(Message):
    """The detail pane shows `row` (None: no row): the cursor rested on it."""

    def __init__(self, row: Row | None) -> None:
        super().__init__()
        self.row = row
