"""A ledger's first kept fold, built after the answer (the judging child's
`defer_builds`): until it is whole every read gets daimon's own rows, with
the rows a write appended meanwhile read alone (`grow_pending`); the build
runs once the child is idle, in a thread of its own (`build_in_background`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from daimon_tui.store.daimon_api.public import Health, jsonl
from daimon_tui.store.judging import kept_fold_persist
from daimon_tui.store.judging.kept_fold_ledger import line_starts, stat_id, stat_key
from daimon_tui.store.judging.kept_fold_protocol import KeptFoldJobs, Pending
from daimon_tui.store.judging.kept_fold_rows import Kept, corroborations_after


def build(fold: KeptFoldJobs, key: str, data: bytes, read: jsonl.Read, verified: tuple, folded: dict | None = None,
          persist: bool = True, corroborations: dict | None = None) -> Kept | None:
    """Keep the fold of `read` (daimon's read of exactly `data`, every line a
    row); `folded`: daimon's fold of its rows (keys kept), `corroborations`
    its corroboration fold, when already made."""
    starts = line_starts(data, 0)
    if len(starts) != len(read.rows):
        return None
    kept = Kept(0, "").absorb(fold.daimon, read.rows, starts, len(data), hashlib.sha256(data).hexdigest(), folded)
    kept.verified = verified
    kept.corroborations = corroborations
    kept_fold_persist.keep(fold, key, kept, persist=persist)
    return kept


def build_one(fold: KeptFoldJobs, key: str, pending: Pending) -> Kept | None:
    """The fold of a deferred full read, kept in memory (saved by `build_pending` once held)."""
    return build(fold, key, pending.data, pending.read, pending.stat_key, pending.winners, persist=False,
                 corroborations=pending.corroborations)


def grow_pending(fold: KeptFoldJobs, path: Path, key: str, pending: Pending) -> Pending | None:
    """`pending` with the rows appended since, when the ledger only grew by
    whole rows: a verb written right after a first open is checked over
    daimon's rows read so far plus daimon's read of the appended bytes alone,
    not behind the build (seconds of placing every line); the build comes
    later, over the bytes with the appended rows. None when it did not only
    grow (then the build and daimon's reads decide)."""
    daimon = fold.daimon
    try:
        with path.open("rb") as handle:
            before = os.fstat(handle.fileno())
            if not stat.S_ISREG(before.st_mode) or before.st_size <= len(pending.data):
                return None
            data = handle.read()
        if len(data) != before.st_size or not data.endswith(b"\n") or not data.startswith(pending.data):
            return None
        rest = len(data) - len(pending.data)
        # daimon judges exactly the appended bytes (as `KeptFold.extend` does)
        tail = daimon.read(path, tail_bytes=rest + 1)
        after = os.stat(path)
    except OSError:
        return None
    if (tail.health is not Health.OK or stat_id(after) != stat_id(before)
            or len(line_starts(data[len(pending.data):], 0)) != len(tail.rows)):
        return None
    winners = pending.winners
    if winners is not None:  # `_fold` is per ref: only the refs the appended rows name are folded again
        named = dict.fromkeys(str(row.get("item_ref") or "") for row in tail.rows if isinstance(row, dict))
        winners = dict(winners)
        winners.update(daimon.fold([winners[ref] for ref in named if ref in winners] + tail.rows, keys=True))
    grown = Pending(stat_key(after), pending.read._replace(rows=[*pending.read.rows, *tail.rows]), data, winners,
                    corroborations_after(daimon, pending.corroborations, pending.read.rows, tail.rows))
    with fold.lock:
        if fold.pending.get(key) is not pending:
            return None  # built or grown meanwhile
        fold.pending[key] = grown
    return grown


def build_pending(fold: KeptFoldJobs) -> None:
    """Build and keep (in memory and on disk) the folds `KeptFold.full`
    deferred. Only a whole fold is ever held, and a ledger's full read
    answers until it is: the read is let go only once its fold is kept (or
    failed)."""
    built: list[tuple[str, Kept]] = []
    with fold.build_lock:  # one build at a time: a reader that needs it waits for the one under way
        with fold.lock:
            builds = list(fold.pending.items())
        for key, pending in builds:
            # a build that fails holds nothing: the next read is daimon's full read again
            with contextlib.suppress(Exception):
                kept = build_one(fold, key, pending)
                if kept is not None:
                    built.append((key, kept))
            with fold.lock:
                if fold.pending.get(key) is pending:
                    del fold.pending[key]
    for key, kept in built:  # on disk once held: a reader waiting on the build does not wait for the file
        with contextlib.suppress(Exception):
            kept_fold_persist.save(fold, key, kept)


def building(fold: KeptFoldJobs) -> bool:
    """Whether a kept fold is being built right now (in its thread)."""
    with fold.lock:
        return fold.builder is not None and fold.builder.is_alive()


def build_in_background(fold: KeptFoldJobs, wait: Callable[[], None]) -> threading.Thread | None:
    """`fold.build_pending` in a thread of its own (one at a time), after
    `wait()` returns, so the reads that come meanwhile are answered (from
    daimon's rows) instead of waiting for the build. The thread, or None
    when there is nothing to build."""

    def run() -> None:
        wait()
        fold.build_pending()

    with fold.lock:
        if not fold.pending or (fold.builder is not None and fold.builder.is_alive()):
            return None
        builder = fold.builder = threading.Thread(target=run, name="kept-fold-build", daemon=True)
    builder.start()
    return builder
