"""The briefing's first frame parses only the briefing's stylesheet: each other
view's sheet (History, Audit, Queue, Search, Health, the verbs' dialogs and the Log,
the overlays: help, the item in full, the switcher, the review's summary) is
read when its screen is first opened, so a later open's first frame does not
parse and match rules it cannot use (issue 42)."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


# The briefing's rules the first frame parses and matches (14 now; 33 when app.tcss also held the
# overlays' and Health's, which styles/overlays.tcss and styles/health.tcss hold now).
BRIEFING_RULES_AT_MOST = 14


def sheets_read(app: DaimonTUI) -> set[str]:
    """The names of the .tcss files in the app's stylesheet (DEFAULT_CSS sources are not files)."""
    return {Path(path).name for path, _ in app.stylesheet.source if str(path).endswith(".tcss")}


async def test_the_briefing_reads_only_its_sheet_and_a_view_reads_its_own_when_opened(
        demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen), what="the briefing")
        assert sheets_read(app) == {"app.tcss"}
        ours = [rule for rule in app.stylesheet.rules if not rule.is_default_rules]  # DEFAULT_CSS's are
        assert len(ours) <= BRIEFING_RULES_AT_MOST, [rule.selector_names for rule in ours]
        await settle(pilot)
        await pilot.press("2")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen), what="History")
        assert sheets_read(app) == {"app.tcss", "history.tcss"}
