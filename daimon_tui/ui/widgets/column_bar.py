"""One point of a chart drawn in a table cell, under its own column: a bar
whose height counts from zero on the scale its row's label states (LINES
lines of eighths). A point not known is blank, never a zero bar; a point
above the scale (now, judged on today's clock) is a full bar marked cut, so
it does not squash the history's scale."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

LINES = 3
STEPS = LINES * 8
GLYPHS = " ▁▂▃▄▅▆▇█"
CUT = "↑"  # the top of a bar past the scale
WIDTH = 3


def scale_top(history: Iterable[int | None], now: int | None) -> int:
    """The row's top: the highest session read; now only when no session has a number above zero."""
    known = [v for v in history if v is not None]
    return max(known) if known and max(known) > 0 else (now or 0)


def eighths(value: int, top: int) -> int:
    """Height in eighths of a line, from zero: any number above zero shows, the top fills LINES lines."""
    if value <= 0 or top <= 0:
        return 0
    return min(STEPS, max(1, round(value * STEPS / top)))


def scale_label(top: int) -> Text:
    """The row's scale, right-aligned beside the bars: its top on the top line, 0 on the bottom line."""
    lines = [f"{top} ┤", *(["│"] * (LINES - 2)), "0 ┤"]
    return Text("\n".join(lines), justify="right", style="dim")


class ColumnBar:
    """A bar for a table cell: `value` on the scale 0..`top` (None: not known, blank)."""

    def __init__(self, value: int | None, top: int, *, style: str = "cyan") -> None:
        self.value = value
        self.top = top
        self.eighths = 0 if value is None else eighths(value, top)
        self.cut = value is not None and top > 0 and value > top
        self.style = Style.parse(style)

    def lines(self) -> list[str]:
        """One glyph per line, top line first."""
        out = [GLYPHS[max(0, min(8, self.eighths - 8 * level))] for level in reversed(range(LINES))]
        if self.cut:
            out[0] = CUT
        return out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(WIDTH, WIDTH)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width)
        bar = min(WIDTH, width)
        for n, glyph in enumerate(self.lines()):
            if n:
                yield Segment.line()
            yield Segment(" " * (width - bar))  # right-aligned, under the number
            yield Segment(glyph * bar, self.style)
