"""Imports run downward only. The rules are import-linter contracts in
pyproject.toml ([tool.importlinter]): the layers (cli; ui | headless;
services; store; settings; action_specs; domain; models; records), only the
store imports daimon, the views reach no adapter, no circles. This file runs
them, and keeps what a contract cannot say: a run-time identity, and the
domain's file calls (an import contract sees imports, not a `Path` handed in).
The `ignore_imports` lines in pyproject.toml are the work left."""

from __future__ import annotations

import ast
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


# Calls that read or write files, whatever module they come from (a `Path`
# handed in, the builtin `open`): the import contract cannot see them.
_FILE_CALLS = {"open", "read_text", "write_text", "read_bytes", "write_bytes", "iterdir", "glob", "rglob", "mkdir",
               "unlink", "rmdir", "touch", "exists", "is_file", "is_dir", "stat", "lstat", "chmod", "symlink_to"}


def _file_calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in _FILE_CALLS:
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(func)}()")
    return found


def test_the_domain_reads_and_writes_no_file() -> None:
    found = [hit for path in sorted((PACKAGE / "domain").rglob("*.py")) for hit in _file_calls(path)]
    assert found == []


def test_the_file_call_scan_sees_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("p.read_text()\nopen('x')\nq.parent.mkdir()\ntext.replace('a', 'b')\n", encoding="utf-8")
    assert [hit.split(": ", 1)[1] for hit in _file_calls(sample)] == ["p.read_text()", "open()", "q.parent.mkdir()"]
