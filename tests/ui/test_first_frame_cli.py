"""A later open as `daimon-tui` starts it (the console entry, `cli.main`), up to its kept first frame:
what the command line adds before the app runs is on that frame's path too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from daimon_tui.store.demo import builder as demo
from tests.ui.test_first_frame_kept import confirmed_open, small_store

# `daimon-tui` with no argument, in the project's directory, headless (no terminal here), until the
# first-frame probe has written the frame's modules and ended the app.
CONSOLE = ("import sys\n"
           "import textual.app\n"
           "import daimon_tui.cli as cli\n"
           "run = textual.app.App.run\n"
           "textual.app.App.run = lambda self, **_: run(self, headless=True, size=(140, 40))\n"
           "cli._cannot_draw = lambda: None\n"
           "sys.exit(cli.main([]))\n")

# importlib.metadata (email, csv, zipfile: ~20 ms) answered which daimon is installed; the action log's
# modules (~10 ms) were imported for the demo's log. Neither is needed before a later open's first frame.
# The early judging child's module serves a first open only (a later open starts the child once drawn).
NOT_BEFORE_THE_FRAME = ("importlib.metadata", "email", "zipfile", "daimon_tui.store.action_log",
                        "daimon_tui.domain.action_entries", "daimon_tui.store.child.early_child")


def console_first_frame(project: Path, tmp_path: Path) -> list[str]:
    out = tmp_path / "first-frame.txt"
    env = {**os.environ, "DAIMON_TUI_FIRST_FRAME_MODULES": str(out)}
    done = subprocess.run([sys.executable, "-c", CONSOLE], env=env, cwd=project, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert out.exists(), f"the first frame was never reported: {done.stderr[-3000:]}"
    return out.read_text(encoding="utf-8").splitlines()


async def test_a_later_open_from_the_command_line_imports_no_metadata_reader_nor_action_log(
        empty_store: demo.DemoStore, tmp_path: Path) -> None:
    small_store(empty_store.project, 2, 5)
    await confirmed_open(empty_store.project)
    lines = console_first_frame(empty_store.project, tmp_path)
    assert lines[0] == "provisional=True"  # the kept frame, drawn before daimon
    assert "daimon_briefing" not in lines
    assert sorted(set(NOT_BEFORE_THE_FRAME) & set(lines)) == []
