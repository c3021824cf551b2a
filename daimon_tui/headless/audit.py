"""`daimon-tui audit`: receipts, rejections and ledger health (read-only).

Exit 0 clean, 1 any receipt failure or unreadable ledger, 5 the audit could
not run (headless/exit_codes.py). Every string read from the store goes through `inert`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, TextIO

from daimon_tui.domain.audit_report import AuditReport
from daimon_tui.domain.inert import inert
from daimon_tui.domain.receipt_check import state_label
from daimon_tui.headless.exit_codes import Exit
from daimon_tui.models import ProjectRef
from daimon_tui.services import audit as audit_service

CANNOT_RUN = Exit.READ_FAILED


def _inert_tree(value: Any) -> Any:
    if isinstance(value, str):
        return inert(value, limit=None)
    if isinstance(value, dict):
        return {inert(k, limit=None): _inert_tree(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_inert_tree(v) for v in value]
    return value


def report_json(report: AuditReport) -> dict[str, Any]:
    """The report as JSON-ready data, computed properties included, text inert."""
    return _inert_tree(report.json_tree())


def write_plain(report: AuditReport, out: TextIO) -> None:
    project = report.project
    receipts = "on" if report.receipts_enabled else "off"
    out.write(
        f"audit: {inert(project.name or project.slug)} — receipts {receipts}, "
        f"latest session {inert(report.latest_session or '-')}\n"
    )
    out.write("\nReceipts:\n")
    if not report.receipts:
        out.write("  (no session files)\n")
    for row in report.receipts:
        latest = " (latest)" if row.latest else ""
        since = f"  file changed at {row.since_iso}" if row.since_iso else ""
        daimon = f"  [daimon: {inert(row.daimon_state)}]" if row.daimon_state else ""
        label = f"{state_label(row.state):<20}"
        out.write(f"  {label} {inert(row.session_id)}{latest}  {inert(row.cause)}{since}{daimon}\n")
        for item in row.affects:
            handle = inert(item.item_id or "-")
            out.write(f"      affects {handle} [{item.kind}] {inert(item.text, limit=80)}: {item.describe}\n")
        if row.forget_hint:
            out.write(f"      hint: {inert(row.forget_hint)}\n")
    out.write("\nRejections:\n")
    if not report.rejections:
        out.write("  (none)\n")
    for rej in report.rejections:
        kind = "cure" if rej.cure else "rejected"
        out.write(
            f"  {inert(rej.ts or '-')}  {inert(rej.item_ref or '-')}"
            f"  {inert(rej.check or '-')}/{inert(rej.reason or '-')}"
            f"  {kind}: {inert(rej.explanation)}  [{inert(rej.retained)}]\n"
        )
    out.write("\nLedgers:\n")
    for led in report.ledgers:
        detail = f" ({inert(led.detail)})" if led.detail else ""
        command = f"  → {inert(led.command)}" if led.command else ""
        out.write(f"  {led.state:<11} {inert(led.name)}{detail}{command}\n")
    for note in report.notes:
        out.write(f"{inert(note)}\n")
    for diag in report.diagnostics:
        out.write(f"{diag.level}: {inert(diag.message)}\n")
    out.write(
        f"\n{report.receipt_failures} receipt failure(s), {report.ledger_failures} unreadable ledger(s)"
        f" — exit {report.exit_code}\n"
    )


def run_audit(project: ProjectRef, *, as_json: bool, out: TextIO) -> int:
    """Print the audit of `project`; the return value is the exit code."""
    try:
        report = asyncio.run(audit_service.audit(project))
        if as_json:
            out.write(json.dumps(report_json(report), ensure_ascii=False, indent=2) + "\n")
        else:
            write_plain(report, out)
        return report.exit_code
    except Exception as exc:
        out.write(
            f"daimon-tui audit: cannot run ({inert(type(exc).__name__)}: {inert(str(exc), limit=200)})\n"
        )
        return CANNOT_RUN
