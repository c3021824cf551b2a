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
`_grow_pending`).

Scope: `active()` turns it on for the current context only (the shared
snapshot, daimon's judge and forget walk, its ledger-health reads and write
gate), `rows_of(ref)` / `tombstone_rows()` for a subset of rows. Every other
reader (the events pane) needs all rows and gets daimon's own read.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daimon_briefing import jsonl, store
from daimon_briefing.jsonl import Health

from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.judging import kept_fold_file

LEDGER = "events.jsonl"
KEEP_MIN_BYTES = 256 * 1024  # below this daimon's read is cheap: nothing is kept
# Written again only once this much was appended since the copy on disk (the
# next run folds at most that much again): a write is ~1 s of JSON at 200k rows.
PERSIST_EVERY_BYTES = 1024 * 1024
# The once-per-run check reads and folds the ledger this many bytes (whole
# lines) at a time: daimon's rows of the whole ledger are never held at once
# beside the snapshot the child keeps (on the heavy store that pushed the
# child's peak past one `daimon brief`'s); one block is ~6,000 rows there
# (the check's peak on the heavy store: +31 MB at 1 MiB, +55 MB at 4 MiB).
CHECK_BLOCK_BYTES = 1024 * 1024
_LINE_READ_BYTES = 1024  # one row's line is read this much at a time (a row is ~200 bytes)
_HASH_BLOCK_BYTES = 1024 * 1024  # the kept bytes are hashed this much at a time, never held whole
_WINDOW_BYTES = 64 * 1024  # kept rows are read back this much at a time where they are
_CORROBORATION_PREFIX = store.corroboration_ref("")
# reads the rows whose lines start at the (sorted) offsets: {start: row}, or
# None when one is not a row's line (`_rows_in_file`)
RowsAt = Callable[[list[int]], dict[int, dict] | None]

_original_read = daimon_reading.daimon_read
_original_fold = daimon_reading.daimon_fold
_original_fold_corroborations = daimon_reading.daimon_fold_corroborations
_original_view_item_events = daimon_reading.daimon_view_item_events
_original_store_item_events = daimon_reading.daimon_store_item_events
_original_read_judge = daimon_judging.daimon_read_judge
_original_ledger_states = daimon_reading.daimon_ledger_states
_original_team_notes = daimon_reading.daimon_team_notes
_original_posture = daimon_reading.daimon_posture
_active: ContextVar[bool] = ContextVar("daimon_tui_kept_fold", default=False)
# One ref's rows (`rows_of`), or TOMBSTONES: the rows that may be a forget's
# tombstone (`tombstone_rows`); None: every row (`active`).
_for_ref: ContextVar[str | None] = ContextVar("daimon_tui_kept_ref", default=None)
TOMBSTONES = "\0tombstones"
_held: dict[str, _Kept] = {}
_persisted: dict[str, int] = {}  # ledger -> the size its copy on disk covers
_lock = threading.Lock()
_installed = False
_defer_builds = False
_sealed_only = False  # `sealed_only()`: a headless report uses no fold from disk that is not sealed
_pending: dict[str, _Pending] = {}  # ledger -> a full read whose fold `build_pending` keeps
_builder: threading.Thread | None = None
_building = threading.Lock()


class KeptRows(list):
    """An events ledger's rows reduced to those its folds can tell apart:
    each ref's winner first, then the other witness rows. Itself a valid
    input to every fold (a non-winner after its ref's winner never displaces
    it); the two folds that know this type take only the part they need.
    A fold read back from disk with its corroboration fold holds only the
    witness rows parsed so far: `fold_corroborations` is answered from the
    kept fold's, never from these rows."""

    def __init__(self, winners: list[dict], witnesses: list[dict], kept: _Kept | None = None) -> None:
        seen = {id(row) for row in winners}
        super().__init__([*winners, *(row for row in witnesses if id(row) not in seen)])
        self.winners = winners
        self.witnesses = witnesses
        self.kept = kept


def _witness_key(row: dict) -> tuple | None:
    """Which latest row `fold_corroborations` reads `row` against, or None when
    it reads it not at all: a witness per (corroboration ref, status), a
    contradiction per ref."""
    ref = str(row.get("item_ref") or "")
    if not ref:
        return None
    status = str(row.get("status") or "")
    if ref.startswith(_CORROBORATION_PREFIX):
        return (ref, status)
    if daimon_reading.demotion_rule(row, status.lower()):
        return (ref,)
    return None


@dataclass
class _Kept:
    """One ledger's kept fold: `size` bytes (ending at a line boundary) hashing
    to `digest`; each kept row with the byte offset its line starts at."""

    size: int
    digest: str
    winners: dict[str, tuple[int, dict]] = field(default_factory=dict)
    witnesses: dict[tuple, tuple[int, dict]] = field(default_factory=dict)
    # ref hash -> where each of its rows starts, in file order; None when a
    # row's line is unknown (then a ref's rows come from daimon's read)
    refs: dict[str, list[int]] | None = field(default_factory=dict)
    # `fold_corroborations` of `witnesses`, once asked: an append refolds only
    # the items its rows name (each item's entry reads only its own rows)
    corroborations: dict | None = None
    # where each row that may be a tombstone starts (file order); None: unknown
    tombstones: list[int] | None = field(default_factory=list)
    # an item's ref hash -> where its witness rows start, not parsed yet (read
    # back from disk with `corroborations`: parsed when a row names the item)
    unparsed: dict[str, list[int]] = field(default_factory=dict)
    # the file's stat key when its bytes last hashed to `digest` at exactly
    # `size`: while it stands, nothing was written (a write moves ctime)
    verified: tuple | None = field(default=None, compare=False)
    # False for a fold rebuilt from the file on disk (our own cache: untrusted
    # input) until `check_against_full` has compared it with daimon's fold
    trusted: bool = field(default=True, compare=False)
    _rows: KeptRows | None = field(default=None, init=False, repr=False)

    def rows(self) -> KeptRows:
        if self._rows is None:
            self._rows = KeptRows([row for _at, row in self.winners.values()],
                                  [row for _at, row in self.witnesses.values()], self)
        return self._rows

    def absorb(self, rows: list[dict], starts: list[int], size: int, digest: str,
               folded: dict | None = None, rows_at: RowsAt | None = None) -> _Kept:
        """This fold with `rows` (lines starting at `starts`) appended;
        `folded`: daimon's fold of `rows` (keys kept), when this one is empty
        and that fold was already made; `rows_at`: reads lines of the
        verified bytes this fold covers (`_rows_in_file`), to parse the
        witness rows of the items `rows` name. Raises `Unplaced` when such
        rows cannot be parsed from it."""
        witnesses = dict(self.witnesses)
        unparsed = self.unparsed
        wanted: set[str] = set()
        if unparsed:  # one hash per item the rows name
            named = {_item_of(key) for key in map(_witness_key, rows) if key is not None}
            wanted = {ref_key(item) for item in named} & unparsed.keys()
        if wanted:
            if rows_at is None:
                raise Unplaced("the witness rows of an appended item are not parsed")
            unparsed = dict(unparsed)
            for item in wanted:
                _parse_witnesses(witnesses, rows_at, item, unparsed.pop(item))
        placed = starts if len(starts) == len(rows) else [-1] * len(rows)  # -1: line unknown
        # `_fold` is per ref: only the refs the rows name are folded again, each
        # from its kept winner, and the rest stay (in the same order a fold of
        # every winner plus the rows would give).
        named = dict.fromkeys(str(row.get("item_ref") or "") for row in rows if isinstance(row, dict))
        before = [self.winners[ref] for ref in named if ref in self.winners]
        at = {id(row): start for start, row in before}
        at.update((id(row), start) for row, start in zip(rows, placed, strict=True))
        winners = dict(self.winners)
        if folded is None or self.winners:
            folded = latest_per_ref([row for _at, row in before] + rows, keys=True)
        for ref, row in folded.items():
            winners[ref] = (at.get(id(row), -1), row)
        for row, start in zip(rows, placed, strict=True):
            _witness(witnesses, row, start)
        refs = None
        if self.refs is not None and len(starts) == len(rows):
            refs = dict(self.refs)
            grown: set[str] = set()
            for row, start in zip(rows, starts, strict=True):
                ref = row.get("item_ref")
                if isinstance(ref, str):
                    hashed = ref_key(ref)
                    if hashed not in grown:  # copied before the first append: the old fold stays whole
                        refs[hashed] = list(refs.get(hashed, ()))
                        grown.add(hashed)
                    refs[hashed].append(start)
        tombstones = None
        if self.tombstones is not None and len(starts) == len(rows):
            tombstones = self.tombstones + [start for row, start in zip(rows, starts, strict=True)
                                            if _may_be_tombstone(row)]
        return _Kept(size, digest, winners, witnesses, refs, self._refold(witnesses, rows), tombstones,
                     unparsed, trusted=self.trusted)

    def witness_groups(self) -> dict[str, list[int]]:
        """Where the witness rows start, by item (what `kept_fold_file` keeps)."""
        groups = {item: list(starts) for item, starts in self.unparsed.items()}
        by_item: dict[str, list[int]] = {}
        for key, (at, _row) in self.witnesses.items():
            by_item.setdefault(_item_of(key), []).append(at)
        for item, starts in by_item.items():  # one hash per item, not per row
            groups.setdefault(ref_key(item), []).extend(starts)
        return groups

    def _refold(self, witnesses: dict[tuple, tuple[int, dict]], rows: list[dict]) -> dict | None:
        """The corroboration fold after `rows`, from this one's: the items the
        rows name folded again over their witness rows, the rest kept."""
        if self.corroborations is None:
            return None
        named = {item for row in rows if (key := _witness_key(row)) is not None and (item := _item_of(key))}
        if not named:
            return self.corroborations
        # an item's witness keys, looked up rather than found by a walk of every key
        statuses = {key[1] for key in witnesses if len(key) == 2}
        keys = [(item,) for item in named] + [(_CORROBORATION_PREFIX + item, status)
                                              for item in named for status in statuses]
        again = _original_fold_corroborations([witnesses[key][1] for key in keys if key in witnesses])
        kept = {item: entry for item, entry in self.corroborations.items() if item not in named}
        kept.update(again)
        return kept

    def rows_of(self, ref: str, row_at: Callable[[int], dict | None]) -> list[dict] | None:
        """The rows addressed to exactly `ref` (or, for TOMBSTONES, every row
        that may be a tombstone), in file order, each read by `row_at(start)`;
        None when that cannot be told from here."""
        if ref == TOMBSTONES:
            starts, belongs = self.tombstones, _may_be_tombstone
        else:
            starts = self.refs.get(ref_key(ref), ()) if self.refs is not None else None

            def belongs(row: dict) -> bool:
                return row.get("item_ref") == ref
        if starts is None:
            return None
        rows = []
        for start in starts:
            row = row_at(start)
            if row is None or not belongs(row):
                return None
            rows.append(row)
        return rows


# daimon's `_fold` reads `ts` as a UTC stamp in exactly this shape (contract
# `reading.fold-appended`): between two stamps of this shape the later in
# text is the later in time, so the text compares without a parse.
_STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def latest_per_ref(rows: Any, *, keys: bool) -> dict:
    """daimon's `_fold(rows, keys=keys)`, its own fold run only over the rows
    that can win: per ref, the rows at its latest well-formed stamp, and any
    row stamped another way (daimon decides what that means). A later stamp
    always wins and a row daimon cannot read as a stamp never displaces one it
    can, so no other row can be a ref's winner, and since daimon's fold is per
    ref and keeps each ref's rows in order, its answer (and the refs' order)
    is the full fold's. The full fold parses the stamp of almost every row
    (`strptime`: most of a 200,000-row fold); this parses one per ref.
    `tests/perf/test_kept_fold.py` holds it equal to daimon's fold."""
    groups: dict[str, list[dict]] = {}
    latest: dict[str, str] = {}
    for row in rows:
        if not isinstance(row, dict):
            continue
        ref = str(row.get("item_ref") or "")
        if not ref:
            continue
        group = groups.get(ref)
        if group is None:
            groups[ref] = [row]
        else:
            group.append(row)
        ts = row.get("ts")
        if isinstance(ts, str) and ts > latest.get(ref, "") and _STAMP.fullmatch(ts):
            latest[ref] = ts
    chosen: list[dict] = []
    for ref, group in groups.items():
        top = latest.get(ref)
        if len(group) == 1 or top is None or daimon_reading.daimon_stamp_epoch(top) is None:
            chosen.extend(group)  # nothing to leave out, or daimon reads its latest stamp otherwise
            continue
        for row in group:
            ts = row.get("ts")
            if ts == top or (isinstance(ts, str) and not _STAMP.fullmatch(ts)):
                chosen.append(row)
    return _original_fold(chosen, keys=keys)


def _may_be_tombstone(row: dict) -> bool:
    """A superset of daimon's tombstone rows (`store.is_tombstone_status`)."""
    return "forgotten" in str(row.get("status") or "").lower()


def ref_key(ref: str) -> str:
    """How a ref is named in the kept file: a hash (a legacy ref may be text)."""
    return hashlib.sha256(ref.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _row_at(data: bytes, start: int, size: int) -> dict | None:
    """The row whose line starts at `start`, None when no row starts there.
    The kept bytes were judged every-line-a-row by daimon's read, and their
    digest still matches: parsing the line is all `classify_line` would do."""
    if not 0 <= start < size or (start and data[start - 1] != 0x0A):
        return None
    end = data.find(b"\n", start, size)
    try:
        row = json.loads(data[start:end if end >= 0 else size].decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        return None
    return row if isinstance(row, dict) else None


def _line_in_file(fd: int, start: int, size: int) -> bytes | None:
    """The line starting at `start` within the first `size` bytes of the open
    file `fd` (its newline and what follows it may come along), reading only
    that line (`os.pread`: the handle's position is left alone); None when no
    line starts there."""
    if not 0 <= start < size or (start and os.pread(fd, 1, start - 1) != b"\n"):
        return None  # not where a line starts
    line = b""
    while b"\n" not in line and start + len(line) < size:
        more = os.pread(fd, min(_LINE_READ_BYTES, size - start - len(line)), start + len(line))
        if not more:
            return None
        line += more
    return line


def _row_in_file(fd: int, start: int, size: int) -> dict | None:
    """`_row_at` over the first `size` bytes of the open file `fd`, reading only that line."""
    line = _line_in_file(fd, start, size)
    return None if line is None else _row_at(line, 0, len(line))


def _rows_in_file(fd: int, starts: list[int], size: int) -> dict[int, dict] | None:
    """The rows whose lines start at the sorted `starts` within the first
    `size` bytes of the open file `fd`, in one parse (the lines joined as one
    JSON array: the parser's loop, not ours); None when a start is not a
    line's. Read a window at a time (`os.pread`) where those lines are, never
    the file whole: lines close together share a window."""
    lines = []
    base, window = 0, b""
    for start in starts:
        if not 0 <= start < size:
            return None
        low = max(start - 1, 0)  # the newline before the line, when not the first
        inside = base <= low and start < base + len(window)
        end = window.find(b"\n", start - base) if inside else -1
        if not inside or (end < 0 and base + len(window) < size):
            base, window = low, b""
            while True:
                more = os.pread(fd, min(_WINDOW_BYTES, size - base - len(window)), base + len(window))
                if not more:
                    return None
                window += more
                end = window.find(b"\n", start - base)
                if end >= 0 or base + len(window) >= size:
                    break
        if start and window[start - base - 1] != 0x0A:
            return None  # not where a line starts
        lines.append(window[start - base:end if end >= 0 else len(window)])
    return _parsed_lines(lines, starts)


def _item_of(key: tuple) -> str:
    """The item id a witness key's row counts for or against."""
    ref = key[0]
    return ref[len(_CORROBORATION_PREFIX):] if len(key) == 2 else ref


def _item_key(key: tuple) -> str:
    """How the item a witness key's row counts for is named on disk."""
    return ref_key(_item_of(key))


class Unplaced(ValueError):
    """A kept witness row is not where the kept fold says (not our file)."""


def _parse_witnesses(witnesses: dict[tuple, tuple[int, dict]], rows_at: RowsAt, item: str,
                     starts: list[int]) -> None:
    """Add the witness rows of `item` (its ref hash), whose lines start at
    `starts` (read by `rows_at`), to `witnesses`; `Unplaced` when a start is
    not a line's, or its row is not a witness of that item, or one seen already."""
    parsed = rows_at(sorted(starts))
    if parsed is None:
        raise Unplaced(f"a witness offset of {item} does not start a row")
    for start, row in parsed.items():
        key = _witness_key(row)
        if key is None or _item_key(key) != item or key in witnesses:
            raise Unplaced(f"the row at {start} is not a witness of {item}")
        witnesses[key] = (start, row)


def _witness(witnesses: dict[tuple, tuple[int, dict]], row: dict, start: int) -> None:
    key = _witness_key(row)
    if key is None:
        return
    held = witnesses.get(key)
    if held is None or _stamp_of(row) > _stamp_of(held[1]):
        witnesses[key] = (start, row)


def _stamp_of(row: dict) -> str:
    """What a witness row is ordered by: a later one replaces the held one."""
    return str(row.get("ts") or "")


def _line_starts(data: bytes, base: int) -> list[int]:
    """Where each line `jsonl.read` keeps (every one not blank) starts."""
    starts: list[int] = []
    at = 0
    for line in data.split(b"\n"):
        if line.decode("utf-8", "surrogateescape").strip():
            starts.append(base + at)
        at += len(line) + 1
    return starts


def _stat_id(st: os.stat_result) -> tuple:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _stat_key(st: os.stat_result) -> tuple:
    # daimon's own memo key (its view's stat key): ctime moves on any write or chmod
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def _full(path: Path, key: str) -> jsonl.Read:
    """daimon's read of the whole ledger; kept when every line is a row (at
    once, or by `build_pending` once the caller has answered)."""
    try:
        with path.open("rb") as handle:
            before = os.fstat(handle.fileno())
            data = handle.read()
    except OSError:
        return _original_read(path)
    read = _original_read(path)
    try:
        after = os.stat(path)
    except OSError:
        return read
    if (read.health is not Health.OK or not data.endswith(b"\n") or _stat_id(before) != _stat_id(after)
            or len(data) != after.st_size):
        return read

    if _defer_builds:
        with _lock:
            _pending[key] = _Pending(_stat_key(after), read, data)
        return read
    kept = _build(key, data, read, _stat_key(after))
    if kept is None:
        return read
    return read if _for_ref.get() is not None else read._replace(rows=kept.rows())


def _build(key: str, data: bytes, read: jsonl.Read, verified: tuple, folded: dict | None = None,
           persist: bool = True, corroborations: dict | None = None) -> _Kept | None:
    """Keep the fold of `read` (daimon's read of exactly `data`, every line a
    row); `folded`: daimon's fold of its rows (keys kept), `corroborations`
    its corroboration fold, when already made."""
    starts = _line_starts(data, 0)
    if len(starts) != len(read.rows):
        return None
    kept = _Kept(0, "").absorb(read.rows, starts, len(data), hashlib.sha256(data).hexdigest(), folded)
    kept.verified = verified
    kept.corroborations = corroborations
    _keep(key, kept, persist=persist)
    return kept


def _subset(read: jsonl.Read) -> jsonl.Read:
    """daimon's read, or inside `rows_of` the rows it asks for (file order):
    what the kept fold would answer, picked from every row."""
    ref = _for_ref.get()
    if ref is None:
        return read
    if ref == TOMBSTONES:
        return read._replace(rows=[row for row in read.rows if _may_be_tombstone(row)])
    return read._replace(rows=[row for row in read.rows if row.get("item_ref") == ref])


@dataclass
class _Pending:
    """A full read whose kept fold is not built yet: while the ledger's stat
    key stands, every read is answered with daimon's own rows, and daimon's
    fold of them is made once (`winners`, keys kept) and reused by the build."""

    stat_key: tuple
    read: jsonl.Read
    data: bytes  # the bytes `read` read: the build places its rows in them
    winners: dict | None = None
    corroborations: dict | None = None  # daimon's `fold_corroborations` of the rows, once made

    def build(self, key: str) -> _Kept | None:
        return _build(key, self.data, self.read, self.stat_key, self.winners, persist=False,
                      corroborations=self.corroborations)


def _grow_pending(path: Path, key: str, pending: _Pending) -> _Pending | None:
    """`pending` with the rows appended since, when the ledger only grew by
    whole rows: a verb written right after a first open is checked over
    daimon's rows read so far plus daimon's read of the appended bytes alone,
    not behind the build (seconds of placing every line); the build comes
    later, over the bytes with the appended rows. None when it did not only
    grow (then the build and daimon's reads decide)."""
    try:
        with path.open("rb") as handle:
            before = os.fstat(handle.fileno())
            if not stat.S_ISREG(before.st_mode) or before.st_size <= len(pending.data):
                return None
            data = handle.read()
        if len(data) != before.st_size or not data.endswith(b"\n") or not data.startswith(pending.data):
            return None
        rest = len(data) - len(pending.data)
        # daimon judges exactly the appended bytes (as `_extend` does)
        tail = _original_read(path, tail_bytes=rest + 1)
        after = os.stat(path)
    except OSError:
        return None
    if (tail.health is not Health.OK or _stat_id(after) != _stat_id(before)
            or len(_line_starts(data[len(pending.data):], 0)) != len(tail.rows)):
        return None
    winners = pending.winners
    if winners is not None:  # `_fold` is per ref: only the refs the appended rows name are folded again
        named = dict.fromkeys(str(row.get("item_ref") or "") for row in tail.rows if isinstance(row, dict))
        winners = dict(winners)
        winners.update(_original_fold([winners[ref] for ref in named if ref in winners] + tail.rows, keys=True))
    grown = _Pending(_stat_key(after), pending.read._replace(rows=[*pending.read.rows, *tail.rows]), data, winners,
                     _corroborations_after(pending.corroborations, pending.read.rows, tail.rows))
    with _lock:
        if _pending.get(key) is not pending:
            return None  # built or grown meanwhile
        _pending[key] = grown
    return grown


def _corroborations_after(folded: dict | None, rows: list, appended: list) -> dict | None:
    """daimon's corroboration fold of `rows + appended`, from `folded` (its
    fold of `rows`): an item's entry reads only the rows addressed to it or
    to its corroboration ref, so only the items `appended` names are folded
    again, over their own rows."""
    if folded is None:
        return None
    named = {ref[len(_CORROBORATION_PREFIX):] if ref.startswith(_CORROBORATION_PREFIX) else ref
             for row in appended if isinstance(row, dict) and (ref := str(row.get("item_ref") or ""))}
    if not named:
        return folded
    refs = named | {_CORROBORATION_PREFIX + item for item in named}
    theirs = [row for row in (*rows, *appended) if isinstance(row, dict) and str(row.get("item_ref") or "") in refs]
    kept = {item: entry for item, entry in folded.items() if item not in named}
    kept.update(_original_fold_corroborations(theirs))
    return kept


def defer_builds() -> None:
    """From now on, a ledger's first kept fold is built by `build_pending`,
    not inside the read that found none: the judging child answers a first
    open with daimon's full read, then builds while it waits for the next
    request."""
    global _defer_builds
    _defer_builds = True


@contextlib.contextmanager
def sealed_only() -> Iterator[None]:
    """While it lasts (in every thread: a report is one process's one job), a
    kept fold on disk is used only when its seal verifies (`kept_fold_file`:
    this app wrote it from a fold it checked against daimon's full fold). For
    a headless report, which has no later moment to check a fold and must
    never print what daimon would not: any other file is passed over for
    daimon's full read, whose fold is then kept, sealed."""
    global _sealed_only
    before, _sealed_only = _sealed_only, True
    try:
        yield
    finally:
        _sealed_only = before


def build_pending() -> None:
    """Build and keep (in memory and on disk) the folds `_full` deferred.
    Only a whole fold is ever held, and a ledger's full read answers until
    it is: the read is let go only once its fold is kept (or failed)."""
    built: list[tuple[str, _Kept]] = []
    with _building:  # one build at a time: a reader that needs it waits for the one under way
        with _lock:
            builds = list(_pending.items())
        for key, pending in builds:
            # a build that fails holds nothing: the next read is daimon's full read again
            with contextlib.suppress(Exception):
                kept = pending.build(key)
                if kept is not None:
                    built.append((key, kept))
            with _lock:
                if _pending.get(key) is pending:
                    del _pending[key]
    for key, kept in built:  # on disk once held: a reader waiting on the build does not wait for the file
        with contextlib.suppress(Exception):
            _persist(key, kept)


def building() -> bool:
    """Whether a kept fold is being built right now (in its thread)."""
    with _lock:
        return _builder is not None and _builder.is_alive()


def build_in_background(wait: Callable[[], None] = lambda: None) -> threading.Thread | None:
    """`build_pending` in a thread of its own (one at a time), after `wait()`
    returns, so the reads that come meanwhile are answered (from daimon's
    rows) instead of waiting for the build. The thread, or None when there
    is nothing to build."""
    global _builder

    def run() -> None:
        wait()
        build_pending()

    with _lock:
        if not _pending or (_builder is not None and _builder.is_alive()):
            return None
        _builder = threading.Thread(target=run, name="kept-fold-build", daemon=True)
    _builder.start()
    return _builder


def _extend(path: Path, key: str, kept: _Kept | kept_fold_file.Spans) -> jsonl.Read | None:
    """The kept fold plus the appended rows, or None when the kept bytes are
    no longer the ledger's first bytes (then only a full read can tell).

    The kept bytes are hashed a block at a time, never held whole (a verb's
    append held them twice, prefix and prefix + rest: ~70 MB at the judging
    child's peak on the heavy store). The rows a fold from disk places, and
    the witness rows of an item an appended row names, are read from the
    open file where they start (`_rows_in_file`), as is one ref's rows."""
    with path.open("rb") as handle:
        fd = handle.fileno()
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode) or before.st_size < kept.size:
            return None
        hashed = _hashed(handle, kept.size)
        if hashed is None or hashed.hexdigest() != kept.digest:
            return None
        rest = handle.read()
        size = kept.size

        def rows_at(starts: list[int]) -> dict[int, dict] | None:
            return _rows_in_file(fd, starts, size)

        if isinstance(kept, kept_fold_file.Spans):
            rebuilt = _rebuild(kept, rows_at)
            if rebuilt is None:
                return None
            kept = rebuilt
            with _lock:
                _held[key] = kept
                _persisted[key] = kept.size
        if not rest:
            kept.verified = _stat_key(before)
            return _answer(jsonl.Read(Health.OK, []), kept, fd)
        # daimon judges exactly the appended bytes: from the newline that ends
        # the kept bytes, whose line it drops.
        tail = _original_read(path, tail_bytes=len(rest) + 1)
        after = os.stat(path)
        if _stat_id(after)[:2] != (before.st_ino, kept.size + len(rest)):
            return None  # it moved while we read: daimon's read decides
        if tail.health in (Health.ABSENT, Health.TRANSIENT) or (
                tail.health is Health.UNREADABLE and tail.detail != "garbage"):
            return None
        starts = _line_starts(rest, kept.size)
        try:
            grown = kept.absorb(tail.rows, starts, 0, "", rows_at=rows_at)
        except Unplaced:
            return None  # our cache is wrong: daimon's full read decides
        if tail.health is Health.OK and rest.endswith(b"\n") and len(starts) == len(tail.rows):
            hashed.update(rest)
            grown = dataclasses.replace(grown, size=kept.size + len(rest), digest=hashed.hexdigest())
            if _stat_key(after) == _stat_key(before):  # nothing moved while we read: the next read trusts it
                grown.verified = _stat_key(after)
            _keep(key, grown, grown=True)
            return _answer(tail, grown, fd)
    if _for_ref.get() is not None:
        return None  # the appended lines are not placed yet: daimon's read
    return tail._replace(rows=grown.rows())


def _hashed(handle: Any, size: int) -> Any:
    """The sha256 of the next `size` bytes of `handle`, read a block at a
    time; None when the file ends before."""
    hashed = hashlib.sha256()
    while size:
        block = handle.read(min(_HASH_BLOCK_BYTES, size))
        if not block:
            return None
        hashed.update(block)
        size -= len(block)
    return hashed


def _unchanged(path: Path, kept: _Kept) -> jsonl.Read | None:
    """The answer for a ledger whose stat key has not moved since its bytes
    were verified: from memory, and one ref's lines read where they start."""
    if _for_ref.get() is None:
        return jsonl.Read(Health.OK, kept.rows())
    try:
        with path.open("rb") as handle:
            return _answer(jsonl.Read(Health.OK, []), kept, handle.fileno())
    except OSError:
        return None


def _answer(read: jsonl.Read, kept: _Kept, fd: int) -> jsonl.Read | None:
    """`read`'s health with the kept rows, or with one ref's rows inside
    `rows_of` (read from the open ledger `fd`, within the kept bytes)."""
    ref = _for_ref.get()
    if ref is None:
        return read._replace(rows=kept.rows())
    rows = kept.rows_of(ref, lambda start: _row_in_file(fd, start, kept.size))
    return None if rows is None else read._replace(rows=rows)


def read(path: Any, **options: Any) -> jsonl.Read:
    """`jsonl.read`, answered from the kept fold for a large events ledger
    inside `active()`; daimon's own read for everything else."""
    if options.get("tail_bytes", 0) is None:
        options.pop("tail_bytes")  # the whole file: what a read without the option judges
    target = Path(path)
    if options or not (_active.get() or _for_ref.get() is not None) or target.name != LEDGER:
        return _original_read(path, **options)
    try:
        st = os.stat(target)
    except OSError:
        return _original_read(path)
    if not stat.S_ISREG(st.st_mode) or st.st_size < KEEP_MIN_BYTES:
        return _original_read(path)
    key = os.path.abspath(target)
    with _lock:
        pending = _pending.get(key)
        kept: _Kept | kept_fold_file.Spans | None = _held.get(key)
    if pending is not None:
        if pending.stat_key == _stat_key(st):
            return _subset(pending.read)  # daimon's rows, not yet kept
        # the ledger grew (our own write, say): daimon's rows plus the appended
        # ones answer, the build still waits (`_grow_pending`)
        grown = _grow_pending(target, key, pending)
        if grown is not None:
            return _subset(grown.read)
        # it moved otherwise: the fold of the rows read is built now, and
        # what came since is folded onto it (or daimon's full read decides)
        build_pending()
        with _lock:
            kept = _held.get(key)
    if kept is None:
        kept = kept_fold_file.load(key)
        if kept is not None and _sealed_only and not kept.sealed:
            kept = None  # a fold nobody checked: daimon's full read (and a sealed fold of it) instead
    if isinstance(kept, _Kept) and kept.verified == _stat_key(st):
        answer = _unchanged(target, kept)
        if answer is not None:
            return answer
    if kept is not None:
        try:
            answer = _extend(target, key, kept)
        except OSError:
            answer = None
        if answer is not None:
            return answer
    return _full(target, key)


def _fold(rows: Any, *, keys: bool) -> dict:
    if isinstance(rows, KeptRows):
        return _original_fold(rows.winners, keys=keys)
    pending = next((p for p in list(_pending.values()) if p.read.rows is rows), None)
    if pending is None:
        return latest_per_ref(rows, keys=keys)
    # A first open's rows are folded by daimon's forget walk (keys kept) and
    # its snapshot (keys left out): `_fold` is per ref, so the second is the
    # first without the key refs, and the kept fold's build reuses it too.
    if pending.winners is None:
        pending.winners = latest_per_ref(rows, keys=True)
    if keys:
        return dict(pending.winners)
    return {ref: row for ref, row in pending.winners.items() if not store.is_key_ref(ref)}


def _fold_corroborations(rows: Any) -> dict:
    if not isinstance(rows, KeptRows):
        pending = next((p for p in list(_pending.values()) if p.read.rows is rows), None)
        if pending is None:
            return _original_fold_corroborations(rows)
        if pending.corroborations is None:  # made once; a write's rows are folded onto it (`_grow_pending`)
            pending.corroborations = _original_fold_corroborations(rows)
        return dict(pending.corroborations)
    kept = rows.kept
    if kept is not None and kept.corroborations is not None:
        return dict(kept.corroborations)
    folded = _original_fold_corroborations(rows.witnesses)
    if kept is not None:
        kept.corroborations = folded
    return dict(folded)


def _view_item_events(project: Any, item_id: str, *, snap: Any = None) -> tuple:
    with rows_of(item_id):
        return _original_view_item_events(project, item_id, snap=snap)


def _store_item_events(item_ref: str, project_dir: Any = None) -> list[dict]:
    with rows_of(item_ref):
        return _original_store_item_events(item_ref, project_dir)


def _read_judge(slug: Any, forgotten: Any = None) -> Any:
    with active():
        return _original_read_judge(slug, forgotten)


def _ledger_states(project: Any, names: Any = None) -> dict:
    with active():  # health only: the kept read's is the full read's
        return _original_ledger_states(project, names)


def _team_notes(project: Any = None) -> tuple[str, ...]:
    with active():
        return _original_team_notes(project)


def _posture(path: Path, name: str, writer: Any, **options: Any) -> jsonl.Posture:
    with active():  # daimon's write gate judges the ledger's health only
        return _original_posture(path, name, writer, **options)


def install() -> None:
    """Route daimon's events reads and folds through here (idempotent): its
    item lifecycle reads (`item_events`) read one ref's rows; its snapshot's
    light twin (`daimon_api.judging.read_judge`) folds the kept rows; a ledger health read
    (`view.ledger_states`, `view.team_notes`, the write gate `jsonl.posture`)
    judges only the appended bytes. Outside those, and for any rows but
    `KeptRows`, daimon's own code runs; in safe mode (`daimon_api.mode`)
    nothing is routed and daimon's own code answers every read."""
    global _installed
    if _installed:
        return
    _installed = daimon_reading.install_kept_fold(daimon_reading.KeptFoldHooks(
        read=read, fold=_fold, fold_corroborations=_fold_corroborations, view_item_events=_view_item_events,
        store_item_events=_store_item_events, read_judge=_read_judge, ledger_states=_ledger_states,
        team_notes=_team_notes, posture=_posture,
    ))


@contextlib.contextmanager
def active() -> Iterator[None]:
    """Answer large events ledgers from the kept fold in this context."""
    install()
    token = _active.set(True)
    whole = _for_ref.set(None)  # a snapshot taken inside `rows_of` folds every ref
    try:
        yield
    finally:
        _for_ref.reset(whole)
        _active.reset(token)


def tombstone_rows() -> contextlib.AbstractContextManager[None]:
    """In this context an events ledger read holds only the rows that may be
    a forget's tombstone (a superset, file order kept): for a reader that
    keeps only tombstones (the receipt audit)."""
    return rows_of(TOMBSTONES)


@contextlib.contextmanager
def rows_of(ref: str) -> Iterator[None]:
    """In this context an events ledger read holds only the rows addressed to
    exactly `ref` (file order kept): what daimon's `fold_item_events` keeps."""
    install()
    token = _for_ref.set(ref)
    try:
        yield
    finally:
        _for_ref.reset(token)


def forget_held() -> None:
    """Drop what is kept in memory (the files on disk stay)."""
    with _lock:
        _held.clear()
        _persisted.clear()
        _pending.clear()


# -- from and to disk (`kept_fold_file`) -----------------------------------------


def _rebuild(spans: kept_fold_file.Spans, rows_at: RowsAt) -> _Kept | None:
    """The kept fold at the offsets on disk, its rows read by `rows_at` from
    the ledger's verified bytes; None when an offset is not the start of a
    row of the kind it is kept for (not our file)."""
    parsed = rows_at(sorted(spans.winners))
    if parsed is None:
        return None
    kept = _Kept(spans.size, spans.digest, refs=dict(spans.refs), tombstones=list(spans.tombstones),
                 trusted=spans.sealed)
    for start in spans.winners:
        row = parsed[start]
        ref = str(row.get("item_ref") or "")
        if not ref or ref in kept.winners:
            return None
        kept.winners[ref] = (start, row)
    if spans.corroborations is not None:
        # each item's witness rows wait until an appended row names it (or the check)
        kept.corroborations = spans.corroborations
        kept.unparsed = {item: list(starts) for item, starts in spans.witnesses.items()}
        return kept
    try:
        for item, starts in spans.witnesses.items():
            _parse_witnesses(kept.witnesses, rows_at, item, starts)
    except Unplaced:
        return None
    return kept


def _parsed_lines(lines: list[bytes], starts: list[int]) -> dict[int, dict] | None:
    """The rows of `lines` (starting at `starts`) as one JSON array; None when one is not a row."""
    try:
        rows = json.loads(b"[" + b",".join(lines) + b"]")
    except (ValueError, RecursionError):
        return None
    if len(rows) != len(starts) or not all(isinstance(row, dict) for row in rows):
        return None
    return dict(zip(starts, rows, strict=True))


def _keep(key: str, kept: _Kept, *, grown: bool = False, persist: bool = True) -> None:
    """Hold `kept` for the ledger `key`; on disk too (unless `persist` is
    False) unless it only grew by less than PERSIST_EVERY_BYTES since the
    copy there."""
    with _lock:
        _held[key] = kept
    if not persist or (grown and kept.size - _persisted.get(key, 0) < PERSIST_EVERY_BYTES):
        return
    _persist(key, kept)


def _persist(key: str, kept: _Kept) -> None:
    """`kept`'s numbers on disk (`kept_fold_file`), when every kept row's line is placed."""
    winners = tuple(at for at, _row in kept.winners.values())
    witnesses = kept.witness_groups()
    if (kept.refs is None or kept.tombstones is None
            or min((*winners, *(at for starts in witnesses.values() for at in starts)), default=0) < 0):
        return  # a row whose line we could not place: kept in memory only
    if kept.corroborations is None:  # every witness row is parsed (`unparsed` comes only with it)
        kept.corroborations = _original_fold_corroborations(kept.rows().witnesses)
    spans = kept_fold_file.Spans(kept.size, kept.digest, winners, witnesses, kept.refs, kept.tombstones,
                                 kept.corroborations)
    if kept_fold_file.save(key, spans, sealed=kept.trusted):
        _persisted[key] = kept.size


# -- the kept fold on disk is our own cache: checked once against daimon's fold --


@dataclass
class _Places:
    """daimon's fold of a ledger as offsets only: where each ref's winner,
    each witness row (with its stamp, which a later row is ordered by), each
    ref's rows and the possible tombstones start. What the check builds in
    place of a second fold of rows: a row is read back from the ledger by its
    offset only while a comparison needs it (issue 29.2: the second fold's
    rows, held beside the kept fold and the child's snapshot, were most of
    the child's peak)."""

    winners: dict[str, int] = field(default_factory=dict)
    witnesses: dict[tuple, tuple[int, str]] = field(default_factory=dict)
    refs: dict[str, list[int]] = field(default_factory=dict)
    tombstones: list[int] = field(default_factory=list)

    def absorb(self, rows: list[dict], starts: list[int], row_at: Callable[[int], dict | None]) -> bool:
        """Fold `rows` (daimon's, each line starting at `starts`) onto these
        places, as `_Kept.absorb` does: each named ref's winner read back by
        `row_at` and folded again with the rows. False when a winner cannot be
        read back."""
        named = dict.fromkeys(str(row.get("item_ref") or "") for row in rows if isinstance(row, dict))
        before = [(at, row_at(at)) for ref in named if (at := self.winners.get(ref)) is not None]
        if any(row is None for _at, row in before):
            return False
        placed = {id(row): start for start, row in before}
        placed.update((id(row), start) for row, start in zip(rows, starts, strict=True))
        for ref, row in latest_per_ref([row for _at, row in before] + rows, keys=True).items():
            self.winners[ref] = placed[id(row)]
        for row, start in zip(rows, starts, strict=True):
            key = _witness_key(row)
            if key is not None:
                held = self.witnesses.get(key)
                if held is None or _stamp_of(row) > held[1]:
                    self.witnesses[key] = (start, _stamp_of(row))
            ref = row.get("item_ref")
            if isinstance(ref, str):
                self.refs.setdefault(ref_key(ref), []).append(start)
            if _may_be_tombstone(row):
                self.tombstones.append(start)
        return True


def _difference(kept: _Kept, fresh: _Places, row_at: Callable[[int], dict | None], rows_at: RowsAt) -> str | None:
    """None when the kept fold answers as daimon's fold of the same bytes
    (`fresh`, its places) does: each ref's winner, each witness row, each
    ref's rows, the possible tombstones and the corroboration fold kept with
    them; otherwise what differs. A kept row at the offset daimon's fold
    names is that line's row (the bytes hash the same); any other is compared
    with the row read back there (`row_at`, `rows_at`)."""
    def agree(held: dict, places: dict) -> bool:
        return held.keys() == places.keys() and all(
            at == places[key] or row == row_at(places[key]) for key, (at, row) in held.items())

    missing = len(fresh.winners.keys() - kept.winners.keys())
    differ = sum(1 for ref, at in fresh.winners.items()
                 if ref in kept.winners and kept.winners[ref][0] != at and kept.winners[ref][1] != row_at(at))
    if missing or differ:
        return f"{missing} item(s) missing their latest record, {differ} with another"
    if not agree(kept.winners, fresh.winners):
        return f"{len(kept.winners.keys() - fresh.winners.keys())} item(s) the ledger does not have"
    # daimon's witness rows by item: the check reads them back an item at a time
    items: dict[str, list[tuple]] = {}
    for key in fresh.witnesses:
        items.setdefault(_item_of(key), []).append(key)
    places = {key: at for key, (at, _ts) in fresh.witnesses.items()}
    parsed: dict[tuple, int] = {}
    hashes = {item: ref_key(item) for item in items}
    for item, keys in items.items():
        starts = kept.unparsed.get(hashes[item])
        if starts is None:
            parsed.update((key, places[key]) for key in keys)
        elif sorted(starts) != sorted(places[key] for key in keys):  # kept elsewhere: its rows decide
            rows: dict[tuple, tuple[int, dict]] = {}
            try:
                _parse_witnesses(rows, rows_at, hashes[item], starts)
            except Unplaced:
                return "a witness offset does not start its row"
            if not agree(rows, {key: places[key] for key in keys}):
                return "its witness rows or row offsets differ"
    if (not agree(kept.witnesses, parsed) or kept.unparsed.keys() - set(hashes.values())
            or (kept.refs is not None and kept.refs != fresh.refs)
            or (kept.tombstones is not None and kept.tombstones != fresh.tombstones)):
        return "its witness rows or row offsets differ"
    if kept.corroborations is not None and not _same_corroborations(kept.corroborations, items, places, rows_at):
        return "its corroboration counts differ"
    return None


def _same_corroborations(kept: dict, items: dict[str, list[tuple]], places: dict[tuple, int],
                         rows_at: RowsAt) -> bool:
    """Whether `kept` is daimon's `fold_corroborations` of the witness rows at
    `places`: folded an item at a time (an item's entry reads only its own
    rows), each item's rows read back and let go, never a second fold of rows."""
    seen: set[str] = set()
    for keys in items.values():
        rows = rows_at(sorted(places[key] for key in keys))
        if rows is None:
            return False
        for item, entry in _original_fold_corroborations(rows.values()).items():
            if kept.get(item) != entry:
                return False
            seen.add(item)
    return seen == kept.keys()


def untrusted() -> list[str]:
    """The ledgers whose kept fold came from disk and is not checked yet."""
    with _lock:
        return [key for key, kept in _held.items() if isinstance(kept, _Kept) and not kept.trusted]


def check_against_full(key: str) -> str | None:
    """Compare the kept fold of the ledger `key` with daimon's full read and
    fold of the same bytes (a block at a time, as offsets: `_fold_in_blocks`).
    It agrees: it is trusted from now on (None). It does not: it is
    discarded, in memory and on disk, and the reason is returned. A ledger
    that moves meanwhile is checked at the next call."""
    path = Path(key)
    with active():
        read(path)  # brings the kept fold up to the ledger's bytes
    with _lock:
        kept = _held.get(key)
    if not isinstance(kept, _Kept) or kept.trusted:
        return None
    try:
        with path.open("rb") as handle:
            before = os.fstat(handle.fileno())
            if before.st_size != kept.size:
                return None

            def row_at(start: int) -> dict | None:
                return _row_in_file(handle.fileno(), start, kept.size)

            folded = _fold_in_blocks(handle.fileno(), kept.size, row_at)
            why: str | None = None
            checked = folded is not None and folded[1] == kept.digest
            if checked:
                why = _difference(kept, folded[0], row_at,
                                  lambda starts: _rows_in_file(handle.fileno(), starts, kept.size))
        after = os.stat(path)
    except OSError:
        return None
    if not checked or _stat_key(before) != _stat_key(after):
        return None  # it moved (or is not every line a row): checked at the next call
    if why is None:
        kept.trusted = True
        with contextlib.suppress(Exception):  # sealed now: the next run need not check it again
            _persist(key, kept)
        return None
    with _lock:
        if _held.get(key) is kept:
            del _held[key]
        _persisted.pop(key, None)
    kept_fold_file.discard(key)
    return (f"the kept fold of {path} (our cache) did not match daimon's full fold of the same bytes "
            f"({why}): discarded")


def _fold_in_blocks(fd: int, size: int, row_at: Callable[[int], dict | None]) -> tuple[_Places, str] | None:
    """daimon's read and fold of the first `size` bytes of the open ledger
    `fd`, as offsets (`_Places`), and the sha256 of those bytes: read a block
    of whole lines at a time (never the whole file), each block judged by
    daimon's reader (from a private scratch copy of exactly those bytes; it
    reads paths) and folded onto the places, its rows let go before the next
    block is read. None when a block is not every line a row (the whole file
    is then not OK either: daimon's read decides later)."""
    places = _Places()
    digest = hashlib.sha256()
    at = 0
    with tempfile.TemporaryDirectory(prefix="daimon-tui-check-") as scratch:
        block_path = Path(scratch) / LEDGER
        while at < size:
            block = _whole_lines(fd, at, size)
            if not block or not _fold_block(places, block_path, block, at, row_at):
                return None
            digest.update(block)
            at += len(block)
    return places, digest.hexdigest()


def _whole_lines(fd: int, at: int, size: int) -> bytes:
    """About CHECK_BLOCK_BYTES of the file from `at`, ending after a newline
    (a line longer than a block: the whole line; the last bytes: up to `size`)."""
    block = b""
    while at + len(block) < size:
        more = os.pread(fd, min(CHECK_BLOCK_BYTES, size - at - len(block)), at + len(block))
        if not more:
            break
        block += more
        end = block.rfind(b"\n") + 1
        if end:
            return block[:end]
    return block


def _fold_block(places: _Places, block_path: Path, block: bytes, at: int,
                row_at: Callable[[int], dict | None]) -> bool:
    """One block read by daimon and folded onto `places` (its rows die with this call)."""
    try:
        block_path.write_bytes(block)
    except OSError:
        return False
    read = _original_read(block_path)
    starts = _line_starts(block, at)
    if read.health is not Health.OK or len(starts) != len(read.rows):
        return False
    return places.absorb(read.rows, starts, row_at)
