"""Imports run downward only. The rules are import-linter contracts in
pyproject.toml ([tool.importlinter]): the layers (cli; ui | headless;
services; store; settings; action_specs; domain; models), only the
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


# One value-type system (docs/architecture.md, "The model"): frozen slotted `Record` dataclasses.
# pydantic stays only where input crosses a boundary; each module here says why it imports it.
_PYDANTIC_MODULES = {
    "models/records.py": "the TypeAdapter behind Record.model_validate/_json and model_dump, the boundaries' check",
    "settings.py": "Settings, the settings file a person writes, with its keys validator",
    "store/settings_file.py": "reads the settings file (ValidationError)",
    "store/action_log.py": "reads our action log back (ValidationError)",
    "store/review_file.py": "reads the review's file back (ValidationError)",
    "store/child/judge_service.py": "validates the child's answers",
}
_MODEL_BASES = {"Frozen", "BaseModel"}


def _pydantic_uses(path: Path) -> list[str]:
    """Each import of pydantic and each class on a pydantic base (`Frozen`, `BaseModel`) in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            found += [f"{node.lineno}: import {name}" for name in names if name.split(".")[0] == "pydantic"]
        elif isinstance(node, ast.ClassDef):
            bases = {base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases}
            found += [f"{node.lineno}: class {node.name}({base})" for base in bases & _MODEL_BASES]
    return found


def test_pydantic_is_used_only_at_the_boundaries() -> None:
    found = {str(path.relative_to(PACKAGE)): hits for path in sorted(PACKAGE.rglob("*.py"))
             if (hits := _pydantic_uses(path))}
    outside = {name: hits for name, hits in found.items() if name not in _PYDANTIC_MODULES}
    assert outside == {}, "a value type is a frozen slotted Record dataclass; pydantic only at a boundary"
    assert set(found) == set(_PYDANTIC_MODULES), "a boundary module no longer uses pydantic: drop it from the list"


def test_the_pydantic_scan_sees_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from pydantic import Field\nimport pydantic.fields\nclass A(Frozen): pass\n"
                      "class B(pydantic.BaseModel): pass\nclass C(Record): pass\n", encoding="utf-8")
    assert _pydantic_uses(sample) == ["1: import pydantic", "2: import pydantic.fields", "3: class A(Frozen)",
                                      "4: class B(BaseModel)"]
