"""World-checks from the briefing: badges, detail, prefilled resolve, log line."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import ProgressBar

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.item_detail import ItemDetail
from tests.ui.settle import press_until, settle

NOW = demo.DEMO_NOW.timestamp()


async def test_world_check_contradiction_prefills_resolve(demo_store: demo.DemoStore,
                                                          private_action_log: Path) -> None:
    demo.init_repo(demo_store.project)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await press_until(pilot, "j", lambda: screen.current_item().section == "external")
        await pilot.press("w")
        await settle(pilot, rounds=5)
        item = screen.current_item()
        assert item.badges[0].kind == "world-contradicted"
        shown = screen.query_one(ItemDetail).plain()
        assert "PR #42 merged in" in shown and "review as PR #42" in shown
        assert screen.verbs.request("resolve").status == "merged"  # what a resolve of it prefills
        await pilot.press("r")
        await settle(pilot)
        assert app.screen.status == "merged"
        await pilot.press("escape")
        await settle(pilot)
    entries = [json.loads(line) for line in private_action_log.read_text().splitlines()]
    assert [e["verb"] for e in entries] == ["world-check"]
    assert entries[0]["item_ids"] == [item.id] and "Branch" not in private_action_log.read_text()


async def test_world_check_every_carried_item(demo_store: demo.DemoStore) -> None:
    demo.init_repo(demo_store.project)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert not screen.query(ProgressBar)  # made when a check first starts, not with the first frame
        await pilot.press("W")
        await settle(pilot, rounds=5)
        carried = {i.id for i in screen.briefing.items() if i.has_badge("carried")}
        assert set(screen.world) == carried
        bar = screen.query_one("#world-progress", ProgressBar)  # below the list and the detail pane, hidden again
        assert bar.parent is screen and screen.children.index(bar) == screen.children.index(
            screen.query_one("#briefing-body")) + 1 and not bar.display and bar.total == len(carried) > 1
