"""`P`: every project daimon has a checkpoint for. Also the screen shown when
the current project has none.

Type to narrow the list (the letters go to the filter, as in the command
palette; up/down move, Enter opens, Esc clears the filter, then closes). The
rows come at once from the bucket envelopes and the counts of the last read,
then the judging child confirms them (`services.projects`). What is listed,
filtered and confirmed is `state.ProjectsState`; the screen draws it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.renderables.sparkline import Sparkline
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.row_words import read as read_words
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import Diagnostic, ProjectRef, ProjectSummary
from daimon_tui.services import session
from daimon_tui.services.projects import project_listing, quick_projects, session_trend
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.projects.state import ProjectsState
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.widgets.row_below import RowBelow
from daimon_tui.ui.widgets.safe_input import SafeInput

# Columns the trend sparkline takes in the project list.
TREND_WIDTH = 12


class ProjectsScreen(ModalScreen[ProjectRef | None]):
    CSS_PATH = sheet("overlays")  # read when first opened, not at the first frame
    BINDINGS: ClassVar[list[Binding]] = bindings({"Projects"})

    def __init__(self, current: ProjectRef | None, *, reason: str = "") -> None:
        super().__init__()
        self.reason = reason
        self.state = ProjectsState(current)

    def compose(self) -> ComposeResult:
        with Vertical(id="projects-box"):
            yield Static(Text(self.reason or "Projects daimon remembers", style="bold"), id="projects-title")
            yield SafeInput(placeholder="type to filter · ↑↓ move · enter opens · esc clears, then closes",
                            id="projects-filter", max_length=200)
            yield DataTable(id="project-table", cursor_type="row", zebra_stripes=True)
            yield RowBelow("project-table", {"topic": self._topic}, id="projects-row")
            yield Static(id="projects-notes")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "project", "latest session", "written", "items")
        self.trend_column = table.add_column("items per session", width=TREND_WIDTH + 5)
        table.add_column("topic")
        self.query_one("#projects-filter", Input).focus()
        self.load()

    def _topic(self, row: int) -> str | None:
        """The topic of the table's row `row` (the filter leaves a subset of the projects)."""
        table = self.query_one(DataTable)
        if not 0 <= row < table.row_count:
            return None
        return self.state.topic(table.ordered_rows[row].key.value)

    def on_resize(self) -> None:
        self.query_one(RowBelow).follow_later()

    @work(exclusive=True, group="projects")
    async def load(self) -> None:
        # First the envelopes and cached counts (no ledger fold, fast), then
        # daimon's own listing, which confirms counts and topics in place.
        try:
            quick, quick_notes = await quick_projects()
        except Exception:  # the full listing still answers
            quick, quick_notes = (), ()
        if quick:
            self.fill(quick, quick_notes, provisional=True)
        rows, notes = await project_listing(self.state.current)
        self.fill(rows, notes, provisional=False)
        self.read_trends(rows)

    @work(exclusive=True, group="projects-trends")
    async def read_trends(self, projects: tuple[ProjectSummary, ...]) -> None:
        """Items per retained session, oldest first, per project (daimon's session
        listing), each drawn as it arrives."""
        table = self.query_one(DataTable)
        for row in projects:
            if not row.readable:
                continue
            try:
                values = await session_trend(row.slug)
            except Exception:  # a project that cannot be listed keeps its dash
                continue
            self.state.trends[row.slug] = values
            if self.is_attached and row.slug in table.rows:
                table.update_cell(row.slug, self.trend_column, self.trend_cell(row.slug))

    def fill(self, projects: tuple[ProjectSummary, ...], notes: tuple[Diagnostic, ...], *,
             provisional: bool) -> None:
        self.state.listed(projects, notes, provisional=provisional)
        self.show_rows()

    def show_rows(self) -> None:
        """The projects the filter leaves, the cursor kept on its project where it can be."""
        state = self.state
        table = self.query_one(DataTable)
        keep = self.cursor_slug()
        table.clear()
        # each project's latest session, as git shows hashes (the full id: Enter opens it)
        short = shortest_unique(row.session_id for row in state.projects if row.session_id)
        shown = state.shown()
        for row in shown:
            here = "▶" if state.is_current(row.slug) else ""
            table.add_row(
                here,
                Text(inert(row.name, limit=40)),
                Text(inert(short.get(row.session_id or "", row.session_id) or "—", limit=40)),
                Text(inert(row.created or "—", limit=20)),
                self.count_cell(row, state.provisional),
                self.trend_cell(row.slug),
                Text(inert(row.topic or "", limit=60)),
                key=row.slug,
            )
        self.query_one("#projects-notes", Static).update(Text(state.status(len(shown)), style="yellow"))
        if keep is not None and keep in table.rows:
            table.move_cursor(row=table.get_row_index(keep))
        self.query_one(RowBelow).follow_later()

    def cursor_slug(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    @on(Input.Changed, "#projects-filter")
    def narrowed(self, event: Input.Changed) -> None:
        self.state.query = read_words(event.value)
        self.show_rows()

    @on(Input.Submitted, "#projects-filter")
    def submitted(self) -> None:
        slug = self.cursor_slug()
        if slug is not None:
            self.open_chosen(slug)

    def action_clear_or_close(self) -> None:
        box = self.query_one("#projects-filter", Input)
        if box.value:
            box.value = ""
        else:
            navigator(self.app).answer(self, None)

    def trend_cell(self, slug: str) -> RenderableType:
        """A sparkline of items per retained session (Textual's own renderable)."""
        values = self.state.trends.get(slug)
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
        if self.state.knows(slug):
            self.open_chosen(str(slug))

    @work(exclusive=True, group="projects-open")
    async def open_chosen(self, slug: str) -> None:
        # Resolving a slug reads the bucket's `root` file: not in the key handler.
        navigator(self.app).answer(self, await session.resolve_project(None, slug))
