"""A test process's watch on daimon's private names (issue 30.3).

`install()` makes every loaded `daimon_briefing` module refuse, and record,
any leading-underscore attribute that code in `daimon_tui` reads from it and
any attribute `daimon_tui` assigns onto it (a swap); a daimon function with a
leading-underscore name that a `daimon_tui` module holds as its own global
(taken at import) records each call. daimon's own code is untouched: only the
frame that reaches in is judged. Install it once the mode is decided (the
contracts probe daimon's private names on purpose, to choose the mode).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
import types
from typing import Any

seen: list[str] = []


class PrivateAccess(RuntimeError):
    """Our code reached a private daimon name in safe mode."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(depth: int) -> str | None:
    name = sys._getframe(depth + 1).f_globals.get("__name__", "")
    return name if name == "daimon_tui" or name.startswith("daimon_tui.") else None


class _Guarded(types.ModuleType):
    def __getattribute__(self, name: str) -> Any:
        if _private(name):
            caller = _ours(1)
            if caller:
                where = f"{types.ModuleType.__getattribute__(self, '__name__')}.{name}"
                seen.append(f"{caller} read {where}")
                raise PrivateAccess(where)
        return types.ModuleType.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        caller = _ours(1)
        if caller:
            where = f"{types.ModuleType.__getattribute__(self, '__name__')}.{name}"
            seen.append(f"{caller} swapped {where}")
            raise PrivateAccess(where)
        types.ModuleType.__setattr__(self, name, value)


def _recording(fn: Any, held_as: str) -> Any:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        seen.append(f"{held_as} called ({fn.__module__}.{fn.__name__})")
        raise PrivateAccess(held_as)

    return call


def _load_daimon() -> None:
    import daimon_briefing
    import daimon_briefing.cli

    for package in (daimon_briefing, daimon_briefing.cli):
        for found in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            if found.name.rsplit(".", 1)[1].startswith("_") or found.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(found.name)
            except Exception:  # an optional dependency of a module our code never uses
                continue


def install() -> None:
    _load_daimon()
    for name, module in list(sys.modules.items()):
        if (name == "daimon_briefing" or name.startswith("daimon_briefing.")) and type(module) is types.ModuleType:
            module.__class__ = _Guarded
    for name, module in list(sys.modules.items()):
        if not (name == "daimon_tui" or name.startswith("daimon_tui.")) or module is None:
            continue
        for key, value in list(vars(module).items()):
            owner = getattr(value, "__module__", None) or ""
            if (callable(value) and owner.startswith("daimon_briefing")
                    and _private(getattr(value, "__name__", ""))):
                setattr(module, key, _recording(value, f"{name}.{key}"))
