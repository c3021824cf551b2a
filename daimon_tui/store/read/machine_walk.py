"""daimon's machine-wide forget walk, left out where a read cannot pay for it
(`skipped()`: `provisional_details` answers an item from its own rows), and
the swap that makes that possible (`install`, one of `install_swaps`).

Apart from the provisional details so that installing the swap imports no
model (the judging child installs every swap before its early answer).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api import mode

_walk_skipped: ContextVar[bool] = ContextVar("daimon_tui_walk_skipped", default=False)
_next_machine_sets: Any = None
_next_incomplete: Any = None


def _machine_sets() -> tuple[frozenset, frozenset]:
    if _walk_skipped.get():
        return frozenset(), frozenset()
    return _next_machine_sets()


def _incomplete() -> frozenset:
    return frozenset() if _walk_skipped.get() else _next_incomplete()


def install() -> bool:
    """Route daimon's machine-wide forget walk through here (idempotent;
    outside `skipped()` daimon's own walk answers). False in safe mode."""
    global _next_machine_sets, _next_incomplete
    if _next_machine_sets is None:
        previous = daimon_judging.install_machine_walk(_machine_sets, _incomplete)
        if previous is None:
            return False
        _next_machine_sets, _next_incomplete = previous
    return True


@contextlib.contextmanager
def skipped() -> Iterator[None]:
    """daimon's machine-wide forget walk answers "nothing" in this context."""
    if not install():
        raise mode.Unavailable("provisional details are off in safe mode")
    token = _walk_skipped.set(True)
    try:
        yield
    finally:
        _walk_skipped.reset(token)
