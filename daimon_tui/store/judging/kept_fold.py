"""daimon's events fold, kept across reads and runs: only appended rows are folded again.

A year of memory is ~200,000 rows in one bucket's `events.jsonl`, and every
`view.snapshot` (and daimon's machine-wide forget walk) reads and folds them
all. The folds are per-ref maxima: daimon's events fold keeps each ref's latest
event (resolutions, tombstones), `store.fold_corroborations` each (item,
witness) latest stamp and each ref's latest contradiction. So the rows that
can still change an answer are few (each ref's winner, each witness's and
demotion's latest row), and folding `those + the appended rows` gives exactly
what folding the whole file gives (tests/perf/test_kept_fold.py proves it
against daimon's full fold over stores with every event kind).

What is kept, per ledger: the byte size read so far (a line boundary), the
sha256 of those bytes, and where the kept rows start. In memory the rows
themselves; on disk (`kept_fold_file`) only the numbers, never a row: the
rows are read back from the ledger's own bytes, and only when those bytes
still hash the same. Also kept: daimon's corroboration fold of the witness
rows (ids and stamps only). With it, a later run reads back only the
winners (where they start: the kept bytes are hashed a block at a time,
never held whole); an item's witness rows are parsed when an appended row
names that item (its entry is folded again from them), so a later open
costs the bytes appended, not the ~100,000 witness rows. The once-per-run
check reads them back an item at a time and lets them go.
While the ledger's stat key (daimon's own memo key, ctime included) has
not moved since, the bytes are not hashed again. A ledger that grew:
daimon's `jsonl.read` judges the appended bytes alone (`tail_bytes`), and
they are folded onto the kept rows. Anything else
(shrunk, rewritten by forget or repair, a prefix that is not
every-line-a-row, a cache file that is not ours) is daimon's full read.

Also kept: where each ref's rows start and where the rows that may be a
tombstone start, so daimon's `item_events` (an item's lifecycle, read by
`lineage`, `why`, the verb plans and the writer's checks) and the receipt
audit read a handful of lines instead of parsing the whole ledger.

A first open (no kept fold anywhere) is daimon's full read; in the judging
child (`defer_builds`) the kept fold of it is built after the answer
(`build_pending`, `build_in_background`), and until it is whole every read
gets daimon's rows (with the rows a write appended meanwhile, read alone:
`kept_fold_build`).

Scope: `active()` turns it on for the current context only (the shared
snapshot, daimon's judge and forget walk, its ledger-health reads and write
gate), `rows_of(ref)` / `tombstone_rows()` for a subset of rows. Every other
reader (the events pane) needs all rows and gets daimon's own read.

Where each job lives: the fold itself (`kept_fold_rows`), a ledger's bytes
(`kept_fold_ledger`), to and from disk (`kept_fold_persist`, the file format
`kept_fold_file`), the deferred first build (`kept_fold_build`), the check
against daimon's fold (`kept_fold_check`), daimon's swapped functions
(`kept_fold_hooks`). This module holds the state, in one object (`KeptFold`,
one per process: `KEPT`), and answers a read.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import stat
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api.public import Health, jsonl
from daimon_tui.store.judging import kept_fold_build, kept_fold_file, kept_fold_hooks, kept_fold_persist, kept_fold_rows
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.judging.kept_fold_ledger import (
    LEDGER,
    hashed,
    line_starts,
    row_in_file,
    rows_in_file,
    stat_id,
    stat_key,
)
from daimon_tui.store.judging.kept_fold_protocol import Pending
from daimon_tui.store.judging.kept_fold_rows import (
    TOMBSTONES,
    Kept,
    KeptRows,
    Unplaced,
    may_be_tombstone,
    ref_key,
)

__all__ = ("KEEP_MIN_BYTES", "KEPT", "LEDGER", "KeptFold", "KeptRows", "ref_key")

KEEP_MIN_BYTES = 256 * 1024  # below this daimon's read is cheap: nothing is kept


class KeptFold:
    """The kept folds this process holds, and where they answer. One per
    process (`KEPT`): daimon's functions it stands in for are the process's."""

    def __init__(self, daimon: Daimon) -> None:
        self.daimon = daimon
        self.held: dict[str, Kept] = {}  # ledger -> its kept fold
        self.persisted: dict[str, int] = {}  # ledger -> the size its copy on disk covers
        self.pending: dict[str, Pending] = {}  # ledger -> a full read whose fold is built later
        # ledger -> (size, stat id): its first `size` bytes are the kept ones, says the writer that just
        # appended to it (`appended`: Health's copy, a file of ours), while its stat id stands
        self.vouched: dict[str, tuple[int, tuple]] = {}
        # ledger -> (its stat key, daimon's read of it then): a small ledger read inside `in_memory_only`
        # (Health's pass: another bucket's copy, the same bytes at every moment)
        self.small: dict[str, tuple[tuple, jsonl.Read]] = {}
        # ledger -> who takes daimon's next whole read of it (`hand_over`)
        self.takers: dict[str, Callable[[bytes, jsonl.Read, os.stat_result], None]] = {}
        self.lock = threading.Lock()
        self.build_lock = threading.Lock()  # one build at a time
        self.builder: threading.Thread | None = None
        self.installed = False
        self.deferring = False  # `defer_builds()`
        self.only_sealed = False  # `sealed_only()`: a headless report uses no fold from disk that is not sealed
        self.on: ContextVar[bool] = ContextVar("daimon_tui_kept_fold", default=False)
        # One ref's rows (`rows_of`), or TOMBSTONES (`tombstone_rows`); None: every row (`active`).
        self.for_ref: ContextVar[str | None] = ContextVar("daimon_tui_kept_ref", default=None)
        # Off while reading a copy we made and remove after (Health's pass): its fold on disk would never be read.
        self.on_disk: ContextVar[bool] = ContextVar("daimon_tui_kept_on_disk", default=True)
        # the item fold `kept_fold_hooks.fold` last handed out, and its kept fold (`tombstone_refs`, `machine_stamps`)
        self.handed: tuple[dict, Kept] | None = None

    # -- where it answers --------------------------------------------------------

    def install(self) -> None:
        """Route daimon's events reads and folds through here (idempotent,
        `kept_fold_hooks`); in safe mode (`daimon_api.mode`) nothing is
        routed and daimon's own code answers every read."""
        if not self.installed:
            self.installed = kept_fold_hooks.install_daimon_hooks(self)

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Answer large events ledgers from the kept fold in this context."""
        self.install()
        token = self.on.set(True)
        whole = self.for_ref.set(None)  # a snapshot taken inside `rows_of` folds every ref
        try:
            yield
        finally:
            self.for_ref.reset(whole)
            self.on.reset(token)

    def tombstone_rows(self) -> contextlib.AbstractContextManager[None]:
        """In this context an events ledger read holds only the rows that may be
        a forget's tombstone (a superset, file order kept): for a reader that
        keeps only tombstones (the receipt audit)."""
        return self.rows_of(TOMBSTONES)

    @contextlib.contextmanager
    def rows_of(self, ref: str) -> Iterator[None]:
        """In this context an events ledger read holds only the rows addressed to
        exactly `ref` (file order kept): what daimon's `fold_item_events` keeps."""
        self.install()
        token = self.for_ref.set(ref)
        try:
            yield
        finally:
            self.for_ref.reset(token)

    @contextlib.contextmanager
    def sealed_only(self) -> Iterator[None]:
        """While it lasts (in every thread: a report is one process's one job), a
        kept fold on disk is used only when its seal verifies (`kept_fold_file`:
        this app wrote it from a fold it checked against daimon's full fold). For
        a headless report, which has no later moment to check a fold and must
        never print what daimon would not: any other file is passed over for
        daimon's full read, whose fold is then kept, sealed."""
        before, self.only_sealed = self.only_sealed, True
        try:
            yield
        finally:
            self.only_sealed = before

    def forget_held(self) -> None:
        """Drop what is kept in memory (the files on disk stay)."""
        with self.lock:
            self.held.clear()
            self.persisted.clear()
            self.pending.clear()
            self.small.clear()

    @contextlib.contextmanager
    def in_memory_only(self) -> Iterator[None]:
        """In this context a kept fold is held in memory only, never written to our cache."""
        token = self.on_disk.set(False)
        try:
            yield
        finally:
            self.on_disk.reset(token)

    @contextlib.contextmanager
    def hand_over(self, path: Path, taker: Callable[[bytes, jsonl.Read, os.stat_result], None]) -> Iterator[None]:
        """While it lasts, daimon's next whole read of the ledger `path` that is
        kept (every line a row, nothing moved while it was read) is also
        handed to `taker`: its bytes, daimon's read of exactly them, the
        file's stat then. Health's pass cuts its copies from those rows
        instead of parsing the ledger again."""
        key = os.path.abspath(path)
        with self.lock:
            self.takers[key] = taker
        try:
            yield
        finally:
            with self.lock:
                if self.takers.get(key) is taker:
                    del self.takers[key]

    def appended(self, path: Path, size: int) -> None:
        """The writer of `path` (a copy of ours, in a private folder) has just
        appended to it, its first `size` bytes untouched: the next read's kept
        fold of exactly those bytes is extended without hashing them again,
        while the file's stat id is the one it has now."""
        key = os.path.abspath(path)
        try:
            st = os.stat(path)
        except OSError:
            return
        with self.lock:
            self.vouched[key] = (size, stat_id(st))

    def forget_under(self, folder: str) -> None:
        """Drop what is kept in memory for the ledgers under `folder` (a copy removed)."""
        prefix = os.path.join(os.path.abspath(folder), "")
        with self.lock:
            for held in (self.held, self.persisted, self.pending, self.vouched, self.small):
                for key in [k for k in held if k.startswith(prefix)]:
                    del held[key]

    def untrusted(self) -> list[str]:
        """The ledgers whose kept fold came from disk and is not checked yet."""
        with self.lock:
            return [key for key, kept in self.held.items() if isinstance(kept, Kept) and not kept.trusted]

    def latest_per_ref(self, rows: Any, *, keys: bool) -> dict:
        """daimon's `_fold(rows, keys=keys)` over the rows that can win (`kept_fold_rows`)."""
        return kept_fold_rows.latest_per_ref(rows, keys=keys, daimon=self.daimon)

    # -- the deferred first build (`kept_fold_build`) ------------------------------

    def defer_builds(self) -> None:
        """From now on, a ledger's first kept fold is built by `build_pending`,
        not inside the read that found none: the judging child answers a first
        open with daimon's full read, then builds while it waits for the next
        request."""
        self.deferring = True

    def build_pending(self) -> None:
        kept_fold_build.build_pending(self)

    def building(self) -> bool:
        return kept_fold_build.building(self)

    def build_in_background(self, wait: Callable[[], None] = lambda: None) -> threading.Thread | None:
        return kept_fold_build.build_in_background(self, wait)

    # -- a read ----------------------------------------------------------------------

    def read(self, path: Any, **options: Any) -> jsonl.Read:
        """`jsonl.read`, answered from the kept fold for a large events ledger
        inside `active()`; daimon's own read for everything else."""
        if options.get("tail_bytes", 0) is None:
            options.pop("tail_bytes")  # the whole file: what a read without the option judges
        target = Path(path)
        if options or not (self.on.get() or self.for_ref.get() is not None) or target.name != LEDGER:
            return self.daimon.read(path, **options)
        try:
            st = os.stat(target)
        except OSError:
            return self.daimon.read(path)
        if not stat.S_ISREG(st.st_mode):
            return self.daimon.read(path)
        key = os.path.abspath(target)
        if st.st_size < KEEP_MIN_BYTES:
            return self.small_read(target, key, st)
        with self.lock:
            pending = self.pending.get(key)
            kept: Kept | kept_fold_file.Spans | None = self.held.get(key)
        if pending is not None:
            if pending.stat_key == stat_key(st):
                return self.subset(pending.read)  # daimon's rows, not yet kept
            # the ledger grew (our own write, say): daimon's rows plus the appended
            # ones answer, the build still waits (`grow_pending`)
            grown = kept_fold_build.grow_pending(self, target, key, pending)
            if grown is not None:
                return self.subset(grown.read)
            # it moved otherwise: the fold of the rows read is built now, and
            # what came since is folded onto it (or daimon's full read decides)
            self.build_pending()
            with self.lock:
                kept = self.held.get(key)
        if kept is None:
            kept = kept_fold_file.load(key)
            if kept is not None and self.only_sealed and not kept.sealed:
                kept = None  # a fold nobody checked: daimon's full read (and a sealed fold of it) instead
        if isinstance(kept, Kept) and kept.verified == stat_key(st):
            answer = self.unchanged(target, kept)
            if answer is not None:
                return answer
        if kept is not None:
            try:
                answer = self.extend(target, key, kept)
            except OSError:
                answer = None
            if answer is not None:
                return answer
        return self.full(target, key)

    def small_read(self, path: Path, key: str, st: os.stat_result) -> jsonl.Read:
        """daimon's read of a small ledger; inside `in_memory_only` (Health's
        pass, whose copies of the other buckets' ledgers keep their bytes from
        moment to moment) kept while its stat key stands (each caller gets its own list)."""
        if self.on_disk.get():
            return self.daimon.read(path)
        with self.lock:
            held = self.small.get(key)
        if held is not None and held[0] == stat_key(st):
            return held[1]._replace(rows=list(held[1].rows))
        read = self.daimon.read(path)
        try:
            after = os.stat(path)
        except OSError:
            return read
        if stat_key(after) == stat_key(st):  # nothing moved while daimon read it
            with self.lock:
                self.small[key] = (stat_key(after), read._replace(rows=list(read.rows)))
        return read

    def full(self, path: Path, key: str) -> jsonl.Read:
        """daimon's read of the whole ledger; kept when every line is a row (at
        once, or by `build_pending` once the caller has answered)."""
        try:
            with path.open("rb") as handle:
                before = os.fstat(handle.fileno())
                data = handle.read()
        except OSError:
            return self.daimon.read(path)
        read = self.daimon.read(path)
        try:
            after = os.stat(path)
        except OSError:
            return read
        if (read.health is not Health.OK or not data.endswith(b"\n") or stat_id(before) != stat_id(after)
                or len(data) != after.st_size):
            return read
        with self.lock:
            taker = self.takers.pop(key, None)
        if taker is not None:
            with contextlib.suppress(Exception):  # the taker's trouble is never the read's
                taker(data, read, after)
        if self.deferring:
            with self.lock:
                self.pending[key] = Pending(stat_key(after), read, data)
            return read
        kept = kept_fold_build.build(self, key, data, read, stat_key(after))
        if kept is None:
            return read
        return read if self.for_ref.get() is not None else read._replace(rows=kept.rows())

    def subset(self, read: jsonl.Read) -> jsonl.Read:
        """daimon's read, or inside `rows_of` the rows it asks for (file order):
        what the kept fold would answer, picked from every row."""
        ref = self.for_ref.get()
        if ref is None:
            return read
        if ref == TOMBSTONES:
            return read._replace(rows=[row for row in read.rows if may_be_tombstone(row)])
        return read._replace(rows=[row for row in read.rows if row.get("item_ref") == ref])

    def extend(self, path: Path, key: str, kept: Kept | kept_fold_file.Spans) -> jsonl.Read | None:
        """The kept fold plus the appended rows, or None when the kept bytes are
        no longer the ledger's first bytes (then only a full read can tell).

        The kept bytes are hashed a block at a time, never held whole (a verb's
        append held them twice, prefix and prefix + rest: ~70 MB at the judging
        child's peak on the heavy store). The rows a fold from disk places, and
        the witness rows of an item an appended row names, are read from the
        open file where they start (`rows_in_file`), as is one ref's rows."""
        with path.open("rb") as handle:
            fd = handle.fileno()
            before = os.fstat(fd)
            if not stat.S_ISREG(before.st_mode) or before.st_size < kept.size:
                return None
            with self.lock:
                vouched = self.vouched.pop(key, None)
            digest = None  # None: the kept bytes are vouched for (`appended`), not hashed
            if isinstance(kept, Kept) and vouched == (kept.size, stat_id(before)):
                handle.seek(kept.size)
            else:
                digest = hashed(handle, kept.size)
                if digest is None or digest.hexdigest() != kept.digest:
                    return None
            rest = handle.read()
            size = kept.size

            def rows_at(starts: list[int]) -> dict[int, dict] | None:
                return rows_in_file(fd, starts, size)

            if isinstance(kept, kept_fold_file.Spans):
                rebuilt = kept_fold_persist.rebuild(kept, rows_at)
                if rebuilt is None:
                    return None
                kept = rebuilt
                with self.lock:
                    self.held[key] = kept
                    self.persisted[key] = kept.size
            if not rest:
                kept.verified = stat_key(before)
                return self.answer(jsonl.Read(Health.OK, []), kept, fd)
            # daimon judges exactly the appended bytes: from the newline that ends
            # the kept bytes, whose line it drops.
            tail = self.daimon.read(path, tail_bytes=len(rest) + 1)
            after = os.stat(path)
            if stat_id(after)[:2] != (before.st_ino, kept.size + len(rest)):
                return None  # it moved while we read: daimon's read decides
            if tail.health in (Health.ABSENT, Health.TRANSIENT) or (
                    tail.health is Health.UNREADABLE and tail.detail != "garbage"):
                return None
            starts = line_starts(rest, kept.size)
            try:
                grown = kept.absorb(self.daimon, tail.rows, starts, 0, "", rows_at=rows_at)
            except Unplaced:
                return None  # our cache is wrong: daimon's full read decides
            if tail.health is Health.OK and rest.endswith(b"\n") and len(starts) == len(tail.rows):
                # unhashed: no digest, and a later read that is not vouched for is daimon's full read
                if digest is not None:
                    digest.update(rest)
                grown = dataclasses.replace(grown, size=kept.size + len(rest),
                                            digest=digest.hexdigest() if digest is not None else "")
                if stat_key(after) == stat_key(before):  # nothing moved while we read: the next read trusts it
                    grown.verified = stat_key(after)
                kept_fold_persist.keep(self, key, grown, grown=True)
                return self.answer(tail, grown, fd)
        if self.for_ref.get() is not None:
            return None  # the appended lines are not placed yet: daimon's read
        return tail._replace(rows=grown.rows())

    def unchanged(self, path: Path, kept: Kept) -> jsonl.Read | None:
        """The answer for a ledger whose stat key has not moved since its bytes
        were verified: from memory, and one ref's lines read where they start."""
        if self.for_ref.get() is None:
            return jsonl.Read(Health.OK, kept.rows())
        try:
            with path.open("rb") as handle:
                return self.answer(jsonl.Read(Health.OK, []), kept, handle.fileno())
        except OSError:
            return None

    def answer(self, read: jsonl.Read, kept: Kept, fd: int) -> jsonl.Read | None:
        """`read`'s health with the kept rows, or with one ref's rows inside
        `rows_of` (read from the open ledger `fd`, within the kept bytes)."""
        ref = self.for_ref.get()
        if ref is None:
            return read._replace(rows=kept.rows())
        rows = kept.rows_of(ref, lambda start: row_in_file(fd, start, kept.size))
        return None if rows is None else read._replace(rows=rows)


KEPT = KeptFold(Daimon.taken())

# The process's kept fold, as its callers name it.
install = KEPT.install
active = KEPT.active
rows_of = KEPT.rows_of
tombstone_rows = KEPT.tombstone_rows
sealed_only = KEPT.sealed_only
forget_held = KEPT.forget_held
forget_under = KEPT.forget_under
hand_over = KEPT.hand_over
appended = KEPT.appended
in_memory_only = KEPT.in_memory_only
untrusted = KEPT.untrusted
defer_builds = KEPT.defer_builds
build_pending = KEPT.build_pending
building = KEPT.building
build_in_background = KEPT.build_in_background
read = KEPT.read
latest_per_ref = KEPT.latest_per_ref
