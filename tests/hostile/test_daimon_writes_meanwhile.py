"""daimon writing while the app runs verbs (issue 24, point 9): its CLI
appending in a loop, and `daimon forget` rewriting the ledgers (a scrub in
place, the checkpoint spliced) while the app is open. Every verb is reported
as daimon's ledgers hold it, the action log stays whole, and what the app
shows afterwards is daimon's own briefing."""

from __future__ import annotations

import subprocess
import sys

from daimon_briefing import api, store
from daimon_briefing.surfaces import Writer

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ResolveModal
from tests.daimon_records import events
from tests.ui.settle import settle, wait_until

from .test_concurrent_writers import DAIMON_WRITER, _env
from .test_kill_mid_verb import NOW

LOOP_ROWS = 400
# daimon's ledger lock waits ~1 s and then proceeds unguarded ("fail-open",
# `jsonl.dir_lock`): on a loaded machine its own CLI loop and its own forget
# rewrite then lose each other's rows (CI saw 398 of 400), whatever the app does.
# Both of daimon's processes here wait for the lock instead, so a lost row is ours.
WAIT_FOR_THE_LOCK = "import daimon_briefing.jsonl as _j; _j._LOCK_TRIES = 15000\n"


async def _confirm_preview(pilot, app) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, PlanPreviewModal), timeout=120)
    app.screen.CONFIRM_DELAY_S = 0.0
    await pilot.pause(0.6)
    await pilot.press("y")


async def test_verbs_while_daimons_cli_writes_and_forget_rewrites(demo_store: demo.DemoStore, tmp_path) -> None:
    project = str(demo_store.project)
    # a ledger large enough that the judging child keeps its fold across the writes
    pad = [{"item_ref": f"o-pad{n:05d}", "status": "resolved", "note": "p" * 120, "source": "cli"}
           for n in range(2500)]
    assert store.append_events(pad, project_dir=project, writer=Writer.HUMAN)
    # the ids daimon's text names in brackets (a ruling is rendered without its id)
    named = api.render_briefing(project, now=NOW).text
    log = ActionLog(tmp_path / "actions.jsonl")
    env = _env(demo_store)
    app = DaimonTUI(project_path=project, now=NOW, action_log=log)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and app.screen.briefing is not None
                         and not app.screen.briefing.provisional and app.screen.current_item() is not None,
                         timeout=120)
        screen = app.screen
        ids = [i.id for i in screen.briefing.items() if i.id]
        mine, forgotten = screen.current_item().id, next(i for i in ids if i != screen.current_item().id)
        loop = subprocess.Popen([sys.executable, "-c", WAIT_FOR_THE_LOCK + DAIMON_WRITER, project, str(LOOP_ROWS),
                                 str(tmp_path)],  # a stop file that is there: exactly LOOP_ROWS rows
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, ResolveModal), timeout=120)
            await pilot.press("enter")
            await _confirm_preview(pilot, app)
            await wait_until(pilot, lambda: len([e for e in log.entries() if e.outcome != "intent"]) >= 1,
                             timeout=180)
            # a row carrying the value: forget scrubs it in place (the ledger rewritten, not appended)
            text = next(i.text for i in screen.briefing.items() if i.id == forgotten)
            assert store.append_event(forgotten, "active", item_text=text, source="cli", project_dir=project,
                                      writer=Writer.HUMAN)
            forget = subprocess.run([sys.executable, "-c", WAIT_FOR_THE_LOCK + "import sys\n"
                                     "from daimon_briefing.cli import main\nsys.exit(main())", "forget", forgotten,
                                     "--reason", "meanwhile", "--project", project],
                                    env=env, capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
            await settle(pilot)
            await pilot.press("z")
            await _confirm_preview(pilot, app)
            await wait_until(pilot, lambda: len([e for e in log.entries() if e.outcome != "intent"]) >= 2,
                             timeout=180)
        finally:
            _out, err = loop.communicate(timeout=300)
        assert loop.returncode == 0, err.decode()[-2000:]
        # the app's view after the dust settles: its bucket watch confirms again
        await wait_until(pilot, lambda: app.screen.briefing is not None and not app.screen.briefing.provisional
                         and forgotten not in {i.id for i in app.screen.briefing.items()}, timeout=180)
        await settle(pilot)
        shown = {i.id for i in app.screen.briefing.items() if i.id}

    assert forget.returncode == 0, (forget.stdout.decode()[-1500:], forget.stderr.decode()[-1500:])
    outcomes = [(e.verb, e.outcome) for e in log.entries()]
    assert outcomes == [("resolve", "applied"), ("undo", "applied")], [e.reason for e in log.entries()]
    assert log.pending() == [] and log.verify_chain().ok
    assert sum(1 for r in events(demo_store) if str(r.get("item_ref")).startswith("o-stress")) == LOOP_ROWS
    rendered = api.render_briefing(project, now=NOW)
    for item_id in (i for i in ids if f"[{i}]" in named):
        assert (f"[{item_id}]" in rendered.text) == (item_id in shown), item_id
    assert mine in shown and forgotten not in shown
    assert not [r for r in events(demo_store) if r.get("item_text") == text]  # scrubbed in place
