"""The Log view (`5`): every action taken from this app, newest first, one row
per action (its intent and outcome lines together), refusals marked as
refusals; the row under the cursor is spelled out below the table (records,
what it undoes). A broken or torn hash chain is flagged at the top."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Label, Static

from daimon_tui.domain.action_entries import ActionEntry, ChainReport, LogLine
from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.services import action_log
from daimon_tui.services.action_log import ActionLog
from daimon_tui.ui.actions import bindings, lead_bindings, row_filter_bindings
from daimon_tui.ui.log.state import LogState
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.table_filter import FilteredTableScreen, TableFilter
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_filter import RowFilter

_OUTCOME_STYLE = {"applied": "bold", "refused": "reverse", "failed": "reverse", "not-applied": "reverse"}
_OUTCOME_MARK = {"applied": "✓", "refused": "✗", "failed": "✗", "not-applied": "∅", "world-check": "◎"}


def _cell(value: object, style: str = "") -> Text:
    return Text(inert(value, limit=200), style=style)


class LogScreen(FilteredTableScreen):
    CSS_PATH = sheet("verbs")  # read when first opened, not at the first frame
    VIEW_NAME = "Action log"
    BINDINGS: ClassVar[list[BindingType]] = [*lead_bindings(), *row_filter_bindings(), *bindings({"Log"})]

    def __init__(self, project: ProjectRef | None = None, log: ActionLog | None = None) -> None:
        super().__init__(classes="log-screen")
        self.project = project
        self.actions_log = log or action_log.open_log()
        self.state = LogState()
        self.table_filter = TableFilter(self.state, self.refilter)
        self.table_filter.attach(self)

    def compose(self) -> ComposeResult:
        yield Label("", id="log-chain")
        yield RowFilter(id="log-filter")
        yield DataTable(id="log-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="log-entry")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # The outcome right after the verb: at 120 columns it is never off-screen.
        table.add_columns("time", "verb", "outcome", "items", "reason")
        table.focus()  # not the closed `/` box above it
        self.load()

    @on(DataTable.RowHighlighted, "#log-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The row in full, below the table: every record, what it undoes, its project."""
        entry = self.state.entry(event.row_key.value) if event.row_key is not None else None
        self.query_one("#log-entry", Static).update(entry_text(entry) if entry is not None else "")

    def action_reload(self) -> None:
        self.load()

    def _cursor_entry(self) -> ActionEntry | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            self.notify("The log has no entry yet.")
            return None
        entry = self.state.entry(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
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
        entry = self.state.entry(event.row_key.value)
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
        entry = await action_log.find(self.actions_log, action_id)
        if entry is None:
            return
        outcome = await run_verb(self.app, "undo", (), self.project, self.actions_log, undo_of=entry)
        if outcome.status != "cancelled":
            self.load()

    @work(exclusive=True, group="action-log")
    async def load(self) -> None:
        lines, report = await action_log.lines_and_chain(self.actions_log)
        self.show(lines, report)

    def refilter(self) -> None:
        if self.state.last_read is not None:
            self.show(*self.state.last_read)

    def show(self, lines: list[LogLine], report: ChainReport) -> None:
        self.state.read(lines, report)
        banner = self.query_one("#log-chain", Label)
        where = f"{action_log.location(self.actions_log)}"
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
        # An intent and its outcome share an action id: one row, the outcome's.
        settled = {line.entry.action_id for line in lines if line.entry is not None and line.entry.outcome != "intent"}
        total = 0
        for line in reversed(lines):
            if line.entry is None:
                total += 1
                if not self.state.query.matches((f"line {line.number}", line.problem or "unreadable")):
                    continue
                table.add_row(_cell(f"line {line.number}"), _cell(""),
                              _cell(line.problem or "unreadable", "reverse"), _cell(""), _cell(""))
                continue
            if line.entry.outcome == "intent" and line.entry.action_id in settled:
                continue
            if self.project is not None and line.entry.project != self.project.slug:
                continue
            total += 1
            if self.state.query.matches(entry_words(line.entry)):
                self._row(table, line.entry, line.number)
        self.table_filter.box.count(table.row_count, total)
        if keep is not None and keep.value is not None and keep in table.rows:
            # the cursor stays on the action it was on (a reload adds lines on top)
            table.move_cursor(row=table.get_row_index(keep))

    def _row(self, table: DataTable, entry: ActionEntry, number: int) -> None:
        # item ids as git shows hashes; the line under the table spells them out
        items = self.state.items(entry)
        table.add_row(_cell(entry.time[:19]), verb_cell(entry), outcome_cell(entry),
                      Text(inert(items, limit=40)), Text(inert(entry.reason, limit=60)), key=str(number))
        self.state.shown(number, entry)


def entry_words(entry: ActionEntry) -> tuple[str, ...]:
    """What the `/` filter matches: the row's columns and what the line below it spells out."""
    return (entry.time, entry.verb, entry.outcome, entry.action_id, entry.reason or "", *entry.item_ids,
            entry.undoes or "")


def verb_cell(entry: ActionEntry) -> Text:
    """A refused undo reads as a refusal, not as an undo."""
    if entry.outcome in ("refused", "failed", "not-applied"):
        return Text(f"{inert(entry.verb, limit=20)} ({entry.outcome})", style="strike dim")
    return _cell(entry.verb)


def outcome_cell(entry: ActionEntry) -> Text:
    if entry.outcome == "intent":  # no outcome line yet: written or not, the next start settles it
        return Text("… intent only", style="italic")
    mark = _OUTCOME_MARK.get(entry.outcome, "?")
    return _cell(f"{mark} {entry.outcome}", _OUTCOME_STYLE.get(entry.outcome, ""))


def entry_text(entry: ActionEntry) -> Text:
    out = Text()
    out.append(f"{inert(entry.verb, limit=20)} ", style="bold")
    out.append_text(outcome_cell(entry))
    out.append(f"  · action {inert(entry.action_id, limit=40)} · {inert(entry.time, limit=40)}", style="dim")
    out.append(f" · {inert(entry.project, limit=80)}", style="dim")
    if entry.item_ids:
        out.append(f"\nitems: {inert(', '.join(entry.item_ids), limit=2000)}")
    if entry.reason:
        out.append(f"\nreason: {inert(entry.reason, limit=2000)}")
    if entry.undoes:
        out.append(f"\nundoes: {inert(entry.undoes, limit=60)}")
    for r in entry.records:
        tail = "" if r.outcome == "applied" else f" {r.outcome}"
        out.append(f"\n  → {inert(r.ledger or '-', limit=40)}:{inert(r.ref or r.item_id, limit=60)} "
                   f"{inert(r.status or r.op, limit=40)}{inert(tail, limit=40)}")
    return out
