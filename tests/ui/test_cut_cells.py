"""Issue 28 point 3, every narrow table: a cell of the cursor row that the
screen cuts (its column past the table's edge, or its text shortened) is shown
whole under the table, at full width, at 80 and 120 columns (and 200, where
the Diff's text column is on screen but its text was cut at 120 characters)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from daimon_briefing import store as daimon_store
from daimon_briefing import testing
from textual.widgets import DataTable

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import history, reader
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.audit.screen import AuditScreen
from daimon_tui.ui.health.screen import HealthScreen
from daimon_tui.ui.history.screen import DiffScreen, HistoryScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
# Longer than the Diff's 120-character cell, and than any of these screens.
LONG = ("Keep the nightly export on its own bucket prefix and quota until the backoff curve for uploads under "
        "sustained HTTP 429 load has been measured with real numbers")


def _screen(app: DaimonTUI) -> str:
    update = app.screen._compositor.render_update(full=True)
    return "\n".join("".join(segment.text for segment in strip) for strip in update.strips)


def _whole_on_screen(app: DaimonTUI, text: str) -> bool:
    """`text` is on screen whole, wrapped or not (whitespace and frame aside)."""
    squeeze = lambda s: re.sub(r"[\s│▎▊▉▋]+", "", s)  # noqa: E731
    return squeeze(text) in squeeze(_screen(app))


@pytest.mark.parametrize("width", [80, 120, 200])
async def test_the_diffs_cut_text_and_detail_are_whole_under_the_table(demo_store: demo.DemoStore,
                                                                       width: int) -> None:
    cp = demo.session("S-long", demo.DEMO_NOW - timedelta(hours=1), "Long lines")
    cp["working_context"]["recent_decisions"] = [{"text": LONG, "trust": "inferred"}]
    demo.seed(demo_store.project, cp)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("space", "j", "d")  # S-long ↔ S-day3
        await wait_until(pilot, lambda: isinstance(app.screen, DiffScreen) and bool(app.screen.state.rows), what="diff")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        assert LONG in [row.text for row in screen.state.rows]
        report = history.diff(reader.resolve_project(str(demo_store.project)), "S-day3", "S-long")
        table = screen.query_one(DataTable)
        for n, row in enumerate(report.rows):  # each row's text and detail, wherever its column ends
            table.move_cursor(row=n)
            await settle(pilot)
            detail = f"{row.detail or ''} in {row.where}".strip() if row.where else row.detail
            for whole in (row.text, detail):
                assert not whole or _whole_on_screen(app, whole), (width, whole, _screen(app))


@pytest.mark.parametrize("width", [80, 120])
async def test_the_audits_tables_show_their_cut_cells_whole(demo_store: demo.DemoStore, width: int) -> None:
    """The receipts' edited session (when its file changed, daimon's state, how
    many items it affects) and the ledger table's torn ledger (its repair command)."""
    events = daimon_store.ledger_file(str(demo_store.project), "events.jsonl")
    with events.open("a", encoding="utf-8") as f:
        f.write('{"torn": ')
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(width, 50)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, AuditScreen) and screen.state.report is not None
        edited = next(n for n, r in enumerate(screen.state.receipts) if r.session_id == "S-day2")
        screen.query_one("#audit-receipts", DataTable).move_cursor(row=edited)
        await settle(pilot)
        receipt = screen.state.receipts[edited]
        assert receipt.since_iso and receipt.daimon_state
        for whole in (receipt.since_iso, receipt.daimon_state, receipt.cause):
            assert _whole_on_screen(app, whole), (width, whole, _screen(app))
        torn = next(n for n, r in enumerate(screen.state.report.ledgers) if r.command)
        ledgers = screen.query_one("#audit-ledgers", DataTable)
        ledgers.focus()
        ledgers.move_cursor(row=torn)
        await settle(pilot)
        screen.query_one("#audit-body").scroll_end(animate=False)  # the ledger table and what is under it
        await settle(pilot)
        row = screen.state.report.ledgers[torn]
        for whole in (row.name, row.detail, row.command):
            assert whole and _whole_on_screen(app, whole), (width, whole, _screen(app))


async def test_history_at_80_columns_shows_every_cut_column_of_the_cursor_row(demo_store: demo.DemoStore) -> None:
    """At 80 columns the edited session's `⚠ edited` pushes the last count off the
    table's edge: it is said under the table with the topic."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one("#history-table", DataTable)
        table.move_cursor(row=table.get_row_index("S-day2"))
        await settle(pilot)
        row = next(r for r in screen.state.rows if r.session_id == "S-day2")
        assert _whole_on_screen(app, f"withheld now: {row.counts.get('withheld now', 0)}"), _screen(app)
        assert _whole_on_screen(app, f"topic: {row.topic}"), _screen(app)


async def test_health_says_the_sessions_past_the_edge_for_the_cursor_row(empty_store: demo.DemoStore) -> None:
    """Many retained sessions at 80 columns: `now` and the newest sessions are
    past the table's edge; the cursor row's values there are said under it."""
    for n in range(9):
        cp = demo.session(f"S-{n:02d}", demo.DEMO_NOW - timedelta(days=9 - n), f"topic {n}")
        cp["working_context"]["recent_decisions"] = [{"text": f"decision {k}", "trust": "inferred"}
                                                     for k in range(n + 1)]
        testing.seed_checkpoint(empty_store.project, cp, session_id=f"S-{n:02d}")
    app = DaimonTUI(project_path=str(empty_store.project), now=NOW)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await wait_until(pilot, lambda: isinstance(app.screen, HealthScreen) and app.screen.state.report is not None,
                         what="health")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HealthScreen) and screen.state.report is not None
        table = screen.query_one("#health-table", DataTable)
        table.focus()
        numbers = table.get_row_index("items")  # the items' numbers (the row above it holds their bars)
        table.move_cursor(row=numbers)
        await settle(pilot)
        now = str(table.get_row_at(numbers)[-1])
        assert _whole_on_screen(app, f"now: {now}"), _screen(app)
