"""Verbs from the briefing screen, end to end through daimon's own records."""

from __future__ import annotations

from pathlib import Path

from daimon_briefing import api

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.briefing import BriefingScreen
from tests.daimon_records import events
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()



async def test_resolve_from_the_briefing_then_undo(demo_store: demo.DemoStore, private_action_log: Path) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        target = screen.current_item()
        assert target is not None and target.id
        await pilot.press("r")
        await settle(pilot)
        # Resolve modal: accept the default status, then confirm the preview.
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)
        assert isinstance(app.screen, BriefingScreen)
        rows = [e for e in events(demo_store) if e.get("item_ref") == target.id]
        assert rows and rows[-1]["status"] == "resolved" and rows[-1]["source"] == "ui"
        assert target.text not in api.render_briefing(str(demo_store.project), now=NOW).text
        assert target.id not in {i.id for i in app.screen.briefing.items()}
        await pilot.press("z")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=8)
        rows = [e for e in events(demo_store) if e.get("item_ref") == target.id]
        assert [r["status"] for r in rows[-2:]] == ["resolved", "reopened"]
        assert target.text in api.render_briefing(str(demo_store.project), now=NOW).text
    log = private_action_log.read_text()
    # two actions, each an intent line before daimon's write and an outcome line after
    assert target.text not in log and len(log.splitlines()) == 4
