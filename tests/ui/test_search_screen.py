"""The Search view (6): as-you-type hits, toggles, Enter, verbs on live hits only."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from daimon_tui.models.search import SearchHit
from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.help.screen import HelpScreen
from daimon_tui.ui.search.screen import HitSessionScreen, SearchScreen, hit_detail, hit_row
from daimon_tui.ui.widgets.row_list import RowList
from tests.team_store import BOB_TOPIC, BOB_VERBATIM, TeamStore
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


async def _search(pilot, text: str) -> SearchScreen:  # type: ignore[no-untyped-def]
    await pilot.press("6")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SearchScreen)
    await pilot.press(*text)
    await settle(pilot, rounds=4)
    return screen


def _select(screen: SearchScreen, start: str) -> None:
    index = next(n for n, h in enumerate(screen.state.hits) if h.text.startswith(start))
    screen.query_one("#search-hits").highlighted = index  # type: ignore[attr-defined]


async def test_hits_as_you_type_then_escape_leaves_the_box_then_goes_back(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "retry")
        assert screen.state.result is not None and screen.state.result.query == "retry"
        assert {h.state for h in screen.state.hits} >= {"resolved", "carried", "not carried"}
        await pilot.press("space", "u", "p", "l", "o", "a", "d")
        await settle(pilot, rounds=4)
        assert screen.state.result.query == "retry upload"
        await pilot.press("ctrl+o")
        await settle(pilot, rounds=4)
        assert screen.state.all_projects and screen.state.result.all_projects
        await pilot.press("escape")  # leaves the box: the query and its hits stay
        await settle(pilot)
        assert app.screen is screen and screen.state.hits and screen.query_one("#search-hits").has_focus
        assert screen.query_one("#search-box").value == "retry upload"  # type: ignore[attr-defined]
        await pilot.press("escape")  # back to the briefing
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and app.is_running


async def test_one_escape_leaves_the_box_so_the_next_view_key_acts(demo_store: demo.DemoStore) -> None:
    """Issue 40 point 10: one Esc only cleared the query, so the next view key
    was typed into the box; one Esc leaves the input (as in k9s and lazygit)."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "retry")
        box = screen.query_one("#search-box")
        await pilot.press("escape", "1")
        await settle(pilot)
        assert box.value == "retry"  # type: ignore[attr-defined]
        assert type(app.screen) is BriefingScreen


async def test_enter_opens_a_live_hit_in_the_briefing_and_an_old_one_in_its_session(
        demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "retry")
        _select(screen, "Log every retry attempt")
        await pilot.press("tab", "enter")
        await settle(pilot)
        briefing = app.screen
        assert type(briefing) is BriefingScreen
        current = briefing.current_item()
        assert current is not None and current.text.startswith("Log every retry attempt")
        screen = await _search(pilot, "gzip")
        _select(screen, "Whether gzip uploads")
        await pilot.press("tab", "enter")
        await settle(pilot, rounds=4)
        session = app.screen
        assert isinstance(session, HitSessionScreen) and session.session_id == "S-day1"
        current = session.current_item()
        assert current is not None and current.text.startswith("Whether gzip uploads")


async def test_a_verb_on_an_old_hit_is_refused_and_logged_on_a_live_one_goes_to_the_briefing(
        demo_store: demo.DemoStore, private_action_log: Path) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "gzip")
        await pilot.press("tab", "r")
        await settle(pilot)
        assert app.screen is screen
        log = private_action_log.read_text()
        assert '"refused"' in log and "gzip" not in log
        await pilot.press("escape")
        await settle(pilot)
        screen = await _search(pilot, "retry")
        _select(screen, "Log every retry attempt")
        await pilot.press("tab", "r")
        await settle(pilot)
        # The briefing's own verb flow asks (its resolve modal); Esc cancels it.
        assert not isinstance(app.screen, SearchScreen | BriefingScreen)
        assert type(app.screen_stack[1]) is BriefingScreen
        current = app.screen_stack[1].current_item()
        assert current is not None and current.text.startswith("Log every retry attempt")
        await pilot.press("escape")
        await settle(pilot)


async def test_a_query_that_asks_the_same_is_not_asked_again(demo_store: demo.DemoStore, monkeypatch) -> None:
    asked: list[str] = []
    real = judge_service.read

    async def counting(what: str, *args: object):  # type: ignore[no-untyped-def]
        if what == "search":
            asked.append(str(args[1]))
        return await real(what, *args)

    monkeypatch.setattr(judge_service, "read", counting)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "retry")
        hits = list(screen.state.hits)
        await pilot.press("space")
        await settle(pilot, rounds=4)
        assert asked[-1] == "retry" and screen.state.result.query == "retry " and screen.state.hits == hits
        await pilot.press("u")
        await settle(pilot, rounds=4)
        assert asked[-1] == "retry u"
        await pilot.press("ctrl+o")
        await settle(pilot, rounds=4)
        assert asked[-1] == "retry u" and len(asked) == len(set(asked)) + 1 and screen.state.result.all_projects


async def test_in_the_box_every_key_types_and_tab_leaves_it_for_the_view_keys(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "429")  # a view key in the box is part of the query
        box = screen.query_one("#search-box")
        assert app.screen is screen and box.value == "429" and box.has_focus  # type: ignore[attr-defined]
        assert "every key types" in str(screen.query_one("#search-status").render())
        await pilot.press("tab")
        await settle(pilot)
        assert screen.query_one("#search-hits").has_focus
        assert "view keys 1-6 work" in str(screen.query_one("#search-status").render())
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        own = app.screen.query(Static)[0].content  # the screen's own keys, a rich Table
        said = " ".join(str(c) for c in own.columns[1]._cells)
        assert "where every key types (digits too)" in said and "the view keys (1-6)" in said
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("shift+tab")  # back to the box: digits type again
        await pilot.press("1")
        await settle(pilot, rounds=4)
        assert app.screen is screen and box.value == "4291"  # type: ignore[attr-defined]
        await pilot.press("tab", "1")
        await settle(pilot)
        assert type(app.screen) is BriefingScreen


async def test_a_teammates_hits_come_under_a_heading_of_the_shared_project(team_store: TeamStore) -> None:
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "importer")
        rows = screen.query_one("#search-hits", RowList).entries
        headings = [n for n, e in enumerate(rows) if e.key is None]
        assert len(headings) == 1
        assert "teammate bob · this project, shared (filed under" in rows[headings[0]].prompt.plain
        below = [screen.state.hits[e.key].text for e in rows[headings[0] + 1:] if e.key is not None]
        assert set(below) == {BOB_TOPIC, BOB_VERBATIM}
        await pilot.press("tab")
        await settle(pilot)
        assert screen.current() is not None and screen.current().author == "bob"  # type: ignore[union-attr]
        assert "shared (daimon files it under" in str(screen.query_one("#search-detail").render())


async def test_an_answer_that_leaves_the_hits_as_they_were_keeps_the_cursor(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _search(pilot, "retry")
        await pilot.press("tab", "down", "down")
        await settle(pilot)
        hits = screen.query_one("#search-hits", RowList)
        at = hits.highlighted
        assert at is not None and at > 0
        await pilot.press("shift+tab", "space")  # "retry " asks daimon what "retry" asked
        await settle(pilot, rounds=4)
        assert screen.state.result is not None and screen.state.result.query == "retry "
        assert hits.highlighted == at


def test_stored_text_is_shown_inert() -> None:
    hit = SearchHit(item_id="r-1", text="[bold]x[/bold] \x1b[31mred \u202eevil", quote="[link=http://a]q[/link]",
                    kind="decision", mark="inferred", state="superseded",
                    state_detail="superseded by [red]r-2[/red]", author="\x1b]8;;x\x07me")
    row, detail = hit_row(hit).plain, hit_detail(hit).plain
    for text in (row, detail):
        assert "[bold]x[/bold]" in text and "\x1b" not in text and "\u202e" not in text
    assert "[link=http://a]q[/link]" in detail and "superseded by [red]r-2[/red]" in detail


def test_the_hits_columns_line_up_whatever_each_hits_mark() -> None:
    """`[? unverified]` is wider than `[~ inferred]`: the kind, state and text
    columns still start at the same place on every row."""
    from daimon_tui.ui.search.screen import hit_entries

    hits = [SearchHit(item_id=f"r-{n}", text="the text", kind="decision", mark=mark, state="carried")
            for n, mark in enumerate(("inferred", "untagged", "verbatim", "unverified-verbatim"))]
    rows = [entry.prompt.plain for entry in hit_entries(hits, set())]
    assert len({row.index("decision") for row in rows}) == 1, rows
    assert len({row.index("the text") for row in rows}) == 1, rows


def test_search_snapshot(snap_compare, demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press(*"retry", "tab", "down", "down")
        await settle(pilot, rounds=4)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
