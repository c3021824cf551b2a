"""`P`: every project daimon has a checkpoint for. Also the screen shown when
the current project has none."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...domain.inert import inert
from ...store import reader
from ...store.models import ProjectRef, ProjectSummary


class ProjectsScreen(ModalScreen[ProjectRef | None]):
    BINDINGS = [
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
        projects, notes = await asyncio.to_thread(reader.list_projects)
        self.projects = projects
        table = self.query_one(DataTable)
        table.clear()
        for row in projects:
            here = "▶" if self.current and row.slug == self.current.slug else ""
            table.add_row(
                here,
                Text(inert(row.name, limit=40)),
                Text(inert(row.session_id or "—", limit=30)),
                Text(inert(row.created or "—", limit=20)),
                str(row.visible_items) if row.visible_items is not None else ("torn" if not row.readable else "—"),
                Text(inert(row.topic or "", limit=60)),
                key=row.slug,
            )
        message = "\n".join(f"⚠ {inert(n.message)}" for n in notes)
        if not projects:
            message = "daimon has no checkpoints on this machine yet." + ("\n" + message if message else "")
        self.query_one("#projects-notes", Static).update(Text(message, style="yellow"))
        table.focus()

    def action_cursor(self, delta: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + delta)

    @on(DataTable.RowSelected)
    def chosen(self, event: DataTable.RowSelected) -> None:
        slug = event.row_key.value
        row = next((p for p in self.projects if p.slug == slug), None)
        if row is not None:
            self.dismiss(reader.resolve_project(slug=row.slug))
