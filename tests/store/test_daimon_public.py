"""The store reaches daimon's public API through one door (`daimon_api.public`,
`public_cli`): every name it calls is there, checked against the installed daimon."""

from __future__ import annotations

import ast
import importlib
import sys
from collections import defaultdict
from pathlib import Path

from daimon_tui.store.daimon_api import public, public_cli

STORE = Path(__file__).resolve().parents[2] / "daimon_tui" / "store"
DOORS = {"daimon_tui.store.daimon_api.public": public, "daimon_tui.store.daimon_api.public_cli": public_cli}
SURFACE = {**public.SURFACE, **public_cli.SURFACE}


def test_the_surface_was_checked_against_the_installed_daimon() -> None:
    assert public.daimon_version() == public.CHECKED_AGAINST, (
        f"daimon {public.daimon_version()} is installed; daimon_api/public.py was checked against "
        f"{public.CHECKED_AGAINST}: check SURFACE's names on the new release, then move CHECKED_AGAINST")


def test_every_name_the_store_calls_is_public_and_in_the_installed_daimon() -> None:
    missing = [f"daimon_briefing.{module}.{name}" for module, names in sorted(SURFACE.items())
               for name in sorted(names) if not hasattr(importlib.import_module(f"daimon_briefing.{module}"), name)]
    private = [f"{module}.{name}" for module, names in SURFACE.items() for name in names if name.startswith("_")]
    assert (missing, private) == ([], []), f"absent from daimon {public.CHECKED_AGAINST}: {missing}"


def test_the_door_hands_out_daimons_own_module_objects() -> None:
    """A swap or a monkeypatch of a daimon attribute reaches every store caller
    only if each caller looks it up on daimon's module at call time."""
    for door in DOORS.values():
        for module in door.SURFACE:
            name = module.rpartition(".")[2]
            assert getattr(door, name) is sys.modules[f"daimon_briefing.{module}"], module


def store_calls() -> dict[str, set[str]]:
    """Each daimon module the store's modules import from a door -> the attributes they call on it."""
    calls: dict[str, set[str]] = defaultdict(set)
    for path in sorted(STORE.rglob("*.py")):
        if "daimon_api" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in DOORS:
                door = DOORS[node.module]
                for alias in node.names:
                    module = next((m for m in door.SURFACE if m.rpartition(".")[2] == alias.name), None)
                    if module is not None:
                        bound[alias.asname or alias.name] = module
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
                calls[bound[node.value.id]].add(node.attr)
    return calls


def test_the_surface_is_exactly_what_the_store_calls() -> None:
    calls = store_calls()
    beyond = {m: sorted(n - SURFACE.get(m, frozenset())) for m, n in calls.items() if n - SURFACE.get(m, frozenset())}
    unused = {m: sorted(n - calls.get(m, set())) for m, n in SURFACE.items() if n - calls.get(m, set())}
    assert (beyond, unused) == ({}, {}), "name the first in SURFACE; drop the second from it"


def test_no_store_module_imports_daimon_past_the_door() -> None:
    found = []
    for path in sorted(STORE.rglob("*.py")):
        if "daimon_api" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.relative_to(STORE)}:{node.lineno}" for n in names if n.split(".")[0] == "daimon_briefing"]
    assert found == []
