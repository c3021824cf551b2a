"""Issue 27: the review remembers where the person stopped, under Pilot."""

from __future__ import annotations

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.review_place import review_path
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.briefing import BriefingScreen
from daimon_tui.ui.widgets.review_tracker import DWELL_S, row_review_key
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


class FakeClock:
    """The dwell's clock, moved by the test instead of sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def header(screen: BriefingScreen) -> str:
    return str(screen.query_one("#briefing-header").render())


async def open_app(pilot_app: DaimonTUI, pilot) -> BriefingScreen:
    await settle(pilot, rounds=4)
    screen = pilot_app.screen
    assert isinstance(screen, BriefingScreen)
    await wait_until(pilot, lambda: screen.review.header() is not None, what="the review's header")
    return screen


async def read_every_row(pilot, screen: BriefingScreen, clock: FakeClock) -> None:
    """Rest on each row long enough (the clock moves, nobody sleeps), then move on."""
    seen = 0
    for _ in range(len(screen.rows) + 1):
        await settle(pilot, rounds=1)
        await wait_until(pilot, lambda: screen.review._resting is not None, what="the detail at rest")
        clock.now += DWELL_S + 0.1
        seen += 1
        if seen >= len(screen.rows):
            screen.review.leave()
            break
        await pilot.press("j")


def new_keys(screen: BriefingScreen) -> dict[str, str]:
    return dict(screen.review.left())


async def test_first_open_everything_new_then_nothing_after_reading(demo_store: demo.DemoStore) -> None:
    clock = FakeClock()
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = clock  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        total = len(screen.briefing.items())
        assert f"{total} new since your last review" in header(screen)
        assert set(new_keys(screen).values()) == {"new"}
        assert screen.query_one("#items-box").border_title == f"0 of {total} reviewed"
        await read_every_row(pilot, screen, clock)
        await settle(pilot)
        assert "nothing new since your last review" in header(screen)
        assert screen.query_one("#items-box").border_title == f"{total} of {total} reviewed"
    path = review_path(app.project.slug)
    assert path.is_file()
    text = path.read_text()
    assert all(i.text not in text for i in screen.briefing.items())  # ids and hashes only
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        assert "nothing new since your last review" in header(screen)
