"""kill -9 of the real app between its intent line and daimon's write, and
between daimon's write and the outcome line; the restart settles the intent
from daimon's ledgers, records it, and tells the person."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from daimon_tui.domain import undo_plan
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from tests.daimon_records import events
from tests.daimon_records import project_ref as ref
from tests.ui.settle import settle

from .test_concurrent_writers import _env

NOW = demo.DEMO_NOW.timestamp()

# The app itself, driven by keys in its own process; its call for daimon's
# write (carried out by the judging child) is wrapped so the process stops (to
# be killed) at the named moment.
APP = """
import asyncio, sys, time
from pathlib import Path
from daimon_tui.store.child import write_request
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ResolveModal
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.app import DaimonTUI

project, stage, marker, now = sys.argv[1], sys.argv[2], Path(sys.argv[3]), float(sys.argv[4])
PlanPreviewModal.CONFIRM_DELAY_S = 0.0
real = write_request.apply

async def stopped(*args, **kwargs):
    if stage == "hold":  # stopped until the test says go, then the verb goes on
        marker.write_text(stage)
        while not marker.with_name("go").exists():
            await asyncio.sleep(0.05)
        return await real(*args, **kwargs)
    if stage == "before-write":
        marker.write_text(stage)
        time.sleep(3600)
    out = await real(*args, **kwargs)
    marker.write_text(stage)
    time.sleep(3600)
    return out

write_request.apply = stopped

async def until(pilot, check):
    deadline = time.monotonic() + 150  # a loaded CI machine is slow to start the app
    while time.monotonic() < deadline:
        await pilot.pause(0.02)
        if check():
            return
    raise SystemExit(f"never reached: {check.__doc__ or 'the awaited screen'} (on {app_screen(pilot)})")

def app_screen(pilot):
    return type(pilot.app.screen).__name__

async def main():
    app = DaimonTUI(project_path=project, now=now)
    async with app.run_test(size=(140, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BriefingScreen) and app.screen.current_item() is not None)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ResolveModal))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanPreviewModal))
        await pilot.press("y")
        await asyncio.sleep(3600)

asyncio.run(main())
"""


def _run_until_stopped(store: demo.DemoStore, stage: str, log_path: Path, tmp_path: Path) -> None:
    marker = tmp_path / "stopped"
    env = _env(store)
    env.update({k: v for k, v in os.environ.items() if k.startswith("DAIMON_TUI_")})
    env["DAIMON_TUI_LOG"] = str(log_path)
    child = subprocess.Popen([sys.executable, "-c", APP, str(store.project), stage, str(marker), str(NOW)],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 200
        while not marker.exists():
            assert child.poll() is None, child.stderr.read().decode()[-3000:] if child.stderr else ""
            assert time.monotonic() < deadline, "the app never reached the write"
            time.sleep(0.05)
    finally:
        if child.poll() is None:  # an exited child keeps its own error above
            os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("stage", ["before-write", "after-write"])
async def test_a_kill_between_intent_and_outcome_is_settled_and_told_on_restart(
        demo_store: demo.DemoStore, tmp_path: Path, stage: str) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    rows_before = len(events(demo_store))
    _run_until_stopped(demo_store, stage, log.path, tmp_path)

    [intent] = log.pending()
    (item,) = intent.item_ids
    ui_rows = [r for r in events(demo_store)[rows_before:] if r.get("item_ref") == item and r.get("source") == "ui"]
    assert len(ui_rows) == (1 if stage == "after-write" else 0)

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, rounds=5)
        told = [n.message for n in app._notifications if n.title == "interrupted write"]
    assert len(told) == 1 and intent.action_id in told[0] and item in told[0]
    assert log.pending() == []
    [settled] = [e for e in log.entries() if e.action_id == intent.action_id]
    undoable = log.undo_choice(ref(demo_store).slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry
    if stage == "after-write":
        assert "landed in daimon's ledger" in told[0]
        assert settled.outcome == "applied" and settled.records[0].ts == ui_rows[0]["ts"]
        assert undoable is not None and undoable.action_id == intent.action_id  # `z` undoes THIS write
    else:
        assert "did not land" in told[0]
        assert settled.outcome == "not-applied" and undoable is None
    assert log.verify_chain().ok
