"""recall's per-query checks, paid once per generation of daimon's files.

Each `recall.query` proves again what only a write can change: that its index
is fresh (recall's freshness check: daimon's fingerprint, a stat of every
checkpoint) and the machine-wide forget walk (`store.forgotten_stamp` and
daimon's forget walk, three walks a query). A search keystroke pays all of
it again for the same files.

Inside `held()` those answer what they answered last while the generation
stands. The generation is the stat (inode, mtime, ctime, size) of every entry
under daimon's checkpoint dir and team dir (each clone's `.git` aside: git's
own files are no source daimon reads), daimon's retention knob and the day,
and, for freshness only, the index file: a superset of what each of those
functions reads, so while it stands each would answer the same. Any write
that can change an answer (a checkpoint, a forget, a quarantine, a sync, a
rebuild) moves it. When it cannot be told (a symlinked or unreadable
directory) nothing is reused. Daimon's own rules stay: a forget walk that
found a ledger unproven is never kept, so a repair shows at once. `kept`
does the same for a read of ours over daimon's files (search's teammates map).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TypeVar

from daimon_tui.store import paths
from daimon_tui.store.daimon_api import recall as daimon_recall
from daimon_tui.store.daimon_api.public import config
from daimon_tui.store.judging import kept_fold

_original_ensure_fresh = daimon_recall.daimon_ensure_fresh
_original_forgotten_stamp = daimon_recall.daimon_forgotten_stamp
_original_forgotten_walk = daimon_recall.daimon_forgotten_walk

# The generation of the current `held()` context: (sources, index stat), or None.
_current: ContextVar[tuple | None] = ContextVar("daimon_tui_recall_generation", default=None)
_lock = threading.Lock()
_fresh_at: tuple | None = None  # the generation recall last proved its index fresh in
_stamp: tuple | None = None  # (sources, forgotten_stamp())
_walk: tuple | None = None  # (sources, _forgotten_walk())
_kept: dict[object, tuple] = {}  # name -> (sources, value): `kept`
_KEPT_SIZE = 16
_installed = False
T = TypeVar("T")
_last: tuple | None = None  # the sources of the last `held()`


def _tree(root: str, out: list[tuple]) -> bool:
    """Every entry under `root` with its stat into `out`; False when the
    tree cannot be told (a symlinked or unreadable directory)."""
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            out.append((folder, None))
            continue
        except OSError:
            return False
        out.append((folder, paths.file_stamp(folder)))
        for entry in entries:
            if entry.name == ".git":
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                if entry.is_symlink() and entry.is_dir():
                    return False  # daimon's walks follow it; ours would not see inside
                st = entry.stat()
            except FileNotFoundError:  # gone since the listing: the next generation sees it
                out.append((entry.path, None))
                continue
            except OSError:
                return False
            out.append((entry.path, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size))
    return True


def generation() -> tuple | None:
    """(sources, index stat) of daimon's files now, or None when it cannot be told."""
    entries: list[tuple] = []
    for root in (config.checkpoint_dir(), config.team_dir()):
        if not _tree(str(root), entries):
            return None
    days = config.team_retention_days()
    # In listing order, unsorted: a listing that comes back in another order
    # only costs one more real check, never a stale answer.
    sources = (tuple(entries), days, int(time.time() // 86400) if days else 0)
    return (sources, paths.file_stamp(str(config.recall_db())))


def _ensure_fresh() -> None:
    global _fresh_at
    held = _current.get()
    if held is not None and held == _fresh_at:
        daimon_recall.touch_once(config.recall_db())
        return
    _original_ensure_fresh()
    if held is not None:
        # Kept only when no source moved while daimon checked (or rebuilt):
        # then the index it left is fresh for these sources.
        after = generation()
        if after is not None and after[0] == held[0]:
            with _lock:
                _fresh_at = after


def _forgotten_stamp() -> tuple:
    global _stamp
    held = _current.get()
    last = _stamp
    if held is not None and last is not None and last[0] == held[0]:
        return last[1]
    got = _original_forgotten_stamp()
    if held is not None:
        with _lock:
            _stamp = (held[0], got)
    return got


def _forgotten_walk() -> tuple[frozenset, frozenset]:
    global _walk
    held = _current.get()
    last = _walk
    if held is not None and last is not None and last[0] == held[0]:
        return last[1]
    with kept_fold.active():  # a fold-only reader: a large events ledger is read from the kept fold, as in a snapshot
        got = _original_forgotten_walk()
    if held is not None and not got[1]:  # daimon's rule: an unproven ledger is read again
        with _lock:
            _walk = (held[0], got)
    return got


def kept(name: object, compute: Callable[[], T]) -> T:
    """`compute()`, answered again while the sources stand as they did when
    it last ran; for a read of daimon's files only (outside `held()` it always runs)."""
    held = _current.get()
    got = _kept.get(name)
    if held is not None and got is not None and got[0] == held[0]:
        return got[1]
    value = compute()
    if held is not None:
        with _lock:
            _kept.pop(name, None)
            while len(_kept) >= _KEPT_SIZE:
                _kept.pop(next(iter(_kept)))
            _kept[name] = (held[0], value)
    return value


def install() -> None:
    """Route recall's freshness check and daimon's forget walk through here
    (idempotent); outside `held()`, and in safe mode, daimon's own code runs."""
    global _installed
    if _installed:
        return
    _installed = daimon_recall.install_generation(_ensure_fresh, _forgotten_stamp, _forgotten_walk)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Reuse recall's checks in this context while daimon's files stand as
    they did when they last ran."""
    install()
    global _last
    now = generation()
    if now is not None:
        if now[0] == _last:
            now = (_last, now[1])  # one object: the memos below compare by identity first
        _last = now[0]
    token = _current.set(now)
    try:
        yield
    finally:
        _current.reset(token)


def forget() -> None:
    """Drop every kept answer (tests)."""
    global _fresh_at, _stamp, _walk, _last
    with _lock:
        _fresh_at = _stamp = _walk = _last = None
        _kept.clear()
