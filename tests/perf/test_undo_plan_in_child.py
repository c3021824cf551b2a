"""`z`'s plan is read by the judging child, like every other verb's.

Building it reads what daimon says about each item now (`plans.item_facts`:
lineage, match), and each of those folds daimon's ledgers. Built in the app's
process (as it was), every undo folded the whole store there: on the heavy
store the app grew from ~85 MB to ~250 MB at the first `z` and kept it.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from tests.daimon_records import events
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


async def _confirm(pilot, app, what: str) -> None:
    """`y` on the preview once it takes one (it ignores a `y` in its first moments)."""
    await wait_until(pilot, lambda: isinstance(app.screen, PlanPreviewModal), 90, what)
    preview = app.screen
    await wait_until(pilot, lambda: time.monotonic() - preview.opened_at > preview.CONFIRM_DELAY_S + 0.05, 10)
    await pilot.press("y")


async def test_undo_plan_never_folds_in_the_apps_process(demo_store: demo.DemoStore, private_action_log: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folded_here: list[str] = []

    def item_facts(project, item_id, **_kw):  # the app's process only: the child imports its own
        folded_here.append(item_id)
        raise AssertionError("an item's facts were read in the app's process")

    monkeypatch.setattr(plans, "item_facts", item_facts)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        target = screen.current_item()
        assert target is not None and target.id
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await _confirm(pilot, app, "resolve preview")
        await settle(pilot, rounds=6)
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen), 90,
                         f"back on the briefing ({type(app.screen).__name__})")
        await pilot.press("z")
        await _confirm(pilot, app, "undo preview")
        await settle(pilot, rounds=8)
        rows = [e for e in events(demo_store) if e.get("item_ref") == target.id]
        assert [r["status"] for r in rows[-2:]] == ["resolved", "reopened"]
    assert folded_here == []
