"""The receipt audit of one project: each session's receipt, daimon's
rejections and each ledger's health, read-only (`domain.audit_report`).

`daimon-tui audit` reads it in its own process (`audit`). The audit screen
asks the judging child, which runs the same read (`store.read.audit`) over
the ledgers it folds and keeps (`audit_by_child`).
"""

from __future__ import annotations

import asyncio

from daimon_tui.domain.audit_report import AuditReport
from daimon_tui.models import ProjectRef


async def audit(project: ProjectRef) -> AuditReport:
    """The project's audit, read in this process. Raises what the read
    raises (a daimon that cannot be read): the view says it cannot run."""
    # daimon is imported here, not with the view: a broken daimon is a failed audit, not a failed start
    from daimon_tui.store.read.audit import load_audit

    return await asyncio.to_thread(load_audit, project)


async def audit_by_child(project: ProjectRef) -> AuditReport:
    """The project's audit, read by the judging child; if the child fails,
    the same read in a thread of this process."""
    from daimon_tui.store.child import judge_service  # the child's client, imported when the view first asks

    report, _failure = await judge_service.read("audit", project)
    return report
