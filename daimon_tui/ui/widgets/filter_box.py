"""The `/` filter (the briefing's, and the tables' of History, Audit and Log):
a debounced box that says what it does not understand."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from daimon_tui.domain.inert import inert
from daimon_tui.ui.focus import focus_now, type_if_typing
from daimon_tui.ui.navigation import when_shown
from daimon_tui.ui.widgets.safe_input import SafeInput

FILTER_MAX = 500
FILTER_DEBOUNCE_S = 0.15
FILTER_PLACEHOLDER = "filter: words, trust:verbatim, section:open, briefed:no, carried, stale, -word"


class FilterBox(SafeInput):
    """Typing applies the filter once the keys pause (a paste's replayed tail
    rebuilds once); Enter applies it at once and hands the keys back to the list.
    `/` on the empty box (the key that opened it, pressed again) types nothing:
    past that it types, since the rows hold paths (`src/app.py`)."""

    # While the box has the keys, the letters type: the footer says what still acts.
    # Priority, as `/` that opened it: the keys typed after Enter or Esc go back to the list at once.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "keep filter", priority=True),
        Binding("escape", "clear_and_close", "clear filter", priority=True),
    ]

    class Applied(Message):
        """The filter the list should show now."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Left(Message):
        """The box gave up the keys (Enter, Esc): the list takes them back."""

    def __init__(self, *, id: str | None = None, placeholder: str = FILTER_PLACEHOLDER) -> None:
        super().__init__(placeholder=placeholder, id=id, max_length=FILTER_MAX)
        self._pending = ""
        self._timer: Timer | None = None
        self._came_from: Widget | None = None  # what had the keys before `/`: they go back there

    def open(self) -> None:
        """`/` (a priority key): the box takes the keys already typed behind it."""
        type_if_typing(self)
        if self.screen.focused is not self:
            self._came_from = self.screen.focused
        self.display = True
        focus_now(self)

    def _give_back(self) -> None:
        """The keys go back at once to what had them (the screen's `Left` handler says so again)."""
        came_from = self._came_from
        if came_from is not None and came_from.is_attached and came_from.focusable:
            focus_now(came_from)

    async def action_submit(self) -> None:
        self._give_back()
        await super().action_submit()

    def _on_key(self, event: events.Key) -> None:
        # Textual then calls SafeInput's and Input's own `_on_key` (the MRO), unless prevented here
        if event.key == "slash" and not self.value:
            event.stop()
            event.prevent_default()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._pending = event.value
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(FILTER_DEBOUNCE_S, when_shown(self, self.apply_now))

    def apply_now(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.post_message(self.Applied(self._pending))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.apply_now()
        # An empty filter leaves no empty box behind.
        if not event.value.strip():
            self.display = False
        self.post_message(self.Left())

    def action_clear_and_close(self) -> None:
        self.clear_and_close()

    def clear_and_close(self) -> None:
        """Esc: no filter, no box."""
        self.value = ""
        self._pending = ""
        self.apply_now()
        self.display = False
        self._give_back()
        self.post_message(self.Left())

    def show_problems(self, problems: tuple[str, ...]) -> None:
        said = inert("; ".join(problems), limit=200)
        self.border_title = Text(f"⚠ {said}", style="bold yellow") if problems else None
        self.set_class(bool(problems), "problem")
