"""The judging child never outlives the app (issue 43): killed mid-fold, the
app leaves no child behind 2 s later, whether the child was started before
the first paint (`early_child`) or by a request from the service's worker
thread (where PR_SET_PDEATHSIG would fire when that thread ends)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.ui.pty_run import ROOT, left_after

APP = """
import asyncio, sys, time
from daimon_tui.models import ProjectRef
from daimon_tui.store.child import early_child, judge_service
from daimon_tui.store.judging.kept_fold_check import FoldCheck

early_child.CHILD_MODULE = judge_service.CHILD_MODULE = "tests.hostile.busy_child"
if sys.argv[1] == "early":
    early_child.spawn(None, "busy")
    time.sleep(3600)
else:
    asyncio.run(judge_service.service().call("fold", ProjectRef(slug="busy"), model=FoldCheck))
"""


@pytest.mark.parametrize("started", ["early", "request"])
def test_the_child_ends_within_2_s_of_its_app_even_mid_fold(tmp_path: Path, started: str) -> None:
    tag = uuid.uuid4().hex
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DAIMON_TUI_TEST_MARKS": str(tmp_path),
           "DAIMON_TUI_TEST_TAG": tag}
    app = subprocess.Popen([sys.executable, "-c", APP, started], env=env, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "folding").exists():
            assert time.monotonic() < deadline and app.poll() is None, "the child never started its fold"
            time.sleep(0.05)
        child = int((tmp_path / "folding").read_text())
        assert child in left_after(tag, 0)
        app.send_signal(signal.SIGKILL)  # no exit handler of the app's runs
        app.wait(timeout=10)
        assert left_after(tag, 2.0) == [], "the judging child outlived its app"
    finally:
        if app.poll() is None:
            app.kill()
        for pid in left_after(tag, 0):
            os.kill(pid, signal.SIGKILL)
