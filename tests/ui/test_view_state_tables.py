"""Issue 39, Deliver point 2: the Audit, Log and Health views each keep their
data in one state object (`screen.state`), not in attributes of the screen;
what the tables show is what the state holds."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from daimon_tui.services.health import NOW as NOW_COLUMN
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.audit.screen import AuditScreen
from daimon_tui.ui.health.screen import HealthScreen
from daimon_tui.ui.log.screen import LogScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


async def test_the_audit_view_holds_its_rows_only_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.action_view("audit")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditScreen)
                         and getattr(app.screen, "state", None) is not None
                         and app.screen.state.report is not None, what="the audit read")
        screen = app.screen
        assert isinstance(screen, AuditScreen)
        state = screen.state
        assert state.report is not None and state.receipts
        receipts = screen.query_one("#audit-receipts", DataTable)
        assert receipts.row_count == len(state.receipts) == len(state.report.receipts)
        ledgers = screen.query_one("#audit-ledgers", DataTable)
        assert ledgers.row_count == len(state.ledger_rows) == len(state.report.ledgers)
        for name in ("report", "receipts", "rejections", "ledger_rows"):
            assert not hasattr(screen, name), name


async def test_the_log_view_holds_its_rows_only_in_its_state(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    slug = "unused"
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        slug = app.project.slug if app.project is not None else slug
        intent = log.intend(project=slug, verb="resolve", item_ids=("o-aaaa11112222",))
        log.settle(intent, "applied")
        app.action_view("log")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LogScreen)
        table = screen.query_one("#log-table", DataTable)
        assert table.row_count == 1
        state = screen.state
        assert state.last_read is not None
        assert [e.action_id for e in state.entry_of.values()] == [intent.action_id]
        assert state.short == {"o-aaaa11112222": state.short["o-aaaa11112222"]}
        for name in ("entry_of", "short", "last_read"):
            assert not hasattr(screen, name), name


async def test_the_health_view_holds_its_report_only_in_its_state(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.action_view("health")
        await wait_until(pilot, lambda: isinstance(app.screen, HealthScreen)
                         and getattr(app.screen, "state", None) is not None
                         and app.screen.state.report is not None, what="the whole report")
        screen = app.screen
        assert isinstance(screen, HealthScreen)
        report = screen.state.report
        assert report is not None
        table = screen.query_one("#health-table", DataTable)
        charted = [str(k.value) for k in table.columns][1:-2]
        assert charted == [s.session_id for s in report.sessions if s.session_id != NOW_COLUMN]
        assert not hasattr(screen, "report")
