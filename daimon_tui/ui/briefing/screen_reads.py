"""What other modules read off the briefing screen: the view's state (`state.BriefingState`) and
its controllers' findings, as the screen's properties (no key, no handler: those are the screen's own).
A setter that changes what the list shows rebuilds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.models import Briefing
    from daimon_tui.models.details import ItemDetails
    from daimon_tui.models.team import TeamView
    from daimon_tui.ui.briefing.detail_pane import DetailPane
    from daimon_tui.ui.briefing.state import BriefingState
    from daimon_tui.ui.briefing.team_feed import TeamFeed
    from daimon_tui.ui.briefing.world_checks import WorldChecks
    from daimon_tui.ui.widgets.briefing_rows import Row


class ScreenReads(Screen):
    """The base of `screen.BriefingScreen`, which holds what these read."""

    state: BriefingState
    team_feed: TeamFeed
    detail_pane: DetailPane
    world_checks: WorldChecks

    if TYPE_CHECKING:
        def rebuild(self, *, filtered: bool = False) -> None: ...

    @property
    def briefing(self) -> Briefing | None:
        return self.state.briefing

    @property
    def provisional(self) -> bool:
        """True while any verdict on screen is not daimon's fresh judgement (the
        benchmark's hook); the header and each row say so too."""
        return self.state.provisional

    @provisional.setter
    def provisional(self, value: bool) -> None:
        self.state.provisional = value

    @property
    def filter_text(self) -> str:
        return self.state.filter_text

    @filter_text.setter
    def filter_text(self, text: str) -> None:
        if text != self.state.filter_text:
            self.state.filter_text = text
            self.rebuild(filtered=True)

    @property
    def show_withheld(self) -> bool:
        return self.state.show_withheld

    @show_withheld.setter
    def show_withheld(self, shown: bool) -> None:
        if shown != self.state.show_withheld:
            self.state.show_withheld = shown
            self.rebuild()

    @property
    def show_team(self) -> bool:
        return self.state.show_team

    @show_team.setter
    def show_team(self, shown: bool) -> None:
        if shown != self.state.show_team:
            self.state.show_team = self.team_feed.shown = shown
            self.rebuild()

    @property
    def rows(self) -> list[Row]:
        return self.state.rows

    @property
    def marked(self) -> set[str]:
        return self.state.marked

    @property
    def details(self) -> dict[str, ItemDetails]:
        return self.detail_pane.details

    @property
    def provisional_details(self) -> dict[str, ItemDetails]:
        return self.detail_pane.provisional_details

    @property
    def world(self) -> dict[str, tuple[ItemResult, float]]:
        return self.world_checks.results

    @property
    def team(self) -> TeamView | None:
        return self.team_feed.team
