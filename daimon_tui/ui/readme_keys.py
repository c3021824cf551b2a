"""The README's key tables, one per view, generated from the bindings (the
same rows `?` shows), so the README cannot drift from the keys."""

from __future__ import annotations

import importlib

from textual.screen import Screen

from daimon_tui.ui.app import VIEWS, DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.key_table import class_bindings, global_rows, markdown_table, screen_rows

BEGIN = "<!-- keys: generated from the bindings by the readme_keys script; do not edit -->"
END = "<!-- /keys -->"


def view_classes() -> list[type[Screen]]:
    from daimon_tui.ui.item.screen import ItemScreen

    views: list[type[Screen]] = [BriefingScreen, ItemScreen]
    for module_name, class_name in VIEWS.values():
        views.append(getattr(importlib.import_module(module_name), class_name))
    return views


def tables() -> str:
    parts = []
    for view in view_classes():
        bindings = class_bindings(view)
        name = getattr(view, "VIEW_NAME", view.__name__)
        parts += [f"**{name}**", "", markdown_table(screen_rows(bindings)), ""]
    app_bindings = class_bindings(DaimonTUI)
    parts += ["**Everywhere** (unless the view uses the key for something else)", "",
              markdown_table(global_rows(app_bindings))]
    return "\n".join(parts)


def block() -> str:
    return f"{BEGIN}\n{tables()}\n{END}"


def rewrite(readme: str) -> str:
    """The README with its key block replaced by the generated one."""
    head, found, rest = readme.partition(BEGIN)
    if not found:
        raise ValueError("the README has no generated key block")
    _old, found, tail = rest.partition(END)
    if not found:
        raise ValueError("the README's key block is not closed")
    return head + block() + tail
