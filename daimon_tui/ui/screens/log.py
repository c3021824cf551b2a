"""The Log view (`5`): every action taken from this app, newest first, with
its outcome; a broken or torn hash chain is flagged at the top."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label

from daimon_tui.domain.action_log import ActionEntry, ActionLog, ChainReport, LogLine
from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.ui.actions import lead_bindings
from daimon_tui.ui.read_worker import work

_OUTCOME_STYLE = {"applied": "bold", "refused": "reverse", "failed": "reverse", "not-applied": "reverse"}
_OUTCOME_MARK = {"applied": "✓", "refused": "✗", "failed": "✗", "not-applied": "∅", "world-check": "◎"}


def _cell(value: object, style: str = "") -> Text:
    return Text(inert(value, limit=200), style=style)


class LogScreen(Screen):
    VIEW_NAME = "Action log"
    BINDINGS: ClassVar[list[BindingType]] = [
        *lead_bindings(),
        Binding("escape", "app.pop_screen", "Back", show=False),
        Binding("ctrl+r", "reload", "Reload"),
        Binding("z", "undo_row", "Undo this action"),
        Binding("j", "cursor(1)", "Next entry", show=False),
        Binding("k", "cursor(-1)", "Previous entry", show=False),
        Binding("enter", "open", "Open the entry's item in the briefing", show=False),
    ]

    def __init__(self, project: ProjectRef | None = None, log: ActionLog | None = None) -> None:
        super().__init__(classes="log-screen")
        self.project = project
        self.actions_log = log or ActionLog()
        # keyed by line number: an action's intent and outcome lines share its id
        self.entry_of: dict[str, ActionEntry] = {}

    def compose(self) -> ComposeResult:
        yield Label("", id="log-chain")
        yield DataTable(id="log-table", cursor_type="row", zebra_stripes=True)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("time", "verb", "items", "outcome", "reason", "records", "undoes", "project")
        self.load()

    def action_reload(self) -> None:
        self.load()

    def _cursor_entry(self) -> ActionEntry | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            self.notify("The log has no entry yet.")
            return None
        entry = self.entry_of.get(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or "")
        if entry is None:
            self.notify("This line of the log cannot be read: nothing to act on.", severity="warning")
        return entry

    def action_cursor(self, delta: int) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=table.cursor_row + delta)

    def action_undo_row(self) -> None:
        entry = self._cursor_entry()
        if entry is not None and self.project is not None:
            self.undo_action(entry.action_id)

    def action_open(self) -> None:
        entry = self._cursor_entry()
        if entry is not None:
            self.open_entry(entry)

    @on(DataTable.RowSelected, "#log-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        entry = self.entry_of.get(event.row_key.value or "")
        if entry is not None:
            self.open_entry(entry)

    def open_entry(self, entry: ActionEntry) -> None:
        if len(entry.item_ids) > 1:
            self.notify(f"{len(entry.item_ids)} items: opening the first; the row lists them all.")
        self.app.open_item(entry.item_ids[0] if entry.item_ids else None)  # type: ignore[attr-defined]

    @work(exclusive=True, group="verb")
    async def undo_action(self, action_id: str) -> None:
        from daimon_tui.ui.verb_flow import run_verb

        assert self.project is not None
        entry = await asyncio.to_thread(self.actions_log.find, action_id)
        if entry is None:
            return
        outcome = await run_verb(self.app, "undo", (), self.project, self.actions_log, undo_of=entry)
        if outcome.status != "cancelled":
            self.load()

    @work(exclusive=True, group="action-log")
    async def load(self) -> None:
        lines, report = await asyncio.to_thread(self._read)
        self.show(lines, report)

    def _read(self) -> tuple[list[LogLine], ChainReport]:
        return self.actions_log.lines(), self.actions_log.verify_chain()

    def show(self, lines: list[LogLine], report: ChainReport) -> None:
        banner = self.query_one("#log-chain", Label)
        where = f"{self.actions_log.path}"
        if report.ok:
            # An empty table alone says nothing to someone who has not acted yet.
            empty = ("\nNothing logged yet: every verb, refusal and world-check made here is logged "
                     "(ids and hashes, never an item's text).") if not lines else ""
            banner.update(Text(f"{self.VIEW_NAME} · ✓ {report.message} · {inert(where)}{empty}"))
            banner.set_class(False, "broken")
        elif report.unreadable or (report.unanchored and report.broken_at is None and not report.bad_lines):
            # not a broken chain: a log that cannot be opened, or a kill before its head was written
            banner.update(Text(f"⚠ {inert(report.message)}", style="bold"))
            banner.set_class(True, "broken")
        else:
            banner.update(Text(f"{self.VIEW_NAME} · ⚠ CHAIN BROKEN — {report.message} · {inert(where)}",
                               style="bold"))
            banner.set_class(True, "broken")
        table = self.query_one(DataTable)
        keep = None
        if table.row_count:
            keep = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        table.clear()
        self.entry_of.clear()
        for line in reversed(lines):
            if line.entry is None:
                table.add_row(_cell(f"line {line.number}"), _cell(""), _cell(""),
                              _cell(line.problem or "unreadable", "reverse"), _cell(""), _cell(""), _cell(""),
                              _cell(""))
                continue
            self._row(table, line.entry, line.number)
        if keep is not None and keep.value is not None and keep in table.rows:
            # the cursor stays on the action it was on (a reload adds lines on top)
            table.move_cursor(row=table.get_row_index(keep))

    def _row(self, table: DataTable, entry: ActionEntry, number: int) -> None:
        if self.project is not None and entry.project != self.project.slug:
            return
        mark = _OUTCOME_MARK.get(entry.outcome, "?")
        records = ", ".join(
            f"{r.ledger or '-'}:{r.ref or r.item_id} {r.status or r.op}"
            f"{'' if r.outcome == 'applied' else ' ' + r.outcome}"
            for r in entry.records)
        items = ", ".join(entry.item_ids)
        table.add_row(_cell(entry.time), _cell(entry.verb), _cell(items),
                      _cell(f"{mark} {entry.outcome}", _OUTCOME_STYLE.get(entry.outcome, "")),
                      _cell(entry.reason), _cell(records), _cell(entry.undoes or ""), _cell(entry.project),
                      key=str(number))
        self.entry_of[str(number)] = entry
