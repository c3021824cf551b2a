"""The teammates' memory behind the briefing's `t` section: read when first
shown, re-read when the team copy changes (a sync in another terminal)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual.message import Message

from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.read_worker import work

# `services.team_section` (and `domain.verbs` under it) is imported when the team is first read:
# a later open's first frame shows no team.
if TYPE_CHECKING:
    from daimon_tui.models.team import TeamView
    from daimon_tui.ui.widgets.team_section import TeamRow


class TeamFeed(Controller):
    """A controller of a briefing screen (`ui.controller`): the list shows its rows (widgets.team_section)."""

    class Changed(Message):
        """A new read of the team landed (or the section cannot be shown: `failed`)."""

        def __init__(self, failed: bool = False) -> None:
            super().__init__()
            self.failed = failed

    def __init__(self, project: ProjectRef, now: float | None, *,
                 loader: Callable[[], Awaitable[TeamView]] | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        # A fixed record (a past moment, a retained session) has its own loader and no live copy.
        self.loader = loader
        self.team: TeamView | None = None
        self.live_started = False
        self.shown = False

    @work(exclusive=True, group="team-load")
    async def load(self, delay: float = 0.0) -> None:
        if self.loader is not None:
            try:
                team = await self.loader()
            except (OSError, ValueError) as exc:  # an as-of cut that cannot be made: say so, keep the briefing
                self.notify(f"The teammates' memory then cannot be shown: {inert(str(exc), limit=200)}",
                            severity="warning")
                self.post_message(self.Changed(failed=True))
                return
        else:
            if not self.live_started:
                self.live_started = True
                self.watch_copy()
            if delay:
                await asyncio.sleep(delay)
            from daimon_tui.services import team_section

            # The judging child folds the reader's ledgers for the team view too.
            team = await team_section.team_judged(self.project, self.now)
        if self.is_attached:
            self.team = team
            self.post_message(self.Changed())

    @work(exclusive=True, group="verb")
    async def act(self, verb: str, row: TeamRow, team: TeamView) -> None:
        """A verb on a teammate's row (`ui.team_flow`); applied, the briefing and the team are read again."""
        from daimon_tui.ui.team_flow import run_team_verb

        outcome = await run_team_verb(self.app, verb, row, self.project, self.app.action_log,  # type: ignore[attr-defined]
                                      team)
        if outcome.status == "applied":
            self.host.load()  # type: ignore[attr-defined]
            self.load()

    @work(exclusive=True, group="team-live")
    async def watch_copy(self) -> None:
        """A sync in another terminal shows without a key: re-read the team copy
        when it changes (hidden, the next `t` reads it afresh)."""
        from daimon_tui.services import team_section

        def fell_back(message: str) -> None:
            self.notify(message, severity="warning")

        async for _batch in team_section.team_copy_changes(fell_back):
            if not self.is_attached:
                return
            if self.shown:
                self.load(delay=0.1)  # exclusive: a burst of batches costs one read
            else:
                self.team = None
