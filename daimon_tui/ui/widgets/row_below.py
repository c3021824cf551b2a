"""Under a table too wide for the screen: the cursor row's long column (a topic,
an item's text) whole, at full width, so it is read without scrolling sideways.
While the column is on screen the line stays empty (nothing said twice)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import DataTable, Static

from daimon_tui.domain.inert import inert


def column_off_screen(table: DataTable, label: str) -> bool:
    """Whether the column named `label` ends past the table's visible width."""
    left = 0
    for column in table.columns.values():
        width = column.get_render_width(table)
        if str(column.label) == label:
            return left + width > table.scrollable_content_region.width + table.scroll_x
        left += width
    return False


class RowBelow(Static):
    """Shows `text_of(cursor row)` under `table` while its `label` column is off-screen."""

    DEFAULT_CSS = """
    RowBelow { height: auto; max-height: 4; padding: 0 1; }
    RowBelow.-empty { display: none; }
    """

    def __init__(self, label: str, text_of: Callable[[int], str | None], *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self.label = label
        self.text_of = text_of

    def follow(self, table: DataTable) -> None:
        text = self.text_of(table.cursor_row) if table.row_count and column_off_screen(table, self.label) else None
        self.set_class(not text, "-empty")
        self.update(Text.assemble((f"{self.label}: ", "bold"), inert(text or "", limit=2000)))
