"""The briefing screen: navigation, filter, detail pane, withheld, help, projects."""

from __future__ import annotations

from daimon_briefing import api
from daimon_briefing import briefing as daimon_briefing
from textual.command import CommandList
from textual.widgets import Input

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.help.screen import HelpScreen
from daimon_tui.ui.projects.screen import ProjectsScreen
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.row_list import RowList
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def make_app(store: demo.DemoStore) -> DaimonTUI:
    return DaimonTUI(project_path=str(store.project), now=NOW)


def detail_text(app: DaimonTUI) -> str:
    return app.screen.query_one(ItemDetail).plain()


async def test_cursor_moves_and_detail_follows(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        first = screen.current_item()
        assert first is not None and first.section == "decisions"
        await pilot.press("j", "j", "j")
        await settle(pilot)
        item = screen.current_item()
        assert item is not None and item.text == "Keep the upload worker single-threaded for now"
        shown = detail_text(app)
        assert "keep it single-threaded for now" in shown
        assert "carried 10d" in shown
        assert "trust inspector" in shown and "witness" in shown
        await pilot.press("k")
        await settle(pilot)
        assert screen.current_item().text == "Log every retry attempt with its attempt number"
        # The list has no scrollbar: its border says where the cursor is.
        assert str(screen.query_one("#items-box").border_subtitle) == f"3 / {len(screen.rows)}"


async def test_section_headers_are_skipped(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        sections = []
        for _ in range(len(screen.briefing.items())):
            sections.append(screen.current_item().section)
            await pilot.press("j")
        # daimon's own section order, as its render prints the sections.
        rendered = api.render_briefing(str(demo_store.project), now=NOW).text
        headers = daimon_briefing.SECTION_HEADERS
        printed = sorted((k for k in headers if headers[k] in rendered), key=lambda k: rendered.index(headers[k]))
        assert len(printed) == 6 and list(dict.fromkeys(sections)) == printed


async def test_filter_by_words_and_facets(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"trust:verbatim", "enter")
        await settle(pilot)
        assert {r.item.mark for r in screen.rows} == {"verbatim"}
        assert isinstance(app.focused, RowList)
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"bucket carried", "enter")
        await settle(pilot)
        texts = {r.item.text for r in screen.rows}
        assert texts == {"Whether the staging bucket is shared with the nightly job"}
        await pilot.press("slash", "escape")
        await settle(pilot)
        assert len(screen.rows) == len(screen.briefing.items())


async def test_withheld_items_toggle(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        visible = len(screen.rows)
        await pilot.press("h")
        await settle(pilot)
        states = [r.item.state if r.item else r.withheld.state for r in screen.rows[visible:]]
        assert states == ["resolved", "quarantined"]
        await pilot.press("h")
        await settle(pilot)
        assert len(screen.rows) == visible


async def test_help_lists_every_key(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)


async def test_project_switch(demo_store: demo.DemoStore) -> None:
    other = demo_store.root / "other"
    other.mkdir()
    cp = demo.session("S-other", demo.DEMO_NOW, "Another project")
    cp["working_context"]["recent_decisions"] = [{"text": "Use tabs in the other project", "trust": "inferred"}]
    demo.seed(other, cp)
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("P")
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        names = [p.name for p in app.screen.state.projects]
        assert sorted(names) == ["other", "proj"]
        index = names.index("other")
        for _ in range(index):
            await pilot.press("down")  # the letters type into the switcher's filter
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        assert [i.text for i in app.screen.briefing.items()] == ["Use tabs in the other project"]


async def test_no_checkpoint_lists_projects(empty_store: demo.DemoStore) -> None:
    app = make_app(empty_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        assert "No daimon checkpoint" in str(app.screen.query_one("#projects-title").render())


async def test_esc_on_the_projects_screen_with_nothing_under_it_ends_the_app_with_status_1(
    empty_store: demo.DemoStore,
) -> None:
    """No checkpoint, no briefing under the switcher: Esc closes it and ends the app with
    exit status 1 (the code, not the app's result: `App.exit(1)` would exit 0)."""
    app = make_app(empty_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProjectsScreen)
        await pilot.press("escape")
        await settle(pilot)
    assert app.return_code == 1


async def test_marks_are_kept_per_item(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("space", "space")
        assert len(screen.marked) == 2
        assert list(screen.target_ids()) == [r.item.id for r in screen.rows[:2]]


async def test_command_palette_runs_screen_actions(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        visible = len(screen.rows)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"withheld")
        await wait_until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0, what="palette matches")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.show_withheld and len(screen.rows) > visible


async def test_notifications_never_parse_markup(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.notify("[@click=app.quit]id[/] from the store")
        await pilot.pause()
        notification = list(app._notifications)[-1]
        assert notification.markup is False
        assert notification.message == "[@click=app.quit]id[/] from the store"


async def test_enter_shows_the_whole_text(demo_store: demo.DemoStore) -> None:
    from textual.widgets import TextArea

    from daimon_tui.ui.item.full_text import FullTextScreen

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        item = app.screen.current_item()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, FullTextScreen)
        assert item.text in app.screen.query_one(TextArea).text
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FullTextScreen)


async def test_a_read_that_returns_to_a_closing_screen_is_dropped(demo_store: demo.DemoStore) -> None:
    # Workers call `show` after a read; if the screen is being torn down (quit,
    # another project) its widgets are gone, and the answer is simply dropped.
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        briefing = screen.briefing
        await screen.query_one("#briefing-body").remove()
        await screen.query_one("#briefing-header").remove()
        screen.show(briefing)
        screen.rebuild()
        assert screen.current_row() is None
        await pilot.pause()
        assert app.is_running
