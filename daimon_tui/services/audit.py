"""The receipt audit of one project: each session's receipt, daimon's
rejections and each ledger's health, read-only (`domain.audit_report`).

`daimon-tui audit` reads it in its own process. The audit screen still asks
the judging child itself, which runs the same read (`store.read.audit`): to
come here with the other child requests.
"""

from __future__ import annotations

from daimon_tui.domain.audit_report import AuditReport
from daimon_tui.records import ProjectRef


def audit(project: ProjectRef) -> AuditReport:
    """The project's audit, read in this process. Raises what the read
    raises (a daimon that cannot be read): the view says it cannot run."""
    # daimon is imported here, not with the view: a broken daimon is a failed audit, not a failed start
    from daimon_tui.store.read.audit import load_audit

    return load_audit(project)
