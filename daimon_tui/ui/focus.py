"""A key that sends the keys into a box (`/`) is bound with priority: it runs
as it arrives, before the keys typed after it are handed on, so `/bucket`
typed in one burst lands in the box. For that the focus must move at once
(Textual's `Widget.focus` waits a turn of the event loop), and the key must
type as any other letter while a box already has the keys."""

from __future__ import annotations

from textual.actions import SkipAction
from textual.widget import Widget
from textual.widgets import Input


def focus_now(widget: Widget) -> None:
    widget.screen.set_focus(widget)


def type_if_typing(widget: Widget) -> None:
    """Leave a priority key to the box that has the keys (it types there)."""
    if isinstance(widget.screen.focused, Input):
        raise SkipAction()
