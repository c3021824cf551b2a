"""Issue 27 snapshots: the review's header and row markers after a verb by
daimon's CLI and a new session, and the Health view (fixed size, frozen clock)."""

from __future__ import annotations

from datetime import timedelta

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.health.screen import HealthScreen
from tests.daimon_cli import daimon
from tests.daimon_records import item_ids
from tests.ui.settle import settle, wait_until
from tests.ui.test_review import FakeClock, mark_all

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def test_markers_say_what_changed(snap_compare, demo_store: demo.DemoStore) -> None:
    import asyncio

    asyncio.run(mark_all(demo_store))
    day4 = demo.session("S-day4", demo.DEMO_NOW - timedelta(hours=1), "Retry policy rollout")
    day4["working_context"]["open_questions"] = [{"text": "Who owns the upload dashboards?", "trust": "inferred"}]
    demo.seed(demo_store.project, day4)
    nightly = item_ids(demo_store.project)["Switch the nightly job to its own bucket prefix"]
    assert daimon("resolve", nightly, "--project", str(demo_store.project)) == 0
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    # Frozen: no rest counts, however long a loaded machine takes between the keys.
    app.review_clock = FakeClock()  # type: ignore[attr-defined]

    async def run_before(pilot) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: app.screen.review.header() is not None, what="the review")
        await pilot.press("h")
        # `n` once the first row's detail is on screen again after `h` (its rest begun): the person moved
        # on before it counted, so the progress says the rule. Pressed at once, whether the detail was
        # back yet depended on the machine's load, and so did the snapshot.
        await wait_until(pilot, lambda: app.screen.review._resting is not None, what="the row's rest")
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_health_view(snap_compare, demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot, rounds=5)
        await wait_until(pilot, lambda: isinstance(app.screen, HealthScreen) and app.screen.state.report is not None,
                         what="the numbers")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
