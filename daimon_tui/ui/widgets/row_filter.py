"""The `/` filter of a table view (History, Audit, Log): the same box and keys
as the briefing's (type to narrow, Enter keeps, Esc clears), matching words in
any column (`domain.row_words`).

`RowFilterView` is the screen's side (its keys: `ui.actions.row_filter_bindings`):
it keeps the query, and asks the screen to `refilter()` when it changes; Esc
clears a filter before it goes back."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.domain.row_words import RowQuery, read
from daimon_tui.ui.navigation import navigator
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


class RowFilterView:
    """A Screen mixin: the screen composes a `RowFilter` and says how to `refilter`."""

    row_query: RowQuery = RowQuery()

    def refilter(self) -> None:  # pragma: no cover - each screen says how
        raise NotImplementedError

    def filter_target(self) -> DataTable:
        return self.query_one(DataTable)  # type: ignore[attr-defined]

    @property
    def row_filter(self) -> RowFilter:
        return self.query_one(RowFilter)  # type: ignore[attr-defined]

    def action_filter(self) -> None:
        self.row_filter.open()

    def on_filter_box_applied(self, event: FilterBox.Applied) -> None:
        self.row_query = read(event.text)
        self.refilter()

    def on_filter_box_left(self, _event: FilterBox.Left) -> None:
        self.filter_target().focus()

    def action_clear_or_back(self) -> None:
        """Esc: a filter first (as in the briefing), then back."""
        box = self.row_filter
        if box.has_focus or box.value:
            box.clear_and_close()
        else:
            navigator(self.app).back(self)  # type: ignore[attr-defined]
