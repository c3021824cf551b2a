"""daimon's own functions, kept while an adapter's stand-in is in their place.

The contracts are about daimon, never about our stand-ins: a mode decided
again after a swap must see daimon's own (`contracts` reads them here).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

# "module:name" -> daimon's own object, for each one swapped.
kept: dict[str, Any] = {}


def swap(module: Any, name: str, replacement: Any) -> None:
    """Put `replacement` in place of `module.name` (adapters only), daimon's own kept."""
    kept.setdefault(f"{module.__name__}:{name}", getattr(module, name))
    setattr(module, name, replacement)


@contextlib.contextmanager
def swapped(swaps: Iterable[tuple[Any, str, Any]]) -> Iterator[None]:
    """Each `(module, name, replacement)` in place for this block only; what
    was there before (daimon's own, or an outer stand-in) comes back after."""
    before = [(module, name, getattr(module, name)) for module, name, _ in swaps]
    try:
        for module, name, replacement in swaps:
            swap(module, name, replacement)
        yield
    finally:
        for module, name, value in reversed(before):
            setattr(module, name, value)


def snapshot() -> dict[str, dict[str, Any]]:
    """Every loaded daimon module's names as they are now (for `put_back`)."""
    return {name: dict(vars(module)) for name, module in list(sys.modules.items())
            if name.startswith("daimon_briefing") and module is not None}


def put_back(before: Mapping[str, Mapping[str, Any]]) -> None:
    """Each name ever swapped back to what it was when `before` was taken."""
    for key in list(kept):
        module_name, _, name = key.rpartition(":")
        if name in before.get(module_name, {}):
            setattr(sys.modules[module_name], name, before[module_name][name])
