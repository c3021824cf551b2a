"""Imports run downward only: `ui` sits on top; `settings`, `models`, the
action vocabulary, `domain` and `store` never import it."""

from __future__ import annotations

import ast
from pathlib import Path

import daimon_tui

PACKAGE = Path(daimon_tui.__file__).parent


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_nothing_below_ui_imports_it() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "ui" or rel.name == "cli.py":
            continue  # the top: the app and its entry point
        upward += [f"{rel}: {name}" for name in _imports(path)
                   if name == "daimon_tui.ui" or name.startswith("daimon_tui.ui.")]
    assert upward == []


def test_settings_read_the_action_vocabulary_below_ui() -> None:
    from daimon_tui import action_specs, settings
    from daimon_tui.ui import actions

    assert "daimon_tui.action_specs" in _imports(PACKAGE / "settings.py")
    assert actions.ACTIONS is action_specs.ACTIONS
    assert {spec.id for spec in action_specs.ACTIONS} == settings.ACTION_IDS


def test_only_the_store_imports_daimon() -> None:
    outside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "store":
            continue
        outside += [f"{rel}: {name}" for name in _imports(path)
                    if name == "daimon_briefing" or name.startswith("daimon_briefing.")]
    assert outside == []
