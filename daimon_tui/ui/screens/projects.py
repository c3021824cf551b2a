"""`P`: every project daimon has a checkpoint for. Also the screen shown when
the current project has none."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef, ProjectSummary
from daimon_tui.store.read import project_index, reader
from daimon_tui.ui.read_worker import work


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

    def compose(self) -> ComposeResult:
        yield Static(Text(self.reason or "Projects daimon remembers (enter opens one)", style="bold"),
                     id="projects-title")
        yield DataTable(id="project-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="projects-notes")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "project", "latest session", "written", "items", "topic")
        self.load()

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

    def fill(self, projects: tuple[ProjectSummary, ...], notes: tuple, *, provisional: bool) -> None:
        self.projects = projects
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        for row in projects:
            here = "▶" if self.current and row.slug == self.current.slug else ""
            table.add_row(
                here,
                Text(inert(row.name, limit=40)),
                Text(inert(row.session_id or "—", limit=30)),
                Text(inert(row.created or "—", limit=20)),
                self.count_cell(row, provisional),
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
