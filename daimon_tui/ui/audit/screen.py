"""Screen 4: the audit. Receipt state of every session file, daimon's
rejection ledger and ledger health with the repair command daimon suggests.
Read-only: nothing here repairs or re-signs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from daimon_tui.domain.audit_report import AuditReport, LedgerRow, ReceiptRow, Rejection
from daimon_tui.domain.inert import inert
from daimon_tui.domain.receipt_check import state_label
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import ProjectRef
from daimon_tui.services import audit as audit_service
from daimon_tui.ui.actions import bindings, lead_bindings, row_filter_bindings
from daimon_tui.ui.audit.state import AuditState
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.table_filter import FilteredTableScreen, TableFilter
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_below import RowBelow
from daimon_tui.ui.widgets.row_filter import RowFilter

STATE_STYLES = {
    "signature-valid": "green",
    "match": "green",
    "unsigned": "dim",
    "key-missing": "yellow",
}
LEDGER_STYLES = {
    "ok": "green",
    "absent": "dim",
    "degraded": "yellow",
    "transient": "yellow",
    "unreadable": "bold red",
}
LEDGER_GLYPHS = {"ok": "✓", "absent": "·", "degraded": "~", "transient": "?", "unreadable": "✗"}


def receipt_failures(report: AuditReport | None) -> int:
    """How many session receipts do not hold: the briefing header's badge."""
    return 0 if report is None else report.receipt_failures


def _state_text(row: ReceiptRow) -> Text:
    return Text(state_label(row.state), style=STATE_STYLES.get(row.state, "bold red"))


def _ledger_text(row: LedgerRow) -> Text:
    return Text(
        f"{LEDGER_GLYPHS.get(row.state, '?')} {row.state}", style=LEDGER_STYLES.get(row.state, "yellow")
    )


def summary_text(report: AuditReport) -> Text:
    text = Text()
    text.append(inert(report.project.name or report.project.slug, limit=80), style="bold")
    text.append(f"  receipts {'on' if report.receipts_enabled else 'off'}", style="dim")
    if report.latest_session:
        text.append(f"  latest {inert(report.latest_session, limit=60)}", style="dim")
    failures, ledgers = report.receipt_failures, report.ledger_failures
    if failures or ledgers:
        text.append(f"\n✗ {failures} receipt failure(s), {ledgers} unreadable ledger(s)", style="bold red")
    else:
        text.append("\n✓ every receipt holds and every ledger reads", style="green")
    for note in report.notes:
        text.append(f"\n{inert(note, limit=300)}", style="yellow")
    for diag in report.diagnostics:
        text.append(
            f"\n{diag.level}: {inert(diag.message, limit=300)}",
            style="bold red" if diag.level == "error" else "yellow",
        )
    return text


def receipt_detail(row: ReceiptRow | None) -> Text:
    if row is None:
        return Text("no session files", style="dim")
    text = Text()
    text.append(f"{inert(row.session_id, limit=60)}: ", style="bold")
    text.append(inert(row.cause, limit=300))
    if row.daimon_state:
        text.append(f"  (daimon's cheap check: {inert(row.daimon_state)})", style="dim")
    if not row.agrees:
        text.append("  ⚠ disagrees with daimon", style="yellow")
    for item in row.affects:
        text.append(f"\n  affects {inert(item.item_id or '-', limit=40)} [{item.kind}] ", style="dim")
        text.append(inert(item.text, limit=90))
        text.append(f" — {item.describe}", style="yellow" if item.how == "degrades" else "dim")
    if row.forget_hint:
        text.append(f"\n  hint: {inert(row.forget_hint, limit=300)}", style="cyan")
    return text


def rejection_detail(rej: Rejection | None) -> Text:
    if rej is None:
        return Text("")
    text = Text()
    text.append(f"{inert(rej.item_ref or '-', limit=40)}: ", style="bold")
    text.append(inert(rej.explanation, limit=300))
    return text


class AuditScreen(FilteredTableScreen):
    """The audit view of one project."""

    CSS_PATH = sheet("audit")  # read when first opened, not at the first frame

    VIEW_NAME = "Audit"
    BINDINGS: ClassVar[list[BindingType]] = [*lead_bindings(), *row_filter_bindings(), *bindings({"Move", "Audit"})]

    def __init__(self, project: ProjectRef) -> None:
        super().__init__(id="audit")
        self.project = project
        self.state = AuditState()
        self.table_filter = TableFilter(self.state, self.refilter, lambda: self.query_one("#audit-receipts", DataTable))
        self.table_filter.attach(self)

    @staticmethod
    def _nth(rows: Sequence[object], n: int, field: str) -> str | None:
        """A row's field as text (a cell the table shortens), for the line under the table."""
        value = getattr(rows[n], field, None) if 0 <= n < len(rows) else None
        return str(value) if value else None

    def compose(self) -> ComposeResult:
        yield Static(Text(f"{self.VIEW_NAME} · reading daimon's store…", style="dim"), id="audit-summary")
        yield RowFilter(id="audit-filter")
        with VerticalScroll(id="audit-body"):
            yield Static(Text("Receipts", style="bold underline"), classes="audit-title")
            yield DataTable(id="audit-receipts", cursor_type="row", zebra_stripes=True)
            yield RowBelow("audit-receipts", {
                "cause": lambda n: self._nth(self.state.receipts, n, "cause"),
                "daimon": lambda n: self._nth(self.state.receipts, n, "daimon_state"),
            }, id="audit-receipts-row")
            yield Static(id="audit-detail")
            yield Static(
                Text("Rejections (verification.jsonl)", style="bold underline"), classes="audit-title"
            )
            yield DataTable(id="audit-rejections", cursor_type="row", zebra_stripes=True)
            yield RowBelow("audit-rejections", {
                "time": lambda n: self._nth(self.state.rejections, n, "ts"),
                "check": lambda n: self._nth(self.state.rejections, n, "check"),
                "reason": self._reason,
                "item now": lambda n: self._nth(self.state.rejections, n, "retained"),
            }, id="audit-rejections-row")
            yield Static(id="audit-rejection-detail")
            yield Static(Text("Ledger health", style="bold underline"), classes="audit-title")
            yield DataTable(id="audit-ledgers", cursor_type="row", zebra_stripes=True)
            yield RowBelow("audit-ledgers", {
                "ledger": lambda n: self._nth(self.state.ledger_rows, n, "name"),
                "detail": lambda n: self._nth(self.state.ledger_rows, n, "detail"),
                "repair": lambda n: self._nth(self.state.ledger_rows, n, "command"),
            }, id="audit-ledgers-row")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        receipts = self.query_one("#audit-receipts", DataTable)
        receipts.add_columns("state", "session", "created", "cause", "file changed at", "daimon", "affects")
        self.query_one("#audit-rejections", DataTable).add_columns(
            "time", "item", "check", "reason", "item now"
        )
        self.query_one("#audit-ledgers", DataTable).add_columns("state", "ledger", "detail", "repair")
        receipts.focus()
        self.load()

    @work(exclusive=True, group="audit-load")
    async def load(self) -> None:
        # The judging child folds (and keeps) the ledgers, not this process.
        report = await audit_service.audit_by_child(self.project)
        self.show(report)

    def refilter(self) -> None:
        if self.state.report is not None:
            self.show(self.state.report)

    def show(self, report: AuditReport) -> None:
        state = self.state
        state.read(report)
        title = Text(f"{self.VIEW_NAME} · ", style="bold")
        self.query_one("#audit-summary", Static).update(title + summary_text(report))
        self.table_filter.box.count(state.shown(), state.total())
        receipts = self.query_one("#audit-receipts", DataTable)
        receipts.clear()
        # ids as git shows hashes; the line under the table and Enter keep the full id
        sessions = shortest_unique(row.session_id for row in report.receipts)
        for row in state.receipts:
            receipts.add_row(
                _state_text(row),
                Text(inert(sessions.get(row.session_id, row.session_id), limit=40) + (" ★" if row.latest else "")),
                Text(inert((row.created or "-")[:10], limit=10)),
                Text(inert(row.cause, limit=60)),
                Text(row.since_iso or "-", style="dim"),
                Text(inert(row.daimon_state or "-", limit=12), style="dim"),
                Text(str(len(row.affects)) if row.affects else "-"),
            )
        rejections = self.query_one("#audit-rejections", DataTable)
        rejections.clear()
        refs = shortest_unique(rej.item_ref for rej in report.rejections if rej.item_ref)
        for rej in state.rejections:
            rejections.add_row(
                Text(inert(rej.ts or "-", limit=30), style="dim"),
                Text(inert(refs.get(rej.item_ref or "", rej.item_ref) or "-", limit=40)),
                Text(inert(rej.check or "-", limit=20)),
                Text(
                    ("✓ " if rej.cure else "✗ ") + inert(rej.reason or "-", limit=30),
                    style="green" if rej.cure else "yellow",
                ),
                Text(inert(rej.retained, limit=24), style="" if rej.is_retained else "dim"),
            )
        if not state.rejections:
            said = "no rejections recorded" if not report.rejections else "no rejection matches the filter"
            rejections.add_row(Text(said, style="dim"), "", "", "", "")
        ledgers = self.query_one("#audit-ledgers", DataTable)
        ledgers.clear()
        for led in state.ledger_rows:
            ledgers.add_row(
                _ledger_text(led),
                Text(inert(led.name, limit=40)),
                Text(inert(led.detail or "", limit=40), style="dim"),
                Text(inert(led.command or "", limit=60), style="bold"),
            )
        self.show_detail()
        self._follow_all()  # a filter can change the rows and keep the cursor and the size

    def _reason(self, n: int) -> str | None:
        rejections = self.state.rejections
        rej = rejections[n] if 0 <= n < len(rejections) else None
        return None if rej is None or not rej.reason else ("✓ " if rej.cure else "✗ ") + rej.reason

    def selected_receipt(self) -> ReceiptRow | None:
        return self.state.receipt_at(self.query_one("#audit-receipts", DataTable).cursor_row)

    def selected_rejection(self) -> Rejection | None:
        return self.state.rejection_at(self.query_one("#audit-rejections", DataTable).cursor_row)

    def show_detail(self) -> None:
        self.query_one("#audit-detail", Static).update(receipt_detail(self.selected_receipt()))
        self.query_one("#audit-rejection-detail", Static).update(rejection_detail(self.selected_rejection()))

    @on(DataTable.RowHighlighted)
    def _moved(self) -> None:
        self.show_detail()

    @on(DataTable.RowSelected, "#audit-receipts")
    def open_session(self) -> None:
        """Enter on a receipt: that session's checkpoint, read-only."""
        row = self.selected_receipt()
        if row is None:
            return
        from daimon_tui.ui.history.screen import SessionScreen

        navigator(self.app).open(SessionScreen(self.project, row.session_id))

    @on(DataTable.RowSelected, "#audit-rejections")
    def open_rejected(self) -> None:
        rej = self.selected_rejection()
        if rej is None:
            self.notify("No rejection is recorded.")
            return
        self.app.open_item(rej.item_ref)  # type: ignore[attr-defined]

    @on(DataTable.RowSelected, "#audit-ledgers")
    def ledger_selected(self) -> None:
        self.notify("A ledger row opens nothing: its repair command is daimon's, to run in a shell.")

    # ---- actions ---------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        table = (
            self.focused
            if isinstance(self.focused, DataTable)
            else self.query_one("#audit-receipts", DataTable)
        )
        if delta > 0:
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def action_reload(self) -> None:
        self.load()

    def on_resize(self) -> None:
        self._follow_all()

    def _follow_all(self) -> None:
        """Each table's line under it, once the columns have their widths."""
        for below in self.query(RowBelow):
            below.follow_later()
