"""CI's whole run has a budget under its 90 minutes, not only pytest's per-test limit."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_hanging_pass_ends_the_ci_run(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / ".ci").mkdir(parents=True)
    (checkout / "scripts").mkdir()
    (checkout / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text())
    hang = checkout / "scripts" / "test"
    hang.write_text("#!/usr/bin/env bash\nexec sleep 600\n")  # a pass that never ends
    hang.chmod(hang.stat().st_mode | stat.S_IEXEC)
    run = subprocess.run(["bash", str(checkout / ".ci" / "run")], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "DTUI_CONTRACT_BUDGET": "2s", "DTUI_FAST_BUDGET": "2s",
                              "DTUI_SLOW_BUDGET": "2s"})
    assert run.returncode == 124  # timeout's own status: the budget ended the pass, and the run failed
    budgets = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("timeout ")]
    # every pass of the run has its budget
    passes = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if "./scripts/test" in line
              and not line.lstrip().startswith("#")]
    assert budgets == passes and budgets


def test_the_budgets_sum_under_cis_90_minutes_and_the_passes_run_in_parallel() -> None:
    text = (ROOT / ".ci" / "run").read_text()
    minutes = [int(m) for m in re.findall(r'\$\{DTUI_[A-Z]+_BUDGET:-(\d+)m\}', text)]
    assert len(minutes) == 3 and sum(minutes) <= 90, minutes
    # the budgets assume pytest-xdist spreads each pass over the cores
    run = [line for line in (ROOT / "scripts" / "test").read_text().splitlines()
           if line.startswith("exec ") and " pytest " in line]
    assert len(run) == 1 and " -n auto" in run[0], run
