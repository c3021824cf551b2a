"""`2`: the project's retained sessions. `enter` opens one read-only, `space`
marks one and `d` diffs it with the cursor row (daimon's own change rows), `@`
shows the briefing as it stood at a session or a typed time.

Every load runs in an async worker and asks a service (`services.history`,
`services.as_of`): the session list and diffs are read by the judging child
(daimon's sandbox settings exported to it), a session or an "as of" copy in a
thread the service starts, so daimon's ContextVar configuration follows the read.
What History and the Diff show is their state (`state.HistoryState`, `state.DiffState`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Input, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import short_id, shortest_unique
from daimon_tui.domain.when import HINT, parse_when
from daimon_tui.models import Briefing, Diagnostic, ProjectRef
from daimon_tui.models.history import SessionSummary
from daimon_tui.models.team import TeamView
from daimon_tui.services import history as history_service
from daimon_tui.ui.actions import bindings, lead_bindings, row_filter_bindings
from daimon_tui.ui.history.readonly_briefing import ReadOnlyBriefingScreen
from daimon_tui.ui.history.state import DiffState, HistoryState
from daimon_tui.ui.navigation import GoesBack, navigator
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.table_filter import FilteredTableScreen, TableFilter
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_below import RowBelow
from daimon_tui.ui.widgets.row_filter import RowFilter
from daimon_tui.ui.widgets.safe_input import SafeInput

# "withheld now" is not Health's "withheld": see domain/withheld.py
COUNT_KEYS = ("verbatim", "inferred", "untagged", "withheld now")


def _safe(value: object, limit: int = 60) -> Text:
    return Text(inert(value, limit=limit) if value else "—")


def _session_cell(row: SessionSummary, shown: str) -> Text:
    """The session id as shown, and `⚠ edited` when its file fails daimon's receipt check."""
    cell = _safe(shown, 40)
    if row.receipt == "mismatch":
        cell.append(" ⚠ edited", style="bold yellow")
    return cell


def _notes(diagnostics: tuple[Diagnostic, ...]) -> Text:
    return Text("\n".join(f"⚠ {inert(d.message)}" for d in diagnostics), style="yellow")


class HistoryScreen(FilteredTableScreen):
    CSS_PATH = sheet("history")  # read when first opened, not at the first frame
    VIEW_NAME = "History"
    BINDINGS: ClassVar[list[BindingType]] = [
        *lead_bindings(),
        *row_filter_bindings(),
        *bindings({"History"}),
    ]

    def __init__(self, project: ProjectRef) -> None:
        super().__init__(id="history")
        self.project = project
        self.state = HistoryState()
        self.table_filter = TableFilter(self.state, self.refilter)
        self.table_filter.attach(self)

    def compose(self) -> ComposeResult:
        title = Text("History — retained sessions of ")
        title.append(inert(self.project.name or self.project.slug, limit=60), style="bold")
        yield Static(title, id="history-title")
        yield RowFilter(id="history-filter")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield RowBelow("history-table", {"topic": self._topic}, id="history-row")
        yield Static(id="history-notes")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        table.add_column("", key="mark", width=1)
        table.add_columns("session", "created", *COUNT_KEYS, "topic")
        # The first read can take seconds on a long history: a line that says so
        # where the table will be, not an empty table.
        table.display = False
        self.query_one("#history-notes", Static).update(Text("reading daimon's retained sessions…", style="dim italic"))
        self.load()

    @work(exclusive=True, group="history")
    async def load(self) -> None:
        self.state.listed(await history_service.sessions(self.project))
        self.fill()
        self.query_one("#history-table", DataTable).focus()

    def refilter(self) -> None:
        self.fill()

    def fill(self) -> None:
        """The sessions the `/` filter leaves, the cursor kept on its session where it can be."""
        state = self.state
        table = self.query_one("#history-table", DataTable)
        table.clear()
        table.display = True
        # Session ids as git shows hashes (the shortest unique prefix): the
        # topic gets the room; Enter opens the session under its full id.
        short = shortest_unique(row.session_id for row in state.rows)
        shown = state.shown()
        for row in shown:
            counts = [str(row.counts.get(k, 0)) for k in COUNT_KEYS]
            mark = "●" if row.session_id == state.marked else ""
            table.add_row(
                mark,
                _session_cell(row, short.get(row.session_id, row.session_id)),
                _safe(row.created, 20),
                *counts,
                _safe(row.topic, 200),
                key=row.session_id,
            )
        self.table_filter.box.count(len(shown), len(state.rows))
        self.query_one("#history-notes", Static).update(_notes(state.notes(len(shown))))
        if state.cursor is not None and state.cursor in table.rows:  # a reload or a filter keeps the place
            table.move_cursor(row=table.get_row_index(state.cursor))
        else:  # its session is filtered out or gone: the cursor is on the first row shown, if any
            state.cursor = shown[0].session_id if shown else None
        self.query_one("#history-row", RowBelow).follow_later()

    @on(DataTable.RowHighlighted, "#history-table")
    def _moved(self, event: DataTable.RowHighlighted) -> None:
        """The cursor moved (keys, mouse): the state follows. A highlight posted
        before a refill can name a row the cursor is no longer on: not followed."""
        table = event.data_table
        if event.row_key in table.rows and table.get_row_index(event.row_key) == table.cursor_row:
            self.state.cursor = event.row_key.value

    def action_reload(self) -> None:
        self.load()

    def _topic(self, row: int) -> str | None:
        """The topic of the table's row `row` (the filter leaves a subset of the state's rows)."""
        table = self.query_one("#history-table", DataTable)
        if not 0 <= row < table.row_count:
            return None
        return self.state.topic(table.ordered_rows[row].key.value)

    def on_resize(self) -> None:
        self.query_one("#history-row", RowBelow).follow_later()

    def action_cursor(self, delta: int) -> None:
        table = self.query_one("#history-table", DataTable)
        table.move_cursor(row=table.cursor_row + delta)

    def action_mark(self) -> None:
        sid = self.state.cursor
        if sid is None:
            self.notify("No retained session to mark.")
            return
        table = self.query_one("#history-table", DataTable)
        previous = self.state.toggle_mark(sid)
        if previous is not None and previous in table.rows:  # the filter may hide it
            table.update_cell(previous, "mark", "")
        if self.state.marked is not None:
            table.update_cell(self.state.marked, "mark", "●")

    def action_diff(self) -> None:
        sid = self.state.cursor
        if sid is None:
            self.notify("No retained session to diff.")
            return
        marked = self.state.marked
        if marked is None or marked == sid:
            self.notify("Mark one session with space, then press d on another.", severity="warning")
            return
        older, newer = self.state.older_first(marked, sid)
        navigator(self.app).open(DiffScreen(self.project, older, newer))

    def action_as_of(self) -> None:
        refusal = history_service.as_of_refusal()
        if refusal:  # safe mode: the as-of copy needs daimon's private names
            self.notify(refusal, title="as of: off in safe mode", severity="error")
            return

        def chosen(when: str | None) -> None:
            if when:
                navigator(self.app).open(HistoricalScreen(self.project, when))

        navigator(self.app).open(AsOfPicker(self.state.rows, default=self.state.cursor or ""), chosen)

    @on(DataTable.RowSelected, "#history-table")
    def opened(self, event: DataTable.RowSelected) -> None:
        sid = event.row_key.value
        if sid:
            navigator(self.app).open(SessionScreen(self.project, sid, edited=self.state.edited(sid)))

    def action_open(self) -> None:
        sid = self.state.cursor
        if sid is None:
            self.notify("No retained session to open.")
            return
        navigator(self.app).open(SessionScreen(self.project, sid, edited=self.state.edited(sid)))


class SessionScreen(ReadOnlyBriefingScreen):
    """One retained session's checkpoint, judged by daimon like the briefing."""

    CSS_PATH = sheet("history")  # read when first opened, not at the first frame

    def __init__(self, project: ProjectRef, session_id: str, *, now: float | None = None,
                 edited: str | None = None) -> None:
        # A file changed after signing says so, and what is shown instead.
        banner = f"session {session_id} as written"
        if edited:
            banner += f" — ⚠ its file was changed after signing (receipt mismatch); shown: {edited}"
        super().__init__(
            project,
            loader=lambda: history_service.session_briefing(project, session_id, now=now),
            banner=banner,
            now=now,
            # the teammates as this machine held them when the session was written
            team_loader=lambda: _team_as_of(project, session_id),
        )
        self.session_id = session_id


_CHANGE_MARK = {"added": "+", "restated": "~", "retagged": "~", "withheld": "?"}


class DiffScreen(GoesBack, Screen[None]):
    """daimon's change rows between two sessions (older → newer)."""

    CSS_PATH = sheet("history")  # read when first opened, not at the first frame

    VIEW_NAME = "Diff"
    BINDINGS: ClassVar[list[BindingType]] = [*lead_bindings(), *bindings({"Diff"})]

    def __init__(self, project: ProjectRef, older: str, newer: str) -> None:
        super().__init__(id="diff")
        self.project = project
        self.older = older
        self.newer = newer
        self.state = DiffState()

    def compose(self) -> ComposeResult:
        title = Text("Diff ")
        title.append(inert(short_id(self.older), limit=40), style="bold")
        title.append(" → ")
        title.append(inert(short_id(self.newer), limit=40), style="bold")
        yield Static(title, id="diff-title")
        yield DataTable(id="diff-table", cursor_type="row", zebra_stripes=True)
        wholes = {"text": self.state.text, "detail": self.state.detail}
        yield RowBelow("diff-table", wholes, id="diff-row")
        yield Static(id="diff-notes")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("", "change", "id", "kind", "trust", "text", "detail")
        self.load()

    @work(exclusive=True, group="diff")
    async def load(self) -> None:
        state = self.state
        state.read(await history_service.session_changes(self.project, self.older, self.newer))
        table = self.query_one(DataTable)
        table.clear()
        # Whole item ids: one pasted into `daimon resolve` must be one daimon takes (a 7-character
        # prefix is not); at ~14 characters they cost the text little.
        for n, row in enumerate(state.rows):
            table.add_row(
                _CHANGE_MARK.get(row.change, "-"),
                Text(row.change),
                _safe(row.item_id, 44),
                _safe(row.kind, 14),
                _safe(row.trust or "untagged", 10),
                _safe(row.text or "(content unavailable)", 120),
                _safe(state.detail(n), 80),
            )
        self.query_one("#diff-notes", Static).update(_notes(state.notes()))
        table.focus()
        self.query_one("#diff-row", RowBelow).follow_later()

    def on_resize(self) -> None:
        self.query_one("#diff-row", RowBelow).follow_later()

    def action_cursor(self, delta: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + delta)

    @on(DataTable.RowSelected, "#diff-table")
    def opened(self, event: DataTable.RowSelected) -> None:
        """Enter on a change: the item in today's briefing, or why not."""
        if event.cursor_row < len(self.state.rows):
            self.app.open_item(self.state.rows[event.cursor_row].item_id)  # type: ignore[attr-defined]


class AsOfPicker(ModalScreen[str | None]):
    """Pick a session or type an ISO-8601 time."""

    CSS_PATH = sheet("history")  # read when first opened, not at the first frame

    BINDINGS: ClassVar[list[BindingType]] = bindings({"As of"})

    def __init__(self, sessions: tuple[SessionSummary, ...], *, default: str = "") -> None:
        super().__init__(id="as-of-picker")
        self.sessions = sessions
        self.default = default

    def compose(self) -> ComposeResult:
        prompt = f"Show the briefing as it stood at… ({HINT})"
        yield Static(Text(prompt), id="as-of-title")
        yield SafeInput(value=self.default, placeholder="session id, yesterday, 3d, 2026-11-28", id="as-of-input",
                        max_length=200)
        yield Static(id="as-of-error")
        table: DataTable[Text] = DataTable(id="as-of-table", cursor_type="row")
        yield table

    def on_mount(self) -> None:
        table = self.query_one("#as-of-table", DataTable)
        table.add_columns("session", "created", "topic")
        short = shortest_unique(row.session_id for row in self.sessions)
        for row in self.sessions:
            table.add_row(
                _session_cell(row, short.get(row.session_id, row.session_id)), _safe(row.created, 20),
                _safe(row.topic), key=row.session_id
            )
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def typed(self, event: Input.Submitted) -> None:
        # Anything but a time or a session is refused here, in the box.
        app_now = getattr(self.app, "now", None)
        now = datetime.fromtimestamp(app_now, UTC) if app_now is not None else datetime.now(UTC)
        when = parse_when(event.value, {s.session_id for s in self.sessions}, now)
        if when.value is None:
            self.query_one("#as-of-error", Static).update(Text(f"⚠ {inert(when.problem)}", style="bold red"))
            return
        navigator(self.app).answer(self, when.value)

    @on(DataTable.RowSelected, "#as-of-table")
    def picked(self, event: DataTable.RowSelected) -> None:
        navigator(self.app).answer(self, event.row_key.value)

    def action_cancel(self) -> None:
        navigator(self.app).answer(self, None)


Loader = Callable[[ProjectRef, str], Awaitable[Briefing]]


async def _load_as_of(project: ProjectRef, when: str) -> Briefing:
    from daimon_tui.services.as_of import briefing_as_of

    return await briefing_as_of(project, when)


async def _team_as_of(project: ProjectRef, when: str) -> TeamView:
    """A fixed record's team loader (`TeamFeed(loader=…)`): the teammates as of `when`."""
    from daimon_tui.services.as_of import team_as_of

    return await team_as_of(project, when)


class HistoricalScreen(ReadOnlyBriefingScreen):
    """The briefing as it stood at `when`, from daimon's own reading of a copy
    of the store cut at that moment. Read-only, and the banner says so."""

    CSS_PATH = sheet("history")  # read when first opened, not at the first frame

    def __init__(self, project: ProjectRef, when: str, *, loader: Loader | None = None) -> None:
        load = loader or _load_as_of
        super().__init__(
            project,
            loader=lambda: load(project, when),
            banner=f"historical view — as of {when}",
            inspect_today=False,
            team_loader=lambda: _team_as_of(project, when),
        )
        self.when = when
