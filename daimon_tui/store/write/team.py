"""The one write daimon allows a person on a teammate's item: a local
quarantine of its value (`trust.propose` on the human `ui` channel), which
daimon publishes to the team when the team is on.

daimon resolves and explains (`why`) ids of the reader's own checkpoint only,
and a teammate's published quarantine is released by its author alone; those
are refused in `domain.team_verbs`, never attempted here.
"""

from __future__ import annotations

from daimon_tui.domain import team_verbs, verbs
from daimon_tui.models import ProjectRef
from daimon_tui.models.team import TeamItem
from daimon_tui.store.daimon_api.public import trust
from daimon_tui.store.write import plans, writer


def plan_quarantine(entry: TeamItem, project: ProjectRef, data: verbs.RetractInput,
                    publishes_to: tuple[str, ...]) -> verbs.Plan:
    """daimon's retract rules over the teammate's value, with the team effect in the preview."""
    return team_verbs.plan_teammate_retract(project.slug, entry, plans.store_guard(project), data, publishes_to,
                                            plans.value_refusal(entry.item.text))


def quarantine_value(entry: TeamItem, reason: str, evidence: tuple[str, ...], *,
                     project: ProjectRef) -> verbs.WriteResult:
    """Quarantine the teammate's value in this project; `applied` only when daimon's
    ledger holds it active afterwards. A publish that failed is reported, not hidden."""
    item_id = entry.item.id or ""

    def write() -> verbs.WriteResult:
        plan = team_verbs.plan_teammate_retract(project.slug, entry, plans.store_guard(project),
                                                verbs.RetractInput(reason=reason, evidence=evidence), (),
                                                plans.value_refusal(entry.item.text))
        if not plan.allowed:
            refusal = plan.refusals[0]
            raise writer._Refused(refusal.code, refusal.reason)
        qid = trust.propose(text=entry.item.text, kind=entry.item.kind, reason=reason, evidence=list(evidence),
                            channel="ui", item_id=item_id, project_dir=project.target)
        record = trust.get(str(qid), project_dir=project.target) or {}
        ok = record.get("state") == "active"
        failed = ", ".join(sorted({f.remote or str(f.path) for f in qid.published.failed}))
        message = "" if ok else f"daimon does not hold {qid} active after the quarantine"
        if ok and failed:
            message = f"quarantined here, but not published to {failed}: run `daimon trust republish`"
        return writer._result(item_id, "quarantine", "applied" if ok else "not-applied",
                              code="" if ok and not failed else ("not-published" if ok else "state-unchanged"),
                              message=message, ledger=verbs.TRUST, ref=str(qid),
                              ts=writer._quarantine_record_ts(project, str(qid)),
                              before="active", after="quarantined" if ok else "active")

    return writer._guarded(item_id, "quarantine", verbs.TRUST, project, write)
