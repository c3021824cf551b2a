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


# `daimon-tui --demo` up to the app's run (replaced: no terminal here), counting the collector's full passes
FULL_PASSES = ("import gc, sys\n"
               "import textual.app\n"
               "import daimon_tui.cli as cli\n"
               "full = []\n"
               "gc.callbacks.append(lambda phase, info: phase == 'start' and info['generation'] == 2\n"
               "                    and full.append(1))\n"
               "textual.app.App.run = lambda self, *a, **k: print('full passes', len(full), flush=True)\n"
               "cli._cannot_draw = lambda: None\n"
               "sys.exit(cli.main(['--demo']))\n")


def test_no_full_collection_walks_the_imports_on_the_way_to_the_first_frame() -> None:
    """The app's imports make most of the objects it will ever hold, all alive until it ends: a full
    pass of the collector over them (one, with dozens of young ones) only delayed the first frame."""
    done = subprocess.run([sys.executable, "-c", FULL_PASSES], capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert "full passes 0" in done.stdout.splitlines(), (done.stdout, done.stderr[-2000:])
