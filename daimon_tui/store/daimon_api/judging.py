"""Judging: daimon's judge and snapshot, its trust index, and the swaps that
share one snapshot and answer a read from a subset of the events rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from daimon_briefing import jsonl, store, view

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.originals import swap

daimon_read_judge = private.own_read_judge
daimon_snapshot = view.snapshot


def read_judge(slug: Any, forgotten: Any) -> Any:
    """daimon's light judge of a bucket (through the kept fold when it is on):
    `(Judge, memoizable)`."""
    mode.require("judging.read-judge")
    return private.read_judge(slug, forgotten)


def trust_index(project: Any, read: jsonl.Read) -> tuple:
    """daimon's fold of a trust ledger: (quarantine ids, items, health, detail)."""
    mode.require("judging.trust-index")
    return private.trust_index(project, read)


def frozen(mapping: Mapping) -> Mapping:
    """A read-only copy, as daimon's snapshot holds its mappings."""
    return MappingProxyType(dict(mapping))


def swap_read_judge(replacement: Callable[..., Any]) -> None:
    """Called by `reading.install_kept_fold` only (which checked the mode)."""
    swap(view, private.READ_JUDGE_NAME, replacement)


def install_shared_snapshot(replacement: Callable[[Any], Any]) -> bool:
    """Every daimon reader's `view.snapshot` becomes `replacement`; False in safe mode."""
    if not mode.allows("judging.swaps"):
        return False
    swap(view, "snapshot", replacement)
    return True


def install_events_judge(read: Callable[..., Any], judge: Callable[..., Any]) -> tuple[Callable, Callable] | None:
    """Route `jsonl.read` and `view.judge` through `read` and `judge`; the
    functions they replace (to call on), or None (nothing swapped) in safe mode."""
    if not (mode.allows("judging.swaps") and mode.allows("judging.read-judge")):
        return None
    previous = jsonl.read, view.judge
    swap(jsonl, "read", read)
    swap(view, "judge", judge)
    return previous


def install_machine_walk(machine_sets: Callable[[], Any], incomplete: Callable[[], Any]) -> tuple | None:
    """Route daimon's machine-wide forget walk through these; the functions
    they replace, or None (nothing swapped) in safe mode."""
    if not mode.allows("judging.swaps"):
        return None
    previous = view.machine_sets, store.forgotten_incomplete
    swap(view, "machine_sets", machine_sets)
    swap(store, "forgotten_incomplete", incomplete)
    return previous
