"""The Projects view's single truth: the project open now, the projects listed
(first from the last read, then daimon's own listing), its notes, whether the
counts are still provisional, the filter, and each project's trend."""

from __future__ import annotations

from dataclasses import dataclass, field

from daimon_tui.domain.inert import inert
from daimon_tui.domain.row_words import RowQuery
from daimon_tui.models import Diagnostic, ProjectRef, ProjectSummary


# mutable because it is the view's one state: each read and the filter move it
@dataclass(slots=True)
class ProjectsState:
    current: ProjectRef | None = None
    projects: tuple[ProjectSummary, ...] = ()
    notes: tuple[Diagnostic, ...] = ()
    # True while the counts are the last read's, before daimon's listing confirms them
    provisional: bool = True
    query: RowQuery = field(default_factory=RowQuery)
    # slug -> items per retained session, oldest first (absent: not read yet; empty: none)
    trends: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def listed(self, projects: tuple[ProjectSummary, ...], notes: tuple[Diagnostic, ...], *,
               provisional: bool) -> None:
        self.projects, self.notes, self.provisional = projects, notes, provisional

    def shown(self) -> list[ProjectSummary]:
        """The projects the filter leaves."""
        return [row for row in self.projects
                if self.query.matches((row.name, row.slug, row.session_id, row.created, row.topic))]

    def is_current(self, slug: str) -> bool:
        return self.current is not None and slug == self.current.slug

    def knows(self, slug: str | None) -> bool:
        return any(p.slug == slug for p in self.projects)

    def topic(self, slug: str | None) -> str | None:
        return next((p.topic for p in self.projects if p.slug == slug), None)

    def status(self, shown: int) -> str:
        """The line under the table: what the listing is not yet, and daimon's notes."""
        message = "\n".join(f"⚠ {inert(n.message)}" for n in self.notes)
        if not self.projects:
            message = "daimon has no checkpoints on this machine yet." + ("\n" + message if message else "")
        elif not shown:
            message = "no project matches the filter (esc clears it)" + ("\n" + message if message else "")
        if self.provisional:
            message = "counts from the last read, confirming with daimon…" + ("\n" + message if message else "")
        return message
