"""One daimon snapshot shared by every read of a bucket until its ledgers change.

daimon's `view.snapshot(project)` re-reads and re-folds every bucket ledger on
each call (`open`, `why`, `lineage`, `open_sessions`, the audit...), which on a
year of memory is the whole cost of a read. Every one of those daimon readers
looks the function up as `view.snapshot` at call time, so wrapping it once gives
them all the same folded snapshot. The memo key is what the snapshot is a
function of: the stat of each bucket ledger and daimon's own machine-wide
`forgotten_stamp()` (the same key daimon's `view.judge` memo trusts). A write
anywhere that can change a verdict changes the key, so a stale snapshot is never
served. The snapshot is a frozen dataclass of read-only mappings: safe to share
across threads.

`substitute(snap)` makes every read in the current context (it follows
`asyncio.to_thread`) use a given snapshot: the first paint uses it to run
daimon's own briefing code over a light, trust-only snapshot.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from daimon_tui.store import paths
from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import config, store, surfaces
from daimon_tui.store.judging import kept_fold, kept_fold_hooks

_original = daimon_judging.daimon_snapshot
_override: ContextVar[Any] = ContextVar("daimon_tui_snapshot_override", default=None)
_memo: dict[tuple, Any] = {}
_lock = threading.Lock()
_MEMO_SIZE = 4
_installed = False


def memo_key(project: Any) -> tuple | None:
    """What the snapshot of `project` depends on, or None when it cannot be told."""
    try:
        bucket = daimon_reading.bucket_dir(project)
    except Exception:  # unknown bucket: no memo, daimon decides
        return None
    if bucket is None:
        return None
    base = str(bucket)
    ledgers = tuple((name, paths.file_stamp(os.path.join(base, name))) for name in surfaces.bucket_ledger_names())
    return (str(config.checkpoint_dir()), base, ledgers, store.forgotten_stamp())


def _shared(project: Any) -> Any:
    forced = _override.get()
    if forced is not None:
        return forced
    key = memo_key(project)
    if key is None:
        return _original(project)
    with _lock:
        hit = _memo.get(key)
        if hit is None:
            _drop_stale(key)
    if hit is not None:
        return hit
    with kept_fold.active():  # the events ledger: only its appended rows are folded again
        snap = _original(project)
    hand_kept_answers(snap)
    # Only a snapshot that read every ledger cleanly is worth keeping: an
    # unreadable or transient ledger is read again next time, as daimon does.
    if not snap.closed and not snap.unscannable and memo_key(project) == key:
        with _lock:
            while len(_memo) >= _MEMO_SIZE:
                _memo.pop(next(iter(_memo)))
            _memo[key] = snap
    return snap


def hand_kept_answers(snap: Any) -> None:
    """What the kept fold already knows of a snapshot folded from it (its
    resolved refs), handed to it before anyone asks daimon to make it."""
    kept_fold_hooks.resolved_refs(kept_fold.KEPT, snap)


def _drop_stale(key: tuple) -> None:
    # A snapshot of the same bucket under older file stats can never be
    # served again: dropped before the next fold, not after it (one fold's
    # worth of memory at the peak, not two). Caller holds `_lock`.
    for stale in [k for k in _memo if k[:2] == key[:2] and k != key]:
        del _memo[stale]


def drop_stale(project: Any) -> None:
    """Forget the snapshots of `project` that its files have outdated."""
    key = memo_key(project)
    if key is not None:
        with _lock:
            _drop_stale(key)


def daimons_snapshot(project: Any) -> Any:
    """daimon's own `view.snapshot`, never memoized nor substituted: for a
    read that changes what the ledgers answer (and must not be shared)."""
    return _original(project)


def install() -> None:
    """Route daimon's `view.snapshot` through the shared memo (idempotent; in
    safe mode nothing is routed: every read takes daimon's own snapshot)."""
    global _installed
    kept_fold.install()
    if not _installed:
        _installed = daimon_judging.install_shared_snapshot(_shared)


def cached(project: Any) -> Any | None:
    """The shared snapshot of `project` if one is held for its current files."""
    key = memo_key(project)
    with _lock:
        return _memo.get(key) if key is not None else None


def clear() -> None:
    with _lock:
        _memo.clear()


@contextlib.contextmanager
def substitute(snap: Any) -> Iterator[None]:
    """Every `view.snapshot` call in this context returns `snap`."""
    install()
    token = _override.set(snap)
    try:
        yield
    finally:
        _override.reset(token)
