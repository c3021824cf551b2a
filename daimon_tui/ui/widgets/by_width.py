"""A table that reads at any width: side by side when there is room, and below
a width each row's long column (the meaning) under the row at full width, so
no word is cut to a few characters in a narrow pane."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult


class ByWidth:
    """`wide` when the space given is at least `min_width` columns, else `narrow`."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, min_width: int) -> None:
        self.wide = wide
        self.narrow = narrow
        self.min_width = min_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if options.max_width >= self.min_width else self.narrow
