"""The Audit view's single truth: the report as read, the `/` filter's query,
and the rows of each of its three tables the query leaves, in table order.
The screen draws from it and reads the row under each table's cursor from it."""

from __future__ import annotations

from dataclasses import dataclass, field

from daimon_tui.domain.audit_report import AuditReport, LedgerRow, ReceiptRow, Rejection
from daimon_tui.domain.receipt_check import state_label
from daimon_tui.domain.row_words import RowQuery


# mutable because it is the view's one state: each read and each filter move it
@dataclass(slots=True)
class AuditState:
    report: AuditReport | None = None
    query: RowQuery = field(default_factory=RowQuery)
    # the rows the `/` filter leaves, in table order
    receipts: list[ReceiptRow] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    ledger_rows: list[LedgerRow] = field(default_factory=list)

    def read(self, report: AuditReport) -> None:
        """The report (read again, or filtered anew): each table's rows under the query."""
        self.report = report
        match = self.query.matches
        self.receipts = [r for r in report.receipts
                         if match((r.state, state_label(r.state), r.session_id, r.created, r.cause, r.daimon_state))]
        self.rejections = [r for r in report.rejections
                           if match((r.ts, r.item_ref, r.check, r.reason, r.retained, r.explanation))]
        self.ledger_rows = [r for r in report.ledgers if match((r.state, r.name, r.detail, r.command))]

    def shown(self) -> int:
        return len(self.receipts) + len(self.rejections) + len(self.ledger_rows)

    def total(self) -> int:
        report = self.report
        return 0 if report is None else len(report.receipts) + len(report.rejections) + len(report.ledgers)

    def receipt_at(self, row: int) -> ReceiptRow | None:
        """The receipt under a cursor at `row` (clamped to the rows shown)."""
        return self.receipts[max(0, min(row, len(self.receipts) - 1))] if self.receipts else None

    def rejection_at(self, row: int) -> Rejection | None:
        return self.rejections[max(0, min(row, len(self.rejections) - 1))] if self.rejections else None
