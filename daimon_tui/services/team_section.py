"""The briefing's team section (`t`): the teammates' memory folded by the
judging child and re-read when the team copy changes, and the one verb on a
teammate's row, retract (its plan, its write, its log line). The team read in
this process: `team.team_now`; as of a time: `as_of.team_as_of`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import LoggedRecord
from daimon_tui.models import ProjectRef
from daimon_tui.models.team import TeamItem, TeamView
from daimon_tui.store.action_log import ActionLog

_OPS: dict[str, verbs.Op] = {"resolve": "resolve", "retract": "quarantine", "restore": "release",
                             "reverify": "reverify", "forget": "forget"}


async def team_judged(project: ProjectRef, now: float | None) -> TeamView:
    """The teammates' memory, folded by the judging child (which holds the reader's ledgers)."""
    from daimon_tui.store.child import judge_service

    team, _failure = await judge_service.read("team", project, now)
    return team


async def team_copy_changes(on_fallback: Callable[[str], None]) -> AsyncIterator[None]:
    """One item per burst of changes to the team copy (a sync in another
    terminal); `on_fallback` is told when the watch falls back to polling."""
    from daimon_tui.store.read import team_live

    root = await asyncio.to_thread(team_live.team_root)
    async for batch in team_live.watch_team(root, on_fallback=on_fallback):
        yield batch


def log_team_verb(log: ActionLog, project: ProjectRef, verb: str, item_id: str, outcome: str, code: str,
                  result: verbs.WriteResult | None = None) -> None:
    """A verb on a teammate's row, refusals included, in the action log (ids and codes only)."""
    records = (verbs.logged_records(result) if result is not None
               else (LoggedRecord(item_id=item_id, op=_OPS.get(verb, "resolve"), outcome="refused", reason=code),))
    # An unwritable log loses no write: the notification still says what happened.
    with contextlib.suppress(OSError):
        log.record(project=project.slug, verb=verb, outcome=outcome,  # type: ignore[arg-type]
                   item_ids=(item_id,) if item_id else (), reason=code, records=records)


async def plan_teammate_retract(entry: TeamItem, project: ProjectRef, data: verbs.RetractInput,
                                publishes_to: tuple[str, ...]) -> verbs.Plan:
    """daimon's retract rules over the teammate's value, with the team effect in the preview."""
    from daimon_tui.store.write import team as team_write

    return await asyncio.to_thread(team_write.plan_quarantine, entry, project, data, publishes_to)


async def quarantine_teammate_value(entry: TeamItem, reason: str, evidence: tuple[str, ...], *,
                                    project: ProjectRef) -> verbs.WriteResult:
    """Quarantine the teammate's value here; `applied` only when daimon's ledger holds it afterwards."""
    from daimon_tui.store.write import team as team_write

    return await asyncio.to_thread(team_write.quarantine_value, entry, reason, evidence, project=project)
