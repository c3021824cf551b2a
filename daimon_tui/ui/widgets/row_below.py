"""Under a table: every cell of the cursor row that the screen does not show
whole, whole, at full width ("label: text", one line each), so nothing is
read by scrolling sideways. A cell is cut when its column runs past either
edge of the table's view, or when the cell holds less than its whole text (a
long text shortened with a marker). While every cell is whole on screen the
line stays empty (nothing said twice).

The table is followed by itself: its cursor, its horizontal scroll and its
content (a new fill) make the line follow; a screen calls `follow()` on resize."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.text import Text
from textual.widgets import DataTable, Static

from daimon_tui.domain.inert import inert
from daimon_tui.ui.navigation import when_shown

# The whole text of a long column for a row index of the table (None: nothing more to say).
Whole = Callable[[int], str | None]
# Cells that say there is nothing: not repeated under the table.
_NOTHING = frozenset({"", "-", "—"})


def column_off_screen(table: DataTable, label: str) -> bool:
    """Whether the column named `label` is not wholly inside the table's view."""
    return any(str(column.label) == label for column in _off_screen(table))


def _off_screen(table: DataTable) -> list:
    view_left, view_right = table.scroll_x, table.scroll_x + table.scrollable_content_region.width
    left = 0
    out = []
    for column in table.columns.values():
        width = column.get_render_width(table)
        if left < view_left or left + width > view_right:
            out.append(column)
        left += width
    return out


def _plain(cell: object) -> str | None:
    """A cell's text; None for a cell that is not text (a chart): it is not said in words."""
    if isinstance(cell, Text):
        return cell.plain
    return cell if isinstance(cell, str) else None


def cut_cells(table: DataTable, wholes: Mapping[str, Whole]) -> list[tuple[str, str]]:
    """(label, whole text) for each cell of the cursor row the table does not show whole, in column order."""
    if not table.row_count or table.cursor_row < 0 or not table.size.width:
        return []
    row = table.cursor_row
    cells = table.get_row_at(row)
    off = {id(column) for column in _off_screen(table)}
    out = []
    for column, cell in zip(table.columns.values(), cells, strict=False):
        label, shown = str(column.label), _plain(cell)
        if shown is None:
            continue
        whole = (wholes[label](row) if label in wholes else shown) or ""
        if not label or whole.strip() in _NOTHING:
            continue
        if id(column) in off or (label in wholes and inert(whole, limit=None) != shown):
            out.append((label, whole))
    return out


class RowBelow(Static):
    """Shows the cursor row's cut cells under the table `table_id`; `wholes`
    gives the whole text of the columns a screen shortens (other columns are
    said as they are, when off-screen)."""

    DEFAULT_CSS = """
    RowBelow { height: auto; max-height: 8; padding: 0 1; }
    RowBelow.-empty { display: none; }
    """

    def __init__(self, table_id: str, wholes: Mapping[str, Whole] | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self.table_id = table_id
        self.wholes = dict(wholes or {})

    def on_mount(self) -> None:
        table = self._table()
        if table is not None:
            for attribute in ("cursor_coordinate", "scroll_x", "virtual_size"):
                self.watch(table, attribute, self.follow_later, init=False)
        self.follow_later()

    def follow_later(self) -> None:
        """Follow once the columns have their widths: after a fill that kept the
        cursor and the size, or a resize (which the table's watched values miss).
        By then the screen may have closed: then it does nothing."""
        self.call_after_refresh(when_shown(self, self.follow))

    def _table(self) -> DataTable | None:
        if not self.is_attached:  # its screen has closed
            return None
        found = self.screen.query(f"#{self.table_id}")
        return found.first() if found and isinstance(found.first(), DataTable) else None

    def follow(self, table: DataTable | None = None) -> None:
        if not self.is_attached:
            return
        table = table or self._table()
        if table is not None and table.display and table.row_count and not table.size.width:
            # shown a moment ago (a first fill) and not laid out yet: its width, which no
            # watched value reports, comes with the next layout
            self.follow_later()
            return
        cut = cut_cells(table, self.wholes) if table is not None and table.display else []
        self.set_class(not cut, "-empty")
        lines = [Text.assemble((f"{label}: ", "bold"), inert(text, limit=2000)) for label, text in cut]
        self.update(Text("\n").join(lines))
