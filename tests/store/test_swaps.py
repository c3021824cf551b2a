"""Every lasting swap of daimon's functions is installed by one call
(`store/child/swaps.py`), in the judging child; tests get it as a context
manager that leaves the process as it found it. Each runs in a fresh process:
the test process has swaps of its own, installed by earlier tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (module, name) of every lasting swap, each with whether it is daimon's own function now.
_STATE = r'''
import json, sys
from daimon_tui.store.daimon_api import originals

def state():
    return {key: getattr(sys.modules[key.rpartition(":")[0]], key.rpartition(":")[2]) is own
            for key, own in sorted(originals.kept.items())}
'''


def _run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _STATE + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


LASTING = {"daimon_briefing.jsonl:read", "daimon_briefing.store:_fold", "daimon_briefing.store:fold_corroborations",
           "daimon_briefing.view:item_events", "daimon_briefing.store:item_events", "daimon_briefing.view:_read_judge",
           "daimon_briefing.view:ledger_states", "daimon_briefing.view:team_notes", "daimon_briefing.jsonl:posture",
           "daimon_briefing.view:snapshot", "daimon_briefing.view:judge", "daimon_briefing.view:machine_sets",
           "daimon_briefing.store:forgotten_incomplete", "daimon_briefing.recall:_ensure_fresh",
           "daimon_briefing.store:forgotten_stamp", "daimon_briefing.store:_forgotten_walk",
           "daimon_briefing.store:standing_tombstones", "daimon_briefing.store:tombstone_refs",
           "daimon_briefing.briefing:_machine_stamps"}


def test_the_child_installs_every_lasting_swap_when_it_loads_its_reads() -> None:
    got = _run("from daimon_tui.store.child import judge_child\n"
               "judge_child._calls()\n"
               "print(json.dumps(state()))\n")
    assert set(got) == LASTING
    assert not any(got.values()), [key for key, own in got.items() if own]  # none is daimon's own now


def test_the_context_manager_installs_them_and_puts_daimons_own_back() -> None:
    got = _run("from daimon_tui.store.child import swaps\n"
               "from daimon_tui.store.judging import snapshot_share\n"
               "with swaps.swaps_installed():\n"
               "    inside = state()\n"
               "after = state()\n"
               "swaps.install_swaps()  # re-armed: installed again\n"
               "print(json.dumps({'inside': inside, 'after': after, 'again': state()}))\n")
    assert set(got["inside"]) == LASTING and not any(got["inside"].values())
    assert all(got["after"].values())
    assert not any(got["again"].values())


def test_the_childs_warm_installs_every_lasting_swap_without_a_model() -> None:
    """Before its early answer the child installs them all by the one call
    (none imports our models, which that answer is made without)."""
    got = _run("from daimon_tui.store.child import judge_child\n"
               "judge_child._warm({'project': {}})\n"
               "state_now = state()\n"
               "state_now['models loaded'] = any(m in sys.modules for m in ('pydantic', 'daimon_tui.models'))\n"
               "print(json.dumps(state_now))\n")
    assert got.pop("models loaded") is False
    assert set(got) == LASTING and not any(got.values()), [key for key, own in got.items() if own]


def test_a_headless_report_installs_every_lasting_swap_by_the_one_call() -> None:
    got = _run("from daimon_tui.cli import main\n"
               "main(['brief', '--project', '/nonexistent-daimon-tui-project'])\n"
               "print(json.dumps(state()))\n")
    assert set(got) == LASTING and not any(got.values()), [key for key, own in got.items() if own]
