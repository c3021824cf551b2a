"""What the first frame waits for: every module imported before the app runs.
Modules the first frame does not use are imported when first used, not at start."""

from __future__ import annotations

import subprocess
import sys

# The evidence readers (git, our world and transcript readers) serve the detail pane's and
# the item view's reads, and pygments (rich's Syntax) paints a file's lines: all after the first frame.
NOT_AT_START = ("git", "daimon_tui.services.evidence", "daimon_tui.store.world.evidence",
                "daimon_tui.store.read.transcripts", "pygments")

LOADED = ("import sys\n"
          "import daimon_tui.cli\n"
          "from daimon_tui.ui.app import DaimonTUI\n"
          f"print(sorted(m for m in {NOT_AT_START!r} if m in sys.modules))\n")


def test_the_app_imports_no_evidence_reader_before_its_first_frame() -> None:
    done = subprocess.run([sys.executable, "-c", LOADED], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
