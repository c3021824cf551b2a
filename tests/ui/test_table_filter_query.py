"""The `/` query of a table view (History, Audit, Log) is held in one place,
the view's state: the rows are drawn under the state's query, `/` writes it
there, and the filter's controller (`ui.table_filter.TableFilter`) keeps no
copy of its own."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from daimon_tui.domain.row_words import read
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.audit.screen import AuditScreen
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.log.screen import LogScreen
from daimon_tui.ui.table_filter import FilteredTableScreen
from tests.ui.settle import press_settled, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


def _rows(screen: FilteredTableScreen, table_id: str) -> int:
    return screen.query_one(table_id, DataTable).row_count


async def _one_place(pilot, screen: FilteredTableScreen, table_id: str, word: str, every: int) -> None:
    """`word` leaves fewer than `every` rows: drawn from the state's query, written there by `/`."""
    assert _rows(screen, table_id) == every
    screen.state.query = read(word)  # type: ignore[attr-defined]
    screen.refilter()  # type: ignore[attr-defined]
    await settle(pilot)
    narrowed = _rows(screen, table_id)
    assert 0 < narrowed < every
    await press_settled(pilot, "slash", "escape")  # Esc in the box clears it: the state's query with it
    assert not screen.state.query and _rows(screen, table_id) == every  # type: ignore[attr-defined]
    await press_settled(pilot, "slash", *word, "enter")
    assert screen.state.query == read(word) and _rows(screen, table_id) == narrowed  # type: ignore[attr-defined]
    assert "query" not in vars(screen.table_filter)


async def test_history_draws_its_rows_under_the_query_its_state_holds(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(150, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await _one_place(pilot, screen, "#history-table", "day2", 3)


async def test_audit_draws_its_rows_under_the_query_its_state_holds(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.action_view("audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen)
                         and getattr(app.screen, "state", None) is not None
                         and app.screen.state.report is not None, what="the audit read")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        await _one_place(pilot, screen, "#audit-receipts", "day2", 3)


async def test_log_draws_its_rows_under_the_query_its_state_holds(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        slug = app.project.slug if app.project is not None else "unused"
        for verb in ("resolve", "retract"):
            log.settle(log.intend(project=slug, verb=verb, item_ids=("o-aaaa11112222",)), "applied")
        app.action_view("log")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LogScreen)
        await _one_place(pilot, screen, "#log-table", "retract", 2)
