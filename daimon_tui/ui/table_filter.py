"""The `/` filter of a table view (History, Audit, Log) as a controller
(`ui.controller`): it writes the query into the view's state (its one
holder), opens and clears the screen's `RowFilter` box, and asks the screen
to `refilter` when the query changes; Esc clears a filter before it goes
back. `FilteredTableScreen` is the screen side: its `action_filter`,
`action_clear_or_back` and two `FilterBox` handlers hand the keys to the
screen's `table_filter`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from textual import on
from textual.screen import Screen
from textual.widgets import DataTable

from daimon_tui.domain.row_words import RowQuery, read
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.widgets.filter_box import FilterBox
from daimon_tui.ui.widgets.row_filter import RowFilter


class FilteredState(Protocol):
    """A table view's state: the rows are drawn under its `query` (every row, until `/`)."""

    query: RowQuery


class TableFilter(Controller):
    def __init__(self, state: FilteredState, refilter: Callable[[], None],
                 table: Callable[[], DataTable] | None = None) -> None:
        super().__init__()
        self.state = state  # holds the query: this controller keeps no copy
        self.refilter = refilter  # the screen shows its rows again under the state's query
        self.table = table  # the table the focus goes back to (default: the screen's first)

    @property
    def box(self) -> RowFilter:
        return self.query_one(RowFilter)

    def open(self) -> None:
        self.box.open()

    def applied(self, text: str) -> None:
        self.state.query = read(text)
        self.refilter()

    def left(self) -> None:
        (self.table() if self.table is not None else self.query_one(DataTable)).focus()

    def clear_or_back(self) -> None:
        """Esc: a filter first (as in the briefing), then back."""
        box = self.box
        if box.has_focus or box.value:
            box.clear_and_close()
        else:
            navigator(self.app).back(self.host)


class FilteredTableScreen(Screen[None]):
    """A table view with the `/` filter (History, Audit, Log): its keys and
    the box's messages go to the `TableFilter` it builds in its constructor."""

    table_filter: TableFilter

    def action_filter(self) -> None:
        self.table_filter.open()

    def action_clear_or_back(self) -> None:
        self.table_filter.clear_or_back()

    @on(FilterBox.Applied)
    def filter_applied(self, event: FilterBox.Applied) -> None:
        self.table_filter.applied(event.text)

    @on(FilterBox.Left)
    def filter_left(self) -> None:
        self.table_filter.left()
