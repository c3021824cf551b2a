"""The `/` filter box of a table view (History, Audit, Log): the same box and
keys as the briefing's (type to narrow, Enter keeps, Esc clears), matching
words in any column (`domain.row_words`). It only draws and posts; the
screen's side (the query, held by the view's state; Esc) is its controller,
`ui.table_filter`."""

from __future__ import annotations

from daimon_tui.ui.widgets.filter_box import FilterBox

PLACEHOLDER = "filter: words in any column, -word leaves rows out (enter keeps, esc clears)"


class RowFilter(FilterBox):
    # Closed until `/`: part of the widget, so every screen (and test host) that composes it agrees.
    DEFAULT_CSS = """
    RowFilter {
        height: 3;
        display: none;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, placeholder=PLACEHOLDER)

    def count(self, shown: int, total: int) -> None:
        """How many rows the filter leaves, on the box's edge."""
        self.border_subtitle = f"{shown} of {total}" if self.value.strip() else None
