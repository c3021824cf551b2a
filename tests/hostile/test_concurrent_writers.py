"""Concurrent writers lose nothing; a SIGKILL mid-append leaves readable
ledgers and an action-log chain that is complete or has a detectable torn tail."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from daimon_briefing import api

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.write import writer

from .conftest import NOW

STRESS_ROWS = 300
OWN_ITEMS = 5

# A daimon writer in another process: the sandbox is a ContextVar and does not
# cross a process boundary, so every directory arrives through the env. It writes
# at least `count` rows and goes on until told to stop (a file), so our verbs land
# while it writes however slowly they run (on a loaded machine a fixed count could
# end before our first verb); it prints how many it wrote.
DAIMON_WRITER = """
import os, sys
from daimon_briefing import store
from daimon_briefing.surfaces import Writer
project, count, stop = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n = 0
while n < count or not os.path.exists(stop):
    ok = store.append_event(f"o-stress{n:05d}", "resolved", note=f"stress {n}", source="cli-tty",
                            project_dir=project, writer=Writer.HUMAN)
    assert ok is not False, n
    n += 1
print(n)
"""

KILLED_WRITER = """
import sys
from daimon_briefing import store
from daimon_briefing.surfaces import Writer
from daimon_tui.store.action_log import ActionLog
project, log = sys.argv[1], ActionLog(sys.argv[2])
n = 0
while True:
    store.append_event(f"o-kill{n:06d}", "resolved", note="k", source="ui", project_dir=project, writer=Writer.HUMAN)
    log.record(project="p", verb="resolve", outcome="applied", item_ids=(f"o-kill{n:06d}",))
    n += 1
"""


def _env(store: demo.DemoStore) -> dict[str, str]:
    root = store.root
    env_file = root.parent / "empty.env"
    env_file.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DAIMON_")}
    env.update({
        "DAIMON_CHECKPOINT_DIR": str(store.checkpoint_dir),
        "DAIMON_LOG_DIR": str(root / "logs"),
        "DAIMON_TEAM_DIR": str(root / "team"),
        "DAIMON_RECALL_SEEN_DIR": str(root / "recall_seen"),
        "DAIMON_WINDSURF_DIR": str(root / "windsurf"),
        "DAIMON_KEYS_DIR": str(root / "keys"),
        "DAIMON_CHECKS_DIR": str(root / "checks"),
        "DAIMON_CLAUDE_PROJECTS_DIR": str(root / "claude-projects"),
        "DAIMON_RECALL_DB": str(root / "recall.db"),
        "DAIMON_PROJECT_DIR": str(store.project),
        "DAIMON_AUTHOR": "stress",
        "DAIMON_PLAIN": "1",
        "DAIMON_ENV_FILE": str(env_file),
        "HOME": str(root.parent),
    })
    return env


def _seed(store: demo.DemoStore) -> list[str]:
    cp = demo.session("S-stress", demo.DEMO_NOW, "stress")
    cp["working_context"]["open_questions"] = [
        {"text": f"Stress open question number {n} stays", "trust": "inferred"} for n in range(OWN_ITEMS * 2)
    ]
    demo.seed(store.project, cp)
    briefing = reader.load_briefing(reader.resolve_project(str(store.project)), now=NOW)
    return [item.id for item in briefing.items() if item.id]


def test_app_verbs_and_a_daimon_writer_lose_nothing(empty_store: demo.DemoStore) -> None:
    ids = _seed(empty_store)
    project = reader.resolve_project(str(empty_store.project))
    stop = empty_store.root.parent / "stress-stop"
    other = subprocess.Popen(
        [sys.executable, "-c", DAIMON_WRITER, str(empty_store.project), str(STRESS_ROWS), str(stop)],
        env=_env(empty_store), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    events = empty_store.checkpoint_dir / project.slug / "events.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not events.exists() or events.read_bytes().count(b"o-stress") < 10):
        time.sleep(0.01)  # start our verbs while the other writer is mid-stream
    mine = ids[:OWN_ITEMS]
    results = [writer.resolve(item_id, "resolved", "closed while daimon writes", project=project) for item_id in mine]
    stop.touch()
    out, err = other.communicate(timeout=300)
    assert other.returncode == 0, err.decode()[-2000:]
    written = int(out.decode().strip())
    assert [r.outcome for r in results] == ["applied"] * OWN_ITEMS, [r.message for r in results]

    rows = [json.loads(line) for line in events.read_bytes().splitlines() if line.strip()]  # every line parses
    refs = [str(row.get("item_ref")) for row in rows]
    assert written >= STRESS_ROWS
    assert sum(1 for ref in refs if ref.startswith("o-stress")) == written, (len(rows), rows[:2], rows[-2:])
    assert all(item_id in refs for item_id in mine)
    first_mine = min(refs.index(item_id) for item_id in mine)
    assert any(ref.startswith("o-stress") for ref in refs[first_mine:])  # the writes really interleaved
    assert api.ledger_health(str(empty_store.project))["events.jsonl"] == "ok"

    # daimon's own fold agrees with what the app shows
    shown = reader.load_briefing(project, now=NOW)
    visible = {item.id for item in shown.items()}
    assert visible == set(ids[OWN_ITEMS:])
    assert {item.id for item in shown.resolved} == set(mine)
    rendered = api.render_briefing(str(empty_store.project), now=NOW)
    for item_id in ids:
        assert (f"[{item_id}]" in rendered.text) == (item_id in visible), item_id


def test_sigkill_mid_append_leaves_readable_ledgers_and_a_detectable_tail(empty_store: demo.DemoStore) -> None:
    _seed(empty_store)
    project = reader.resolve_project(str(empty_store.project))
    log_path = empty_store.root.parent / "actions.jsonl"
    for attempt in range(3):  # kill at different moments
        child = subprocess.Popen(
            [sys.executable, "-c", KILLED_WRITER, str(empty_store.project), str(log_path)],
            env=_env(empty_store), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not log_path.exists() or log_path.stat().st_size < 2000 * (attempt + 1)):
            assert child.poll() is None, child.stderr.read().decode()[-2000:] if child.stderr else ""
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)

        report = ActionLog(log_path).verify_chain()
        assert report.lines > 0
        assert report.broken_at is None, report.message
        assert report.bad_lines == (), report.message
        # a kill lands mid-line (torn) or between a whole line and its head file (unanchored)
        assert report.ok or report.torn_at is not None or report.unanchored, report.message
        health = api.ledger_health(str(empty_store.project))["events.jsonl"]
        assert health in {"ok", "degraded"}, health
        briefing = reader.load_briefing(project, now=NOW)
        assert briefing.items()  # still usable
        if health == "degraded":
            assert any("events.jsonl" in n.message for n in briefing.notes)
