"""Whose intent is still being written (issue 43): a writer that exited is
gone even before its parent reaps it. A killed app whose terminal went is
reparented and may stay a zombie for a while; the next start must still
settle its intent, not wait for it forever."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from daimon_tui.store import writer_process


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_a_writer_that_exited_unreaped_is_gone() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    try:
        name = f"{child.pid}:{writer_process._start_ticks(child.pid)}"
        assert writer_process.alive(name)
        deadline = time.monotonic() + 30
        while _state(child.pid) != "Z":  # exited; not waited for: a zombie
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert not writer_process.alive(name)
    finally:
        child.wait()
