"""Issue 27: the review remembers where the person stopped, under Pilot."""

from __future__ import annotations

import contextlib
import io
from datetime import timedelta
from unittest import mock

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


async def reopen(store: demo.DemoStore, clock: FakeClock | None = None) -> tuple[dict[str, str], str, int]:
    """Open the app on the store and return what is new, the header and the rows."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    app.review_clock = clock or FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        await pilot.press("h")
        await settle(pilot)
        return new_keys(screen), header(screen), len(screen.rows)


async def mark_all(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        await pilot.press("h")  # the withheld rows too
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        assert "nothing new since your last review" in header(screen)


class Terminal(io.StringIO):
    """daimon's human verbs want a terminal at stdin (a person at a keyboard)."""

    def isatty(self) -> bool:
        return True


def daimon(*argv: str) -> int:
    """daimon's own CLI, in process, as a person at a terminal runs it."""
    from daimon_briefing import cli as daimon_cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            mock.patch("sys.stdin", Terminal()):
        return daimon_cli.main(list(argv))


async def test_a_daimon_cli_verb_and_a_new_session_are_new_with_what_changed(demo_store: demo.DemoStore) -> None:
    from tests.daimon_records import item_ids

    await mark_all(demo_store)
    day4 = demo.session("S-day4", demo.DEMO_NOW - timedelta(hours=1), "Retry policy rollout")
    day4["working_context"]["open_questions"] = [{"text": "Who owns the upload dashboards?", "trust": "inferred"}]
    demo.seed(demo_store.project, day4)  # a new session, by daimon's own testing helpers
    ids = item_ids(demo_store.project)
    nightly = ids["Switch the nightly job to its own bucket prefix"]
    assert daimon("resolve", nightly, "--project", str(demo_store.project)) == 0
    new, head, _rows = await reopen(demo_store)
    assert new[nightly].startswith("now resolved")
    assert new[ids["Who owns the upload dashboards?"]] == "new"
    # carried on: S-day4 did not restate it
    assert "+⟳ carried" in new[ids["Ship the retry change behind the UPLOAD_RETRY flag"]]
    assert f"{len(new)} new since your last review" in head
