"""Two app instances on one store and one action log (issue 24, point 3):
one's start-up recovery never settles the other's in-flight write, and a
killed instance's restart never credits another's row as its own write."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from daimon_tui.domain import undo_plan
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ResolveModal
from tests.daimon_records import events
from tests.daimon_records import project_ref as ref
from tests.ui.settle import settle, wait_until

from .test_concurrent_writers import _env
from .test_kill_mid_verb import APP, NOW, _run_until_stopped


def _start_held(store: demo.DemoStore, log_path: Path, tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """Instance A, stopped after its intent line and before daimon's write."""
    marker = tmp_path / "stopped"
    env = _env(store)
    env.update({k: v for k, v in os.environ.items() if k.startswith("DAIMON_TUI_")})
    env["DAIMON_TUI_LOG"] = str(log_path)
    child = subprocess.Popen([sys.executable, "-c", APP, str(store.project), "hold", str(marker), str(NOW)],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 180
    while not marker.exists():
        if child.poll() is not None or time.monotonic() > deadline:
            child.kill()
            raise AssertionError(child.stderr.read().decode()[-3000:] if child.stderr else "never held")
        time.sleep(0.05)
    return child, marker


async def test_a_second_instance_leaves_the_first_ones_write_in_flight(demo_store: demo.DemoStore,
                                                                       tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    a, marker = _start_held(demo_store, log.path, tmp_path)
    try:
        [intent] = log.pending()
        b = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
        async with b.run_test(size=(140, 40)) as pilot:
            await settle(pilot, rounds=5)
            told = [n.message for n in b._notifications if n.title == "interrupted write"]
        assert told == [] and [e.action_id for e in log.pending()] == [intent.action_id]
        marker.with_name("go").write_text("go")  # A's write lands now, and A logs its outcome
        deadline = time.monotonic() + 180
        # Settled: its outcome line logged and anchored in the log's head file (a kill
        # between the two, under a loaded machine, left the chain unanchored).
        while log.pending() or not log.verify_chain().ok:
            assert a.poll() is None and time.monotonic() < deadline, "A never settled its own write"
            time.sleep(0.05)
    finally:
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=30)
    outcomes = [line.entry.outcome for line in log.lines()
                if line.entry is not None and line.entry.action_id == intent.action_id]
    assert outcomes == ["intent", "applied"]  # one action, one outcome
    assert log.verify_chain().ok


async def test_a_restart_never_credits_another_instances_row(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    """B runs; A is killed after its intent; B resolves the same item; A's
    restart says A's write did not land, and `z` would undo B's own action only."""
    log = ActionLog(tmp_path / "actions.jsonl")
    b = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with b.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(b.screen, BriefingScreen) and b.screen.current_item() is not None,
                         timeout=120)
        _run_until_stopped(demo_store, "before-write", log.path, tmp_path)
        [a_intent] = log.pending()
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(b.screen, ResolveModal), timeout=60)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(b.screen, PlanPreviewModal), timeout=60)
        b.screen.CONFIRM_DELAY_S = 0.0
        await pilot.pause(0.6)
        await pilot.press("y")
        await wait_until(pilot, lambda: any(e.outcome == "applied" for e in log.entries()), timeout=120)
        await settle(pilot)
    [b_action] = [e for e in log.entries() if e.outcome == "applied"]
    assert b_action.item_ids == a_intent.item_ids  # the same item
    ui_rows = [r for r in events(demo_store) if r.get("item_ref") == a_intent.item_ids[0] and r.get("source") == "ui"]
    assert len(ui_rows) == 1  # B's, the only one

    restart = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)
    async with restart.run_test(size=(140, 40)) as pilot:
        await settle(pilot, rounds=5)
        told = [n.message for n in restart._notifications if n.title == "interrupted write"]
    assert len(told) == 1 and a_intent.action_id in told[0] and "did not land" in told[0]
    [a_settled] = [e for e in log.entries() if e.action_id == a_intent.action_id]
    assert a_settled.outcome == "not-applied"
    undoable = log.undo_choice(ref(demo_store).slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry
    assert undoable is not None and undoable.action_id == b_action.action_id
    assert log.verify_chain().ok
