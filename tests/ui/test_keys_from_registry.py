"""Every view's keys come from the action registry (`daimon_tui.action_specs`,
through `daimon_tui.ui.actions`), so the bindings, `?`, the palette, the README
and settings `[keys]` read one list (issue 39, "Deliver" 2). A key bound by
hand on a screen has no registry id: settings cannot remap it, and nothing
checks its words against the rest. The classes left binding by hand are listed
below, each with why."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

from textual.binding import Binding

import daimon_tui.ui
from daimon_tui.action_specs import ACTIONS

UI = Path(daimon_tui.ui.__file__).parent
REGISTRY_IDS = {spec.id for spec in ACTIONS}

# Module path (under daimon_tui/ui) -> the classes in it that still bind keys by hand, and why.
BY_HAND: dict[str, tuple[set[str], str]] = {
    "actions.py": (set(), "the one place that turns the registry into bindings"),
    "widgets/filter_box.py": ({"FilterBox"}, "a widget's own keys while it has the focus (Enter keeps, "
                                             "Esc clears), like an Input's: no view action"),
    "widgets/row_list.py": ({"RowList"}, "a widget's own cursor keys, as DataTable has its own: no view action"),
    "screens/verb_modals.py": ({"ConfirmModal", "_InputModal"},
                               "the verb dialogs' y/n/Esc answer the dialog; left as they are by issue 39's plan"),
}


def _ui_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages([str(UI)], "daimon_tui.ui."))


def _hand_bound_classes() -> dict[str, set[str]]:
    """Per module file, the classes whose own `BINDINGS` hold a key not built from the registry."""
    found: dict[str, set[str]] = {}
    for name in _ui_modules():
        module = importlib.import_module(name)
        path = Path(module.__file__ or "").relative_to(UI).as_posix()
        for cls in vars(module).values():
            if not (inspect.isclass(cls) and cls.__module__ == name):
                continue
            own = cls.__dict__.get("BINDINGS", [])
            if any(not isinstance(b, Binding) or b.id not in REGISTRY_IDS for b in own):
                found.setdefault(path, set()).add(cls.__name__)
    return found


def test_every_screen_binds_its_keys_from_the_registry() -> None:
    found = _hand_bound_classes()
    unlisted = {path: classes - BY_HAND.get(path, (set(), ""))[0] for path, classes in found.items()}
    unlisted = {path: sorted(classes) for path, classes in unlisted.items() if classes}
    assert not unlisted, (
        "keys bound by hand (a Binding or a tuple with no registry id): give them ActionSpec entries in "
        f"daimon_tui/action_specs.py and declare them with ui.actions.bindings(...): {unlisted}")


def test_no_binding_is_built_outside_the_listed_modules() -> None:
    """`Binding(` itself, wherever it is written (a helper building one escapes the class check)."""
    built = set()
    for path in UI.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Binding":
                built.add(path.relative_to(UI).as_posix())
    assert built <= set(BY_HAND), f"Binding(...) written outside the listed modules: {sorted(built - set(BY_HAND))}"


def test_the_exceptions_are_still_needed() -> None:
    """A listed class that now binds from the registry leaves the list (the list only shrinks)."""
    found = _hand_bound_classes()
    stale = {path: sorted(classes - found.get(path, set())) for path, (classes, _why) in BY_HAND.items()}
    assert not {path: c for path, c in stale.items() if c}, f"listed but bound from the registry now: {stale}"
