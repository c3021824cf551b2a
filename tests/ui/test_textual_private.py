"""Textual's private API is reached from one module only
(`daimon_tui.ui.textual_private`), checked against one Textual release."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import textual

import daimon_tui
from daimon_tui.ui import textual_private
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.key_table import class_bindings
from daimon_tui.ui.readme_keys import view_classes

PACKAGE = Path(daimon_tui.__file__).parent
# Textual's private names this app used to reach for (issue 39, deliverable 9).
PRIVATE_ATTRIBUTES = {"_bindings", "_merged_bindings", "_selected", "_nodes", "_pressed_button",
                      "_driver", "_writer_thread", "_auto_restart"}
PRIVATE_MODULE = re.compile(r"^textual(\.\w+)*\._\w+")


def test_the_wrapper_was_checked_against_the_installed_textual() -> None:
    assert textual_private.CHECKED_AGAINST == "8.2.8"
    assert textual.__version__ == textual_private.CHECKED_AGAINST, (
        f"Textual {textual.__version__} is installed; daimon_tui/ui/textual_private.py was checked against "
        f"{textual_private.CHECKED_AGAINST}: check each private use there, then move the pin")


def _private_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and PRIVATE_MODULE.match(node.module):
            found.append(f"from {node.module} import")
        elif isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if PRIVATE_MODULE.match(a.name)]
        elif isinstance(node, ast.Attribute) and node.attr in PRIVATE_ATTRIBUTES:
            found.append(f".{node.attr}")
        elif isinstance(node, ast.Constant) and node.value == "__watchers":
            found.append('"__watchers"')
    return found


def test_no_other_module_uses_textuals_private_api() -> None:
    wrapper = Path(textual_private.__file__)
    found = {path.relative_to(PACKAGE).as_posix(): uses for path in sorted(PACKAGE.rglob("*.py"))
             if path != wrapper and (uses := _private_uses(path))}
    assert found == {}


@pytest.mark.parametrize("cls", [*view_classes(), DaimonTUI], ids=lambda cls: cls.__name__)
def test_the_bindings_read_from_the_classes_are_textuals_own(cls: type) -> None:
    """`class_bindings` (public names only) merges as Textual does."""
    ours, textuals = class_bindings(cls).key_to_bindings, cls._merged_bindings.key_to_bindings
    assert list(ours) == list(textuals) and ours == textuals
