"""`P`: every project daimon has a checkpoint for. Also the screen shown when
the current project has none."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.renderables.sparkline import Sparkline
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import ProjectRef, ProjectSummary
from daimon_tui.store.read import project_index, reader
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.row_below import RowBelow

# Columns the trend sparkline takes in the project list.
TREND_WIDTH = 12


class ProjectsScreen(ModalScreen[ProjectRef | None]):
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("escape,q", "dismiss(None)", "Back"),
        Binding("j", "cursor(1)", show=False),
        Binding("k", "cursor(-1)", show=False),
    ]

    def __init__(self, current: ProjectRef | None, *, reason: str = "") -> None:
        super().__init__()
        self.current = current
        self.reason = reason
        self.projects: tuple[ProjectSummary, ...] = ()
        self.trends: dict[str, tuple[int, ...]] = {}

    def compose(self) -> ComposeResult:
        yield Static(Text(self.reason or "Projects daimon remembers (enter opens one)", style="bold"),
                     id="projects-title")
        yield DataTable(id="project-table", cursor_type="row", zebra_stripes=True)
        yield RowBelow("topic", self._topic, id="projects-row")
        yield Static(id="projects-notes")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "project", "latest session", "written", "items")
        self.trend_column = table.add_column("items per session", width=TREND_WIDTH + 5)
        table.add_column("topic")
        self.load()

    def _topic(self, row: int) -> str | None:
        return self.projects[row].topic if 0 <= row < len(self.projects) else None

    @on(DataTable.RowHighlighted)
    def _follow(self) -> None:
        self.query_one(RowBelow).follow(self.query_one(DataTable))

    def on_resize(self) -> None:
        self.call_after_refresh(self._follow)

    @work(exclusive=True, group="projects")
    async def load(self) -> None:
        # First the envelopes and cached counts (no ledger fold, fast), then
        # daimon's own listing, which confirms counts and topics in place.
        try:
            quick, quick_notes = await asyncio.to_thread(project_index.quick_projects)
        except Exception:  # the full listing still answers
            quick, quick_notes = (), ()
        if quick:
            self.fill(quick, quick_notes, provisional=True)
        projects, notes = await asyncio.to_thread(reader.list_projects)
        projects = await asyncio.to_thread(project_index.briefed_counts, projects)
        self.fill(projects, notes, provisional=False)
        self.read_trends(projects)

    @work(exclusive=True, group="projects-trends")
    async def read_trends(self, projects: tuple[ProjectSummary, ...]) -> None:
        """Items per retained session, oldest first, per project (daimon's session
        listing), each drawn as it arrives."""
        from daimon_tui.store.read.history import sessions

        table = self.query_one(DataTable)
        for row in projects:
            if not row.readable:
                continue
            try:
                project = await asyncio.to_thread(reader.resolve_project, None, row.slug)
                listing = await asyncio.to_thread(sessions, project)
            except Exception:  # a project that cannot be listed keeps its dash
                continue
            values = tuple(sum(r.counts.get(k, 0) for k in ("verbatim", "inferred", "untagged"))
                           for r in reversed(listing.rows))
            self.trends[row.slug] = values
            if self.is_attached and row.slug in table.rows:
                table.update_cell(row.slug, self.trend_column, self.trend_cell(row.slug))

    def fill(self, projects: tuple[ProjectSummary, ...], notes: tuple, *, provisional: bool) -> None:
        self.projects = projects
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        # each project's latest session, as git shows hashes (the full id: Enter opens it)
        short = shortest_unique(row.session_id for row in projects if row.session_id)
        for row in projects:
            here = "▶" if self.current and row.slug == self.current.slug else ""
            table.add_row(
                here,
                Text(inert(row.name, limit=40)),
                Text(inert(short.get(row.session_id or "", row.session_id) or "—", limit=40)),
                Text(inert(row.created or "—", limit=20)),
                self.count_cell(row, provisional),
                self.trend_cell(row.slug),
                Text(inert(row.topic or "", limit=60)),
                key=row.slug,
            )
        message = "\n".join(f"⚠ {inert(n.message)}" for n in notes)
        if not projects:
            message = "daimon has no checkpoints on this machine yet." + ("\n" + message if message else "")
        if provisional:
            message = "counts from the last read, confirming with daimon…" + ("\n" + message if message else "")
        self.query_one("#projects-notes", Static).update(Text(message, style="yellow"))
        if keep:
            table.move_cursor(row=keep)
        table.focus()
        self.call_after_refresh(self._follow)  # once the columns have their widths

    def trend_cell(self, slug: str) -> RenderableType:
        """A sparkline of items per retained session (Textual's own renderable)."""
        values = self.trends.get(slug)
        if not values:
            return Text("…" if values is None else "—", style="dim")
        return Sparkline(values, width=min(TREND_WIDTH, max(len(values), 1) * 3))

    @staticmethod
    def count_cell(row: ProjectSummary, provisional: bool) -> str | Text:
        if row.visible_items is None:
            return "torn" if not row.readable else "…" if provisional else "—"
        return Text(f"{row.visible_items}?", style="italic") if provisional else str(row.visible_items)

    def action_cursor(self, delta: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + delta)

    @on(DataTable.RowSelected)
    def chosen(self, event: DataTable.RowSelected) -> None:
        slug = event.row_key.value
        if any(p.slug == slug for p in self.projects):
            self.open_chosen(str(slug))

    @work(exclusive=True, group="projects-open")
    async def open_chosen(self, slug: str) -> None:
        # Resolving a slug reads the bucket's `root` file: not in the key handler.
        self.dismiss(await asyncio.to_thread(reader.resolve_project, None, slug))
