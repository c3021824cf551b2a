"""Issue 13: every key on every screen does what it says; nothing quits or
crashes by surprise."""

from __future__ import annotations

from textual.widgets import Input

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.audit.screen import AuditScreen
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen, SessionScreen
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def make_app(store: demo.DemoStore) -> DaimonTUI:
    return DaimonTUI(project_path=str(store.project), now=NOW)


async def test_pressing_the_view_you_are_on_stays_there(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        await pilot.press("2", "2")
        await settle(pilot)
        assert app.screen is history  # not rebuilt
        await pilot.press("4", "4")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        assert sum(isinstance(s, AuditScreen) for s in app.screen_stack) == 1
        assert app.is_running


async def test_a_view_key_from_a_screen_opened_inside_it(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        history = app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen)
        await pilot.press("2")
        await settle(pilot)
        assert app.screen is history
        await pilot.press("1", "1")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen) and app.is_running


async def test_escape_on_the_briefing_never_quits(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, BriefingScreen)
        # In the filter: clears it and leaves it, the app stays.
        await pilot.press("slash", *"zzz")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        box = app.screen.query_one("#filter", Input)
        assert app.is_running and box.value == "" and not box.has_focus
        await pilot.press("escape")
        await settle(pilot)
        assert app.is_running
        await pilot.press("q")
        await settle(pilot)
        assert not app.is_running


async def filter_rows(app: DaimonTUI, pilot, query: str) -> list:
    # enter applies the filter at once (typing is debounced)
    await pilot.press("slash", "ctrl+a", "ctrl+k", *query, "enter")
    await settle(pilot)
    return app.screen.rows


async def test_filter_semantics_for_withheld_rows_and_bad_facets(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        # `state:` naming a withheld state shows withheld rows without `h`.
        rows = await filter_rows(app, pilot, "state:resolved")
        assert rows and all(r.item and r.item.state == "resolved" for r in rows)
        rows = await filter_rows(app, pilot, "state:quarantined")
        assert [r.withheld.state for r in rows if r.withheld] == ["quarantined"] and len(rows) == 1
        # With `h` on, a text query no longer matches the textless quarantined row.
        await pilot.press("escape", "h")
        await settle(pilot)
        rows = await filter_rows(app, pilot, "retry")
        assert rows and not any(r.withheld for r in rows)
        rows = await filter_rows(app, pilot, "quarantined")
        assert [r.withheld.state for r in rows if r.withheld] == ["quarantined"]
        # An unknown facet or value is said in the box.
        box = screen.query_one("#filter", Input)
        for bad, said in (("trust:bogus", "unknown trust 'bogus'"), ("foo:bar", "unknown facet foo:")):
            await filter_rows(app, pilot, bad)
            assert said in str(box.border_title)
        await filter_rows(app, pilot, "trust:verbatim")
        assert box.border_title is None
        # Cleared and submitted: the box goes away.
        await pilot.press("slash", "ctrl+a", "ctrl+k", "enter")
        await settle(pilot)
        assert not box.display


async def test_help_lists_the_screens_keys_first_then_the_global_ones(demo_store: demo.DemoStore) -> None:
    from textual.widgets import Static

    from daimon_tui.ui.help.screen import HelpScreen

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        own, everywhere = (s.content for s in app.screen.query(Static)[:2])  # rich Tables
        assert own.title == "Keys on this screen: History" and everywhere.title == "Keys everywhere"
        assert "Diff marked ↔ cursor" in [str(c) for c in own.columns[1]._cells]
        assert "History" in [str(c) for c in everywhere.columns[1]._cells]


async def test_enter_on_a_log_row_opens_its_item_and_j_k_move(demo_store: demo.DemoStore) -> None:
    from textual.widgets import DataTable

    from daimon_tui.store.action_log import ActionLog
    from daimon_tui.store.read import reader

    slug = reader.resolve_project(str(demo_store.project), None).slug
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        briefing = app.screen
        target = briefing.briefing.items()[3].id
        log = ActionLog()
        log.record(project=slug, verb="world-check", outcome="world-check", item_ids=(target,))
        log.record(project=slug, verb="world-check", outcome="world-check", item_ids=("o-gone0000000",))
        await pilot.press("5")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2 and table.cursor_row == 0
        await pilot.press("j")
        assert table.cursor_row == 1
        await pilot.press("k", "enter")  # the newest row names the gone item
        await settle(pilot)
        assert app.screen is briefing
        assert "o-gone0000000 is not in today's briefing" in str(list(app._notifications)[-1].message)
        await pilot.press("5", "j", "enter")
        await settle(pilot)
        assert app.screen is briefing and briefing.current_item().id == target


async def test_marking_counts_in_the_list_border(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#items-box")
        await pilot.press("space", "space")
        await settle(pilot)
        assert str(box.border_subtitle).startswith("2 marked · 3 / ")
        await pilot.press("escape")
        await settle(pilot)
        assert "marked" not in str(box.border_subtitle) and not app.screen.marked


async def test_enter_on_an_audit_receipt_opens_that_session(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        audit = app.screen
        expected = audit.selected_receipt().session_id
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen) and app.screen.session_id == expected
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is audit


async def test_detail_pane_scrolls_from_the_list_and_opens_full_screen(demo_store: demo.DemoStore) -> None:
    from textual.containers import VerticalScroll

    from daimon_tui.ui.item.screen import ItemScreen
    from daimon_tui.ui.widgets.item_detail import ItemDetail
    from daimon_tui.ui.widgets.row_list import RowList

    app = make_app(demo_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")  # a carried, corroborated item: witnesses and lifecycle
        await settle(pilot)
        pane = app.screen.query_one("#detail-scroll", VerticalScroll)
        items = app.screen.query_one("#items-box")
        # At 80 columns the pane is below the list, full width.
        assert pane.region.y >= items.region.bottom and pane.region.width > 70
        await pilot.press("J")
        await settle(pilot)
        assert pane.scroll_y > 0 and isinstance(app.focused, RowList)
        await pilot.press("K")
        await settle(pilot)
        assert pane.scroll_y == 0
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, ItemScreen)
        shown = app.screen.query_one(ItemDetail).plain()
        assert "trust inspector" in shown and "witness" in shown
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)


async def test_the_preselected_status_is_the_highlighted_one_and_reads_without_colour() -> None:
    from textual.widgets import RadioButton, RadioSet

    from daimon_tui.ui.screens.verb_modals import ResolveModal
    from tests.ui.test_verb_modals import Host

    app = Host(lambda: ResolveModal(("o-1",), status="merged"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        radios = app.screen.query_one(RadioSet)
        buttons = list(radios.query(RadioButton))
        assert [b.name for b in buttons if b.has_class("-selected")] == ["merged"]
        marks = {b.name: "●" in str(b._button) for b in buttons}
        assert marks == {name: name == "merged" for name in marks}


def test_a_world_contradiction_leads_the_row() -> None:
    from daimon_tui.models import Badge, Item
    from daimon_tui.ui.widgets.item_row import item_row

    item = Item(id="o-1", text="uploads retry", section="open_loops", kind="open_loop", mark="verbatim",
                field="open_loops", stored_mark="verbatim",
                badges=(Badge(kind="carried"), Badge(kind="world-contradicted", detail="gone")))
    row = item_row(item).plain
    assert row.index("world contradicts") < row.index("verbatim") < row.index("uploads retry")
    assert row.count("world contradicts") == 1


async def test_the_kill_switch_is_in_the_header_from_the_start(demo_store: demo.DemoStore) -> None:
    from daimon_briefing import config

    with config.settings_override({**config.active_settings(), "DAIMON_DISABLE": "1"}):
        app = make_app(demo_store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            header = str(app.screen.query_one("#briefing-header").render())
    assert "daimon is disabled (DAIMON_DISABLE)" in header


async def test_the_as_of_box_refuses_what_is_not_a_time_inside_the_box(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.history.screen import AsOfPicker, HistoricalScreen

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("@", "ctrl+a", "ctrl+k", *"last tuesday", "enter")
        await settle(pilot)
        assert isinstance(app.screen, AsOfPicker)
        assert "is not a session id" in str(app.screen.query_one("#as-of-error").render())
        await pilot.press("ctrl+a", "ctrl+k", *"yesterday", "enter")
        await settle(pilot)
        assert isinstance(app.screen, HistoricalScreen) and app.screen.when == "2026-12-01T09:00:00Z"


async def test_the_palette_holds_the_apps_commands_and_textuals_behind_one_entry(demo_store: demo.DemoStore) -> None:
    from textual.command import CommandPalette

    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listed = [c.title for c in app.get_system_commands(app.screen)]
        assert listed == ["Display and terminal (Textual)…"]
        await pilot.press("colon")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Display", "enter")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert {"Theme", "Screenshot"} <= {c.title for c in app.get_system_commands(app.screen)}
        await pilot.press("escape")
        await settle(pilot)
        assert [c.title for c in app.get_system_commands(app.screen)] == ["Display and terminal (Textual)…"]
        assert isinstance(app.screen, BriefingScreen)


async def test_queue_keys_past_the_end_say_why(demo_store: demo.DemoStore) -> None:
    app = make_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        entries = len(app.screen.state.queue.entries)
        await pilot.press(*["n"] * (entries + 1))
        await settle(pilot)
        before = len(app._notifications)
        await pilot.press("s", "x")
        await settle(pilot)
        said = [str(n.message) for n in list(app._notifications)[before:]]
        assert said == ["Nothing left to skip: p goes back.", "No entry here: p goes back."]


def test_the_queue_preselects_the_resolve_status_the_way_the_briefing_does() -> None:
    from daimon_tui.domain.claims import Claim, ClaimKind, Expect
    from daimon_tui.domain.probes import Finding, Outcome
    from daimon_tui.domain.world_badges import suggested_status
    from daimon_tui.domain.worldcheck import ClaimResult, ItemResult
    from daimon_tui.models import Item, ProjectRef
    from daimon_tui.models.queue import QueueEntry
    from daimon_tui.ui.queue.screen import QueueScreen

    item = Item(id="o-1", text="Branch feature/x is waiting for review", section="external", kind="external",
                mark="verbatim", field="external", stored_mark="verbatim")
    claim = Claim(kind=ClaimKind.BRANCH, subject="feature/x", expect=Expect.UNMERGED, words="waiting", start=0,
                  end=7)
    result = ItemResult("o-1", (ClaimResult(claim, Finding(Outcome.CONTRADICTED, "merged", "it was merged")),))
    # The evidence alone would read "resolved": the claim says "merged", as in the briefing.
    entry = QueueEntry(key="o-1", kind="contradicted", ref="o-1", title="t", why="w", item=item,
                       prefill_status="resolved")
    screen = QueueScreen(ProjectRef(slug="p", name="p"), world_check=False)
    assert screen.state.resolve_status(entry) == "resolved"
    screen.state.world_results["o-1"] = result
    assert screen.state.resolve_status(entry) == suggested_status(result) == "merged"
