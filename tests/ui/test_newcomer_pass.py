"""What a newcomer's pass over every screen found: each a behaviour that failed before its fix."""

from __future__ import annotations

from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.projects.screen import ProjectsScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (80, 24)


def make_app(store: demo.DemoStore) -> DaimonTUI:
    return DaimonTUI(project_path=str(store.project), now=NOW)


async def test_switcher_counts_what_the_briefing_header_counts(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: not app.screen.briefing.provisional, what="the confirmed briefing")
        shown = len(app.screen.briefing.items())
        await pilot.press("P")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        await wait_until(pilot, lambda: "confirming" not in str(screen.query_one("#projects-notes").render()))
        cell = screen.query_one(DataTable).get_cell_at((0, 4))
        assert str(cell) == str(shown) == "11"


async def test_ctrl_r_reloads_every_screen_that_reloads(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        loads: list[str] = []
        for view in ("1", "2", "3", "4", "5"):
            await pilot.press(view)
            await settle(pilot)
            screen = app.screen
            loads.clear()
            screen.load = lambda: loads.append("load")  # type: ignore[method-assign]
            await pilot.press("ctrl+r")
            await pilot.pause()
            assert loads, f"ctrl+r did not reload {type(screen).__name__}"
            loads.clear()
            await pilot.press("R")
            await pilot.pause()
            assert not loads, f"R still reloads {type(screen).__name__}"


async def reverify_words(demo_store: demo.DemoStore, section: str, withheld: bool) -> tuple[str, str]:
    from daimon_tui.ui.screens.verb_modals import ReverifyModal

    app = make_app(demo_store)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: not app.screen.briefing.provisional, what="the confirmed briefing")
        if withheld:
            await pilot.press("h")
            await settle(pilot)
        screen = app.screen
        while (item := screen.current_item()) is None or item.section != section or \
                (item.state == "visible") == withheld:
            await pilot.press("j")
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ReverifyModal), what="the reverify modal")
        words = (str(app.screen.query_one("#verb-title").render()),
                 str(app.screen.query_one("#verb-meaning").render()))
        await pilot.press("escape")
        return words


async def test_reverify_says_recheck_for_an_active_item(demo_store: demo.DemoStore) -> None:
    title, meaning = await reverify_words(demo_store, "decisions", withheld=False)
    assert title == "Reverify: re-check with evidence"
    assert "stale mark clears" in meaning


async def test_reverify_says_reopen_for_a_resolved_item(demo_store: demo.DemoStore) -> None:
    title, meaning = await reverify_words(demo_store, "open_loops", withheld=True)
    assert title == "Reverify: reopen with evidence"
    assert "live again" in meaning


async def test_t_on_a_retained_session_shows_the_team_as_of_that_session(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.history.screen import SessionScreen

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionScreen), what="a retained session")
        await settle(pilot)
        screen = app.screen
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.team is not None, what="the team as of the session")
        assert screen.show_team
        assert any(f"({screen.session_id}): what had reached" in note.message for note in screen.team.notes)


async def test_t_says_why_when_the_team_then_cannot_be_read(demo_store: demo.DemoStore, monkeypatch) -> None:
    from daimon_tui.ui.history import screen as history

    async def refused(project: object, when: str) -> None:
        raise ValueError("no team clone history reaches that far")

    monkeypatch.setattr(history, "_team_as_of", refused)
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, history.SessionScreen), what="a retained session")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert not app.screen.show_team
        assert any("no team clone history" in str(n.message) for n in app._notifications)


async def test_reverify_meaning_wraps_at_80_columns(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.screens.verb_modals import ReverifyModal

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ReverifyModal), what="the reverify modal")
        meaning = app.screen.query_one("#verb-meaning")
        assert meaning.size.height >= 2  # the whole sentence, on two lines
        assert meaning.region.right <= app.screen.query_one("#verb-dialog").region.right
