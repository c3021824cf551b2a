"""The briefing widgets, read-only: a retained session opened from History, or
the briefing as it stood at a past moment. No verb, mark or world-check binding
is active here, and a banner says which record is shown."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.models.team import TeamView
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.briefing.team_feed import TeamFeed
from daimon_tui.ui.navigation import GoesBack, navigator
from daimon_tui.ui.read_worker import work

# Everything that writes, marks for a write, or probes the world now.
DISABLED_ACTIONS = frozenset({"verb", "mark", "world_check", "reload"})


class ReadOnlyBriefingScreen(GoesBack, BriefingScreen):
    VIEW_NAME = "Read-only briefing"
    BINDINGS: ClassVar[list[BindingType]] = bindings({"Read-only"})
    LATEST: ClassVar[bool] = False

    def __init__(
        self,
        project: ProjectRef,
        *,
        loader: Callable[[], Awaitable[Briefing]],
        banner: str,
        now: float | None = None,
        inspect_today: bool = True,
        team_loader: Callable[[], Awaitable[TeamView]],
    ) -> None:
        # The teammates as they stood for this record (today's team beside a
        # past record would mislead).
        self.team_loader = team_loader
        super().__init__(project, now=now)
        self.loader = loader
        self.banner = banner
        self.writes_disabled = False  # nothing here writes: the banner says read-only
        # daimon's inspector reads today's store: useful beside a retained
        # session, misleading beside a past moment.
        self.detail_pane.inspect_today = inspect_today

    def make_team_feed(self) -> TeamFeed:
        return TeamFeed(self.project, self.now, loader=self.team_loader)

    def compose(self) -> ComposeResult:
        yield Static(Text(f"↺ {inert(self.banner, limit=200)} — read-only, verbs disabled", style="bold reverse"),
                     id="readonly-banner")
        yield from super().compose()

    def ages_at(self) -> float | None:
        # A record as written, or as it stood then: ages from today would mislead.
        return None

    def escape_fallback(self) -> None:
        navigator(self.app).back(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action not in DISABLED_ACTIONS

    @work(exclusive=True, group="briefing-load")
    async def load(self, repaint: bool = True, delay: float = 0.0) -> None:
        try:
            briefing = await self.loader()  # a service: it reads in a thread of its own
        except ValueError as exc:
            self.header.update(Text(f"⚠ {inert(str(exc))}", style="yellow"))
            return
        self.provisional = False
        self.show(briefing)
