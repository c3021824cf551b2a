"""The Log view's single truth: the log's lines and chain report as last read,
the `/` filter's query, the action each table row stands for (keyed by its
line number), and the shortest unique form of each item id the rows name.
The screen draws from it and finds the action under the cursor in it."""

from __future__ import annotations

from dataclasses import dataclass, field

from daimon_tui.domain.action_entries import ActionEntry, ChainReport, LogLine
from daimon_tui.domain.row_words import RowQuery
from daimon_tui.domain.short_ids import shortest_unique


# mutable because it is the view's one state: each read of the log and each filter move it
@dataclass(slots=True)
class LogState:
    last_read: tuple[list[LogLine], ChainReport] | None = None
    query: RowQuery = field(default_factory=RowQuery)
    # keyed by line number: an action's intent and outcome lines share its id
    entry_of: dict[str, ActionEntry] = field(default_factory=dict)
    # item id -> its shortest unique form, as git shows hashes
    short: dict[str, str] = field(default_factory=dict)

    def read(self, lines: list[LogLine], report: ChainReport) -> None:
        """The log as read (or shown again under a new filter): its rows are added anew."""
        self.last_read = (lines, report)
        self.entry_of.clear()
        self.short = shortest_unique(i for line in lines if line.entry is not None for i in line.entry.item_ids)

    def shown(self, number: int, entry: ActionEntry) -> None:
        """The row of line `number` is in the table."""
        self.entry_of[str(number)] = entry

    def entry(self, row_key: str | None) -> ActionEntry | None:
        return self.entry_of.get(row_key or "")

    def items(self, entry: ActionEntry) -> str:
        """The row's items cell: their short ids, or how many once there are more than two."""
        if len(entry.item_ids) > 2:
            return f"{len(entry.item_ids)} items"
        return ", ".join(self.short.get(i, i) for i in entry.item_ids)
