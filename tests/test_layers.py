"""Imports run downward only. The rules are import-linter contracts in
pyproject.toml ([tool.importlinter]): the layers (cli; ui | headless;
services; store; settings; action_specs; domain; models; records), only the
store imports daimon, the views reach no adapter, no circles. This file runs
them, and keeps what a contract cannot say (a run-time identity)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import daimon_tui

PACKAGE = Path(daimon_tui.__file__).parent
ROOT = PACKAGE.parent


def test_the_import_contracts_hold() -> None:
    assert (ROOT / "pyproject.toml").is_file(), "the contracts live in the source tree's pyproject.toml"
    # The tree under test, not an installed copy; no cache written into the tree.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())",
         "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=110, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_settings_read_the_action_vocabulary_below_ui() -> None:
    from daimon_tui import action_specs, settings
    from daimon_tui.ui import actions

    assert actions.ACTIONS is action_specs.ACTIONS
    assert {spec.id for spec in action_specs.ACTIONS} == settings.ACTION_IDS
