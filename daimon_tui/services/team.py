"""The teammates' memory on this machine now: what reached the team clones,
judged by daimon (`store.read.team`). As of a time: `as_of.team_as_of`."""

from __future__ import annotations

import asyncio

from daimon_tui.models import ProjectRef
from daimon_tui.models.team import TeamView


async def team_now(project: ProjectRef, *, now: float | None = None) -> TeamView:
    from daimon_tui.store.read.team import load_team  # daimon is imported when the team is asked for

    return await asyncio.to_thread(load_team, project, now=now)
