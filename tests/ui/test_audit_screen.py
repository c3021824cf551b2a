"""The audit screen in a tiny host app: Pilot behaviour and one snapshot."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from daimon_briefing import api, view
from daimon_briefing import store as dstore
from textual.app import App
from textual.widgets import DataTable, Static

from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read.audit import load_audit
from daimon_tui.ui.audit.screen import AuditScreen, receipt_failures

STYLES = Path(__file__).resolve().parents[2] / "styles"
FIXED = datetime(2026, 12, 2, 8, 30, tzinfo=UTC)


class _FrozenClock(datetime):
    """daimon stamps events and rejections with the wall clock; the snapshot
    needs them fixed."""

    @classmethod
    def now(cls, tz=None):  # type: ignore[override]
        return FIXED if tz is not None else FIXED.replace(tzinfo=None)


class Host(App[None]):
    CSS_PATH = str(STYLES / "audit.tcss")

    def __init__(self, project: ProjectRef) -> None:
        super().__init__()
        self.project = project

    def on_mount(self) -> None:
        self.push_screen(AuditScreen(self.project))


def _ref(store: demo.DemoStore) -> ProjectRef:
    return ProjectRef(slug=api.project_slug(str(store.project)), name="demo", path=str(store.project))


@pytest.fixture
def audit_store(empty_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> demo.DemoStore:
    """The demo store with one rejection, every wall-clock input pinned."""
    monkeypatch.setattr(dstore, "datetime", _FrozenClock)
    demo.populate(empty_store.project)
    demo.tamper(empty_store.checkpoint_dir, "S-day2")
    project = str(empty_store.project)
    question = view.open(project, live=False).checkpoint["working_context"]["open_questions"][0]["id"]
    assert dstore.append_verification(question, "quote", "quote-not-in-transcript", project_dir=project)
    base = FIXED.timestamp() - 86_400
    for path in empty_store.checkpoint_dir.iterdir():
        if path.suffix in {".json", ".receipt"}:
            # sidecars signed a minute before the files were last written
            stamp = base + (0 if path.suffix == ".receipt" else 60)
            os.utime(path, (stamp, stamp))
    return empty_store


async def _settle(app: App) -> None:
    await app.workers.wait_for_complete()
    for _ in range(3):
        await asyncio.sleep(0)
    await app.workers.wait_for_complete()


def test_audit_screen_navigation(demo_store: demo.DemoStore) -> None:
    async def scenario() -> None:
        app = Host(_ref(demo_store))
        async with app.run_test(size=(120, 36)) as pilot:
            await _settle(app)
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, AuditScreen)
            assert screen.state.report is not None
            assert receipt_failures(screen.state.report) == 1
            receipts = screen.query_one("#audit-receipts", DataTable)
            assert receipts.row_count == 3
            assert receipts.has_focus
            first = str(receipts.get_row_at(0)[0])
            assert first == "✓ signature-valid"
            await pilot.press("j")
            assert receipts.cursor_row == 1
            assert str(receipts.get_row_at(1)[0]) == "✗ mismatch"
            detail = str(screen.query_one("#audit-detail", Static).render())
            assert "S-day2" in detail and "bytes changed after signing" in detail
            assert "carried from this session" in detail
            await pilot.press("k")
            assert receipts.cursor_row == 0
            ledgers = screen.query_one("#audit-ledgers", DataTable)
            assert ledgers.row_count == len(screen.state.report.ledgers)
            await pilot.press("q")
            await pilot.pause()
            assert not isinstance(app.screen, AuditScreen)

    asyncio.run(scenario())


def test_audit_screen_shows_repair_command(demo_store: demo.DemoStore) -> None:
    slug = api.project_slug(str(demo_store.project))
    with (demo_store.checkpoint_dir / slug / "events.jsonl").open("a") as handle:
        handle.write("garbage\n")

    async def scenario() -> None:
        app = Host(_ref(demo_store))
        async with app.run_test(size=(120, 36)) as pilot:
            await _settle(app)
            await pilot.pause()
            ledgers = app.screen.query_one("#audit-ledgers", DataTable)
            cells = [[str(c) for c in ledgers.get_row_at(i)] for i in range(ledgers.row_count)]
            events = next(row for row in cells if row[1] == "events.jsonl")
            assert events[0] == "✗ unreadable"
            assert events[3] == "daimon ledger repair events"

    asyncio.run(scenario())


def test_receipt_failures_badge() -> None:
    assert receipt_failures(None) == 0


def test_audit_snapshot(audit_store: demo.DemoStore, snap_compare) -> None:
    project = _ref(audit_store)
    report = load_audit(project)
    assert [r.state for r in report.receipts] == ["signature-valid", "mismatch", "signature-valid"]

    async def wait_loaded(pilot) -> None:
        await _settle(pilot.app)
        await pilot.pause()

    assert snap_compare(Host(project), terminal_size=(120, 36), run_before=wait_loaded)
