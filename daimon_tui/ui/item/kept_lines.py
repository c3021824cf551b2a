"""The item view's panes drawn once per width.

Textual draws a Static's Rich content twice, once to measure its height and
again for its lines, and both again whenever the pane is laid out anew at
the same width. The item view's detail and evidence are Rich tables (a third
of its first frame, issue 41), so each pane keeps the lines it drew for the
width it was given and hands them back until its content or width changes.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.protocol import is_renderable
from rich.segment import Segment
from rich.text import Text
from textual.content import Content

# Widths kept per content: the pane's width with and without the scrollbar.
WIDTHS_KEPT = 2


class KeptLines:
    """`renderable`, drawn once for each width it is given (the last `WIDTHS_KEPT`).

    Drawn always with no fixed height: a Static's lines are measured that way,
    and Textual asks for exactly that many lines, so the two drawings agree."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._drawn: dict[tuple[object, ...], list[Segment]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = (options.min_width, options.max_width, options.justify, options.overflow, options.no_wrap,
               options.highlight, options.markup, options.legacy_windows, options.is_terminal, options.encoding)
        segments = self._drawn.get(key)
        if segments is None:
            segments = list(console.render(self.renderable, options.reset_height()))
            if len(self._drawn) >= WIDTHS_KEPT:
                self._drawn.pop(next(iter(self._drawn)))
            self._drawn[key] = segments
        yield from segments

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


class KeepsItsLines:
    """A Static (mixed in before it) whose Rich content is a `KeptLines`; text is
    left as it is (Textual measures plain text cheaply)."""

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        if is_renderable(content) and not isinstance(content, str | Text | Content | KeptLines):
            content = KeptLines(content)
        super().update(content, layout=layout)  # type: ignore[misc]
