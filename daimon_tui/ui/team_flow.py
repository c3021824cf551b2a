"""Verbs pressed on the teammates' section: only what daimon allows.

retract (x) on a teammate's item quarantines its value here, with a preview
that says whether daimon will publish it; every other verb, and restore (u)
on a teammate's quarantine, is refused with daimon's reason. Every outcome,
refusals included, goes to the action log (ids and codes only).
"""

from __future__ import annotations

from textual.app import App

from daimon_tui.domain import team_verbs, verbs
from daimon_tui.models import ProjectRef
from daimon_tui.models.team import TeamView
from daimon_tui.services import team_section
from daimon_tui.services.action_log import ActionLog
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, RetractModal
from daimon_tui.ui.widgets.team_section import TeamRow


def refuse(app: App, log: ActionLog, project: ProjectRef, verb: str, refusal: verbs.Refusal) -> verbs.Outcome:
    team_section.log_team_verb(log, project, verb, refusal.item_id, "refused", refusal.code)
    app.notify(refusal.reason, title=f"{verb}: refused", severity="error")
    return verbs.Outcome(verb=verb, status="refused", refusals=(refusal,), message=refusal.reason)  # type: ignore[arg-type]


async def run_team_verb(app: App, verb: str, row: TeamRow, project: ProjectRef, log: ActionLog,
                        team: TeamView) -> verbs.Outcome:
    if row.quarantine is not None:
        if verb == "retract":
            return verbs.Outcome(verb="retract", status="cancelled", message="already withheld by the team")
        return refuse(app, log, project, verb, team_verbs.release_refusal() if verb == "restore" else
                      verbs.Refusal(item_id="", code="teammate-quarantine",
                                    reason=f"{verb}: a teammate's quarantine has no item of yours to act on"))
    assert row.entry is not None
    refused = team_verbs.teammate_refusal(verb, row.entry, team.author)
    if refused is not None:
        return refuse(app, log, project, verb, refused)
    item_id = row.entry.item.id or ""
    data = await navigator(app).open_and_wait(RetractModal((item_id,)))
    if not isinstance(data, verbs.RetractInput):
        return verbs.Outcome(verb="retract", status="cancelled")
    plan = await team_section.plan_teammate_retract(row.entry, project, data, team.publishes_to)
    if not plan.allowed:
        return refuse(app, log, project, verb, plan.refusals[0])
    if not await navigator(app).open_and_wait(PlanPreviewModal(plan)):
        return verbs.Outcome(verb="retract", status="cancelled")
    result = await team_section.quarantine_teammate_value(row.entry, data.reason, data.evidence,
                                                          project=project)
    outcome = {"applied": "applied", "refused": "refused", "failed": "failed"}.get(result.outcome, "not-applied")
    team_section.log_team_verb(log, project, verb, item_id, outcome, result.code, result)
    ok = result.outcome == "applied"
    message = result.message or (f"quarantined {item_id}'s value ({result.ref})" if ok else result.code)
    app.notify(message, title="Retract" if ok else f"Retract: {outcome}",
               severity="error" if not ok else ("warning" if result.code else "information"))
    return verbs.Outcome(verb="retract", status="applied" if ok else outcome,  # type: ignore[arg-type]
                         results=(result,), message=message)
