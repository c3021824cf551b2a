"""The History view's single truth: the retained sessions as read (newest
first), daimon's notes on them, the `/` filter they are shown under, the
session under the cursor and the one `space` marked for a diff. The screen
draws from it (a reload or a filter puts the cursor back on its session).
The Diff view's: daimon's change rows between two sessions and its notes."""

from __future__ import annotations

from dataclasses import dataclass, field

from daimon_tui.domain.row_words import RowQuery
from daimon_tui.models import Diagnostic
from daimon_tui.models.history import DiffReport, DiffRow, SessionListing, SessionSummary


# mutable because it is the view's one state: each read, the filter and `space` move it
@dataclass(slots=True)
class HistoryState:
    rows: tuple[SessionSummary, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    query: RowQuery = field(default_factory=RowQuery)
    # the session under the cursor, by id (None: no row shown); the table draws it
    cursor: str | None = None
    marked: str | None = None

    def listed(self, listing: SessionListing) -> None:
        self.rows, self.diagnostics = listing.rows, listing.diagnostics

    def shown(self) -> list[SessionSummary]:
        """The sessions the filter leaves (an edited one also matches "edited")."""
        return [row for row in self.rows
                if self.query.matches((row.session_id, row.created, row.topic,
                                       "edited" if row.receipt == "mismatch" else ""))]

    def notes(self, shown: int) -> tuple[Diagnostic, ...]:
        """The lines under the table: why it is empty, if it is, then daimon's notes."""
        if not self.rows:
            return (Diagnostic(level="info", message="no retained session for this project"), *self.diagnostics)
        if not shown:
            return (Diagnostic(level="info", message="no session matches the filter (esc clears it)"),
                    *self.diagnostics)
        return self.diagnostics

    def toggle_mark(self, sid: str) -> str | None:
        """`space` on `sid`: marks it, or unmarks it if it was; gives the mark it replaced."""
        previous, self.marked = self.marked, (None if self.marked == sid else sid)
        return previous

    def older_first(self, one: str, other: str) -> tuple[str, str]:
        """Two listed sessions, older first: rows are newest first, so the later index is older."""
        order = [r.session_id for r in self.rows]
        older, newer = sorted((one, other), key=order.index, reverse=True)
        return older, newer

    def topic(self, sid: str | None) -> str | None:
        return next((r.topic for r in self.rows if r.session_id == sid), None)

    def edited(self, sid: str) -> str | None:
        """For a session file that fails its receipt: where the screen reads it from."""
        row = next((r for r in self.rows if r.session_id == sid and r.receipt == "mismatch"), None)
        if row is None:
            return None
        return row.pointer or "the edited file"


# mutable because it is the view's one state: each read of the change rows replaces it
@dataclass(slots=True)
class DiffState:
    rows: tuple[DiffRow, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def read(self, report: DiffReport) -> None:
        self.rows, self.diagnostics = report.rows, report.diagnostics

    @property
    def item_ids(self) -> list[str | None]:
        return [row.item_id for row in self.rows]

    def _nth(self, n: int) -> DiffRow | None:
        return self.rows[n] if 0 <= n < len(self.rows) else None

    def text(self, n: int) -> str | None:
        row = self._nth(n)
        return row.text if row is not None else None

    def detail(self, n: int) -> str | None:
        """Row `n`'s detail, and where in the checkpoint the change is."""
        row = self._nth(n)
        if row is None:
            return None
        detail = row.detail or ""
        return f"{detail} in {row.where}".strip() if row.where else detail

    def notes(self) -> tuple[Diagnostic, ...]:
        if not self.rows and not self.diagnostics:
            return (Diagnostic(level="info", message="no change between these sessions"),)
        return self.diagnostics
