"""Issue 28, point 13: the project switcher and the other views (filters,
closing hints, the footer at 80 columns)."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Footer
from textual.widgets._footer import FooterKey

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.widgets.filter_box import FILTER_DEBOUNCE_S
from tests.ui.settle import press_settled, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
NARROW = (80, 24)


def footer_keys(app: DaimonTUI) -> list[FooterKey]:
    """The keys the footer shows (a key it left out is not displayed)."""
    footer = app.screen.query_one(Footer)
    return [k for k in footer.query(FooterKey) if k.display]


def assert_whole(app: DaimonTUI) -> None:
    footer = app.screen.query_one(Footer)
    shown = footer_keys(app)
    assert shown, "the footer shows no key"
    for key in shown:  # a key past the edge is cut mid-word
        assert key.region.right <= footer.region.right, (key.key, key.description, key.region)


async def test_the_footer_fits_at_80_columns_with_whole_keys(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: bool(app.screen.query(Footer)) and bool(footer_keys(app)), what="footer")
        await pilot.pause()
        assert_whole(app)
        assert footer_keys(app)[0].key == "question_mark"  # the lower-priority keys went, not help
        # wider again: the keys left out come back
        await pilot.resize_terminal(200, 24)
        await settle(pilot)
        assert len(footer_keys(app)) > 8
        assert_whole(app)


async def test_the_footer_stays_while_filtering_and_says_what_acts(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await press_settled(pilot, "slash", "r", "e")
        assert isinstance(app.screen, BriefingScreen) and app.screen.filter_box.has_focus
        await wait_until(pilot, lambda: bool(footer_keys(app)), what="a footer while filtering")
        said = {k.key: k.description for k in footer_keys(app)}
        assert "escape" in said and "enter" in said, said
        assert_whole(app)
        await press_settled(pilot, "escape")
        assert app.screen.filter_box.value == "" and not app.screen.filter_box.display


def table_rows(app: DaimonTUI, selector: str) -> list[str]:
    table = app.screen.query_one(selector, DataTable)
    return [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


async def type_filter(pilot, words: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("slash", *[{" ": "space", "-": "minus"}.get(c, c) for c in words])
    await pilot.pause(FILTER_DEBOUNCE_S + 0.1)
    await settle(pilot)


async def test_history_filters_its_sessions_and_esc_clears_then_goes_back(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await press_settled(pilot, "2")
        assert isinstance(app.screen, HistoryScreen)
        every = table_rows(app, "#history-table")
        assert len(every) == 3
        await type_filter(pilot, "day2")
        assert [r for r in table_rows(app, "#history-table")] == [r for r in every if "S-day2" in r]
        await press_settled(pilot, "enter")  # keeps the filter, the table takes the keys back
        assert len(table_rows(app, "#history-table")) == 1
        assert isinstance(app.focused, DataTable)
        await press_settled(pilot, "escape")  # clears the filter, stays
        assert isinstance(app.screen, HistoryScreen) and table_rows(app, "#history-table") == every
        await type_filter(pilot, "-day2")
        assert len(table_rows(app, "#history-table")) == 2
        await press_settled(pilot, "escape", "escape")  # clears, then back
        assert isinstance(app.screen, BriefingScreen)


async def test_the_log_filters_its_actions(demo_store: demo.DemoStore, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from daimon_tui.store.action_log import ActionLog
    from daimon_tui.store.read import reader
    from daimon_tui.ui.log.screen import LogScreen

    slug = reader.resolve_project(str(demo_store.project)).slug
    log = ActionLog(tmp_path / "actions.jsonl")
    log.settle(log.intend(project=slug, verb="resolve", item_ids=("o-aaaa11112222",)), "applied")
    log.record(project=slug, verb="undo", outcome="refused", item_ids=("o-bbbb11112222",), reason="already-undone")
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await press_settled(pilot, "5")
        assert isinstance(app.screen, LogScreen)
        assert len(table_rows(app, "#log-table")) == 2
        await type_filter(pilot, "refused")
        shown = table_rows(app, "#log-table")
        assert len(shown) == 1 and shown[0].split()[1] == "undo", shown
        await press_settled(pilot, "escape")
        assert len(table_rows(app, "#log-table")) == 2 and isinstance(app.screen, LogScreen)


async def test_the_audit_filters_its_tables(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.audit.screen import AuditScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press_settled(pilot, "4")
        assert isinstance(app.screen, AuditScreen)
        assert len(table_rows(app, "#audit-receipts")) == 3
        await type_filter(pilot, "mismatch")
        receipts = table_rows(app, "#audit-receipts")
        assert len(receipts) == 1 and "S-day2" in receipts[0], receipts
        assert app.screen.selected_receipt().session_id == "S-day2"
        await press_settled(pilot, "escape")
        assert len(table_rows(app, "#audit-receipts")) == 3


def projects_shown(app: DaimonTUI) -> dict[str, list[str]]:
    """Each listed project's name and its cells as text."""
    table = app.screen.query_one("#project-table", DataTable)
    rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
    return {row[1]: row for row in rows}


def two_projects(store: demo.DemoStore) -> None:
    other = store.root / "other"
    other.mkdir()
    cp = demo.session("S-other", demo.DEMO_NOW, "Another project")
    cp["working_context"]["recent_decisions"] = [{"text": "Use tabs in the other project", "trust": "inferred"}]
    demo.seed(other, cp)


async def test_the_switcher_narrows_as_you_type_and_esc_clears_then_closes(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.projects.screen import ProjectsScreen

    two_projects(demo_store)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await press_settled(pilot, "P")
        assert isinstance(app.screen, ProjectsScreen)
        assert sorted(projects_shown(app)) == ["other", "proj"]
        await press_settled(pilot, "o", "t", "h")
        assert list(projects_shown(app)) == ["other"]
        await press_settled(pilot, "escape")  # clears the filter, stays open
        assert isinstance(app.screen, ProjectsScreen) and len(projects_shown(app)) == 2
        await press_settled(pilot, "escape")  # then closes
        assert isinstance(app.screen, BriefingScreen) and app.screen.project.name == "proj"
        await press_settled(pilot, "P")
        await press_settled(pilot, "o", "t", "h", "enter")  # Enter opens the one the filter left
        assert isinstance(app.screen, BriefingScreen)
        assert [i.text for i in app.screen.briefing.items()] == ["Use tabs in the other project"]


async def test_the_switcher_is_opaque(demo_store: demo.DemoStore) -> None:
    """The briefing must not show through the switcher's edge."""
    from daimon_tui.ui.projects.screen import ProjectsScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await press_settled(pilot, "P")
        assert isinstance(app.screen, ProjectsScreen)
        assert app.screen.styles.background.a == 1.0
        edge = "".join(seg.text for seg in app.screen._compositor.render_strips()[0])
        assert "HANDOFF" not in edge and not edge.strip(), edge  # the briefing's header line is not under it


async def test_the_switcher_counts_come_from_the_judging_child(demo_store: demo.DemoStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The confirmed counts are the judging child's answer (it already holds daimon's
    forget walk and the open project's fold): the app never folds the whole listing
    again in a thread, which on a year of memory kept the counts at "…" for seconds
    (measured on the heavy store: 44 s in the app, 0.3 s from the child)."""
    from daimon_tui.store.read import reader
    from daimon_tui.ui.projects.screen import ProjectsScreen

    two_projects(demo_store)
    folded_here: list[str] = []
    real = reader.list_projects

    def listed_here():  # type: ignore[no-untyped-def]
        folded_here.append("list_projects")
        return real()

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        monkeypatch.setattr(reader, "list_projects", listed_here)
        await press_settled(pilot, "P")
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        await wait_until(pilot, lambda: not screen.state.provisional, what="the confirmed listing")
        counts = {name: row[4] for name, row in projects_shown(app).items()}
        assert counts["proj"] == "11", counts
        assert folded_here == []


def screen_text(app: DaimonTUI) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize(("key", "said"), [("question_mark", "closes this help"), ("enter", "esc/q close")],
                         ids=["help", "full-text"])
async def test_help_and_full_text_say_how_to_close_them_in_view_at_80x24(demo_store: demo.DemoStore, key: str,
                                                                         said: str) -> None:
    """The closing keys are on screen, not below tables the person must scroll past."""
    from daimon_tui.ui.help.screen import HelpScreen
    from daimon_tui.ui.item.full_text import FullTextScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await press_settled(pilot, key)
        assert isinstance(app.screen, (HelpScreen, FullTextScreen))
        assert said in screen_text(app)
        await press_settled(pilot, "escape")
        assert isinstance(app.screen, BriefingScreen)

def test_filtering_at_80x24_snapshot(snap_compare, demo_store: demo.DemoStore) -> None:
    """The briefing while `/` has the keys: the footer says what Enter and Esc do."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await wait_until(pilot, lambda: not screen.provisional and screen.audited_stamp is not None, what="settled")
        screen.filter_box.cursor_blink = False  # a blinking cursor is on or off by the clock
        await type_filter(pilot, "retry")
        await wait_until(pilot, lambda: screen.filter_text == "retry", what="the filter applied")
        await wait_until(pilot, lambda: "escape" in {k.key for k in footer_keys(app)}, what="the filter's footer")
        await pilot.pause()

    assert snap_compare(app, terminal_size=NARROW, run_before=run_before)


def test_switcher_filtered_at_80x24_snapshot(snap_compare, demo_store: demo.DemoStore) -> None:
    two_projects(demo_store)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await press_settled(pilot, "P")
        await wait_until(pilot, lambda: not app.screen.state.provisional and bool(app.screen.state.trends),
                         what="confirmed")
        app.screen.query_one("#projects-filter").cursor_blink = False  # on or off by the clock
        await press_settled(pilot, "o", "t", "h")

    assert snap_compare(app, terminal_size=NARROW, run_before=run_before)
