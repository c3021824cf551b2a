"""A table that reads at any width: side by side when there is room, and below
a width each row's long column (the meaning) under the row at full width, so
no word is cut to a few characters in a narrow pane."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.text import Text

# The narrowest long column worth showing beside its row (else it goes under it).
LONG_MIN = 36
# Between two short columns.
GAP = 2


class ByWidth:
    """`wide` when the space given is at least `min_width` columns, else `narrow`."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, min_width: int) -> None:
        self.wide = wide
        self.narrow = narrow
        self.min_width = min_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if options.max_width >= self.min_width else self.narrow


def short_width(header: Sequence[str], rows: Sequence[tuple[Sequence[Text], Text]]) -> int:
    """How wide the short columns are side by side (with their gaps)."""
    widths = _widths(header, rows)
    return sum(widths) + GAP * len(widths)


def _widths(header: Sequence[str], rows: Sequence[tuple[Sequence[Text], Text]]) -> list[int]:
    widths = [len(h) for h in header]
    for cells, _long in rows:
        for n, cell in enumerate(cells):
            if n == len(widths):
                widths.append(0)
            widths[n] = max(widths[n], cell.cell_len)
    return widths


def stacked(header: Sequence[str], rows: Sequence[tuple[Sequence[Text], Text]]) -> RenderableType:
    """The narrow form: the short cells on one line (a column each), the long
    text under them, indented, at the full width."""
    widths = _widths(header, rows)
    lines: list[RenderableType] = []
    if header:
        head = Text("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)).rstrip(), style="bold")
        lines.append(head)
    for cells, long in rows:
        line = Text()
        for n, cell in enumerate(cells):
            if n:
                line.append(" " * GAP)
            line.append_text(cell)
            if n < len(cells) - 1:
                line.append(" " * (widths[n] - cell.cell_len))
        lines.append(line)
        if long.plain:
            lines.append(Padding(long, (0, 0, 0, 2)))
    return Group(*lines)


def table_by_width(wide: RenderableType, header: Sequence[str],
                   rows: Sequence[tuple[Sequence[Text], Text]]) -> ByWidth:
    """`wide` while its long column has room beside the short ones (LONG_MIN
    columns, or its longest text when shorter), else `stacked`."""
    longest = max((long.cell_len for _cells, long in rows), default=0)
    return ByWidth(wide, stacked(header, rows), min_width=short_width(header, rows) + min(LONG_MIN, longest))
