"""The briefing's list box: its rows, the marks on them, and where the cursor is
(the box's subtitle). The screen decides which rows there are and which row
the cursor belongs on; this box puts it there."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from daimon_tui.models import Item
from daimon_tui.ui.widgets.briefing_rows import Row, row_key
from daimon_tui.ui.widgets.row_list import Entry, RowList


class ItemList(Vertical):
    """The border is the box's, not the list's: a page turn repaints the list's lines only."""

    def __init__(self, *, id: str | None = None, marked: set[str] | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Row] = []
        # item ids (withheld rows too, so restores can be batched); the view's state owns the set
        self.marked: set[str] = marked if marked is not None else set()
        # Made here, not in compose: a key pressed before the box's children mount
        # (a fast typist at start-up) asks the cursor and must get "none", not a crash.
        self._row_list = RowList(id="items")

    def compose(self) -> ComposeResult:
        yield self._row_list

    @property
    def row_list(self) -> RowList:
        return self._row_list

    def current_row(self) -> Row | None:
        row_list = self.row_list
        index = row_list.highlighted
        if index is None or index >= row_list.entry_count:
            return None
        key = row_list.entries[index].key
        return self.rows[key] if key is not None and key < len(self.rows) else None

    def set_rows(self, entries: list[Entry], rows: list[Row], keys: tuple[tuple | None, ...],
                 kept_at: int) -> int | None:
        """Show the rows, the cursor on the first of `keys` (`row_key`s, in order of
        preference) that is listed; the row's index, or None."""
        self.rows = rows
        keyed = {row_key(r): n for n, r in reversed(list(enumerate(rows)))}
        found = next((keyed[k] for k in keys if k is not None and k in keyed), None)
        keep = keys[-1] if keys else None
        # A teammate's row that went (a retract, a sync) leaves the cursor where it was in the section.
        fallback = min(kept_at, len(rows) - 1) if keep and keep[0] == "team" else 0
        target = found if found is not None else (fallback if rows else None)
        highlight = next((n for n, e in enumerate(entries) if e.key == target), None) if target is not None else None
        self.row_list.set_entries(entries, highlight)
        return target

    def put_cursor_on(self, row_index: int) -> None:
        row_list = self.row_list
        row_list.highlighted = next(n for n, e in enumerate(row_list.entries) if e.key == row_index)
        row_list.focus()

    def cursor(self, delta: int) -> None:
        if delta > 0:
            self.row_list.action_cursor_down()
        else:
            self.row_list.action_cursor_up()

    def toggle_mark(self, item_id: str, prompt_for: Callable[[bool], Text]) -> None:
        """Mark or unmark the row under the cursor; its prompt is repainted by `prompt_for(marked)`."""
        self.marked.symmetric_difference_update({item_id})
        row_list = self.row_list
        if row_list.highlighted is not None:
            row_list.replace_prompt(row_list.highlighted, prompt_for(item_id in self.marked))
        self.show_position()

    def show_position(self) -> None:
        """Where the cursor is, in the box's border (at rest: it repaints the border)."""
        row_list = self.row_list
        index = row_list.highlighted
        key = row_list.entries[index].key if index is not None and index < row_list.entry_count else None
        number = "-" if key is None else f"{key + 1:,}"
        position = f"{number} / {len(self.rows):,}" if self.rows else ""
        marked = f"{len(self.marked):,} marked" if self.marked else ""
        self.border_subtitle = " · ".join(p for p in (marked, position) if p)

    def repaint_rows(self, which: Callable[[Row], bool], prompt: Callable[[Item], Text]) -> bool:
        """Repaint the item rows `which` picks (a review marker went); False when a
        picked row is not an item's (its section is rebuilt instead)."""
        row_list = self.row_list
        for index, entry in enumerate(row_list.entries):
            if entry.key is None or entry.key >= len(self.rows):
                continue
            row = self.rows[entry.key]
            if not which(row):
                continue
            if row.item is None:
                return False
            row_list.replace_prompt(index, prompt(row.item))
        return True

    def jump(self, direction: int, wanted: Callable[[Row], bool]) -> str | None:
        """The cursor to the next (1) or previous (-1) row `wanted`, round the list; what to say, if anything."""
        row_list = self.row_list
        entries, rows = row_list.entries, self.rows
        count = len(entries)
        start = row_list.highlighted if row_list.highlighted is not None else (-1 if direction > 0 else count)
        for step in range(1, count + 1):
            index = (start + direction * step) % count if count else 0
            key = entries[index].key
            if key is not None and key < len(rows) and wanted(rows[key]):
                row_list.highlighted = index
                return "Wrapped around the list." if (index - start) * direction < 0 else None
        return "Nothing left to review in this list."

