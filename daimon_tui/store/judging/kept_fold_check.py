"""The once-per-run check of the kept events fold against daimon's own fold.

The kept fold's numbers come from our cache on disk: untrusted input. A file
whose size and digest still match the ledger but that lost a winner's
offset would make a resolved item read as live, under "confirmed by daimon".
So once per run (per child), after the confirming read, the judging child
reads and folds each such ledger as daimon does, a block of lines at a time,
keeping only where each row that could win starts (never a second fold of
rows, nor the ledger's bytes whole: `fold_in_blocks`), and
compares; a fold that disagrees is discarded, and the app confirms again with a child that
holds nothing of it (`first_paint.confirm_async`). A fold the check finds
right is written sealed, as is one built from daimon's full read
(`kept_fold_file`): a sealed file loads trusted and is not checked again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from daimon_tui.models import ProjectRef
from daimon_tui.models.records import Record
from daimon_tui.store.daimon_api.public import Health
from daimon_tui.store.judging import kept_fold, kept_fold_file, kept_fold_persist, kept_fold_rows
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.judging.kept_fold_ledger import LEDGER, RowsAt, line_starts, row_in_file, rows_in_file, stat_key
from daimon_tui.store.judging.kept_fold_protocol import KeptFoldJobs
from daimon_tui.store.judging.kept_fold_rows import (
    Kept,
    Unplaced,
    item_of,
    latest_per_ref,
    may_be_tombstone,
    ref_key,
    stamp_of,
    witness_key,
)

# The check reads and folds the ledger this many bytes (whole lines) at a
# time: daimon's rows of the whole ledger are never held at once beside the
# snapshot the child keeps (on the heavy store that pushed the child's peak
# past one `daimon brief`'s); one block is ~6,000 rows there (the check's
# peak on the heavy store: +31 MB at 1 MiB, +55 MB at 4 MiB).
CHECK_BLOCK_BYTES = 1024 * 1024


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class FoldCheck(Record):
    """What the check found: `discarded` names each kept fold found wrong."""

    discarded: tuple[str, ...] = ()


def check(project: ProjectRef) -> FoldCheck:
    """Every kept fold read from disk this run and not checked yet."""
    found = tuple(why for key in kept_fold.untrusted() if (why := check_against_full(kept_fold.KEPT, key)))
    return FoldCheck(discarded=found)


# mutable because it is a builder: each block of the ledger is folded onto it in turn
@dataclass(slots=True)
class Places:
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

    def absorb(self, daimon: Daimon, rows: list[dict], starts: list[int],
               row_at: Callable[[int], dict | None]) -> bool:
        """Fold `rows` (daimon's, each line starting at `starts`) onto these
        places, as `Kept.absorb` does: each named ref's winner read back by
        `row_at` and folded again with the rows. False when a winner cannot be
        read back."""
        named = dict.fromkeys(str(row.get("item_ref") or "") for row in rows if isinstance(row, dict))
        before = [(at, row_at(at)) for ref in named if (at := self.winners.get(ref)) is not None]
        if any(row is None for _at, row in before):
            return False
        placed = {id(row): start for start, row in before}
        placed.update((id(row), start) for row, start in zip(rows, starts, strict=True))
        for ref, row in latest_per_ref([row for _at, row in before] + rows, keys=True, daimon=daimon).items():
            self.winners[ref] = placed[id(row)]
        for row, start in zip(rows, starts, strict=True):
            key = witness_key(row)
            if key is not None:
                held = self.witnesses.get(key)
                if held is None or stamp_of(row) > held[1]:
                    self.witnesses[key] = (start, stamp_of(row))
            ref = row.get("item_ref")
            if isinstance(ref, str):
                self.refs.setdefault(ref_key(ref), []).append(start)
            if may_be_tombstone(row):
                self.tombstones.append(start)
        return True


def difference(kept: Kept, fresh: Places, row_at: Callable[[int], dict | None], rows_at: RowsAt,
               daimon: Daimon) -> str | None:
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
        items.setdefault(item_of(key), []).append(key)
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
                kept_fold_rows.parse_witnesses(rows, rows_at, hashes[item], starts)
            except Unplaced:
                return "a witness offset does not start its row"
            if not agree(rows, {key: places[key] for key in keys}):
                return "its witness rows or row offsets differ"
    if (not agree(kept.witnesses, parsed) or kept.unparsed.keys() - set(hashes.values())
            or (kept.refs is not None and kept.refs != fresh.refs)
            or (kept.tombstones is not None and kept.tombstones != fresh.tombstones)):
        return "its witness rows or row offsets differ"
    if kept.corroborations is not None and not same_corroborations(kept.corroborations, items, places, rows_at,
                                                                             daimon):
        return "its corroboration counts differ"
    return None


def same_corroborations(kept: dict, items: dict[str, list[tuple]], places: dict[tuple, int],
                        rows_at: RowsAt, daimon: Daimon) -> bool:
    """Whether `kept` is daimon's `fold_corroborations` of the witness rows at
    `places`: folded an item at a time (an item's entry reads only its own
    rows), each item's rows read back and let go, never a second fold of rows."""
    seen: set[str] = set()
    for keys in items.values():
        rows = rows_at(sorted(places[key] for key in keys))
        if rows is None:
            return False
        for item, entry in daimon.fold_corroborations(rows.values()).items():
            if kept.get(item) != entry:
                return False
            seen.add(item)
    return seen == kept.keys()


def check_against_full(fold: KeptFoldJobs, key: str) -> str | None:
    """Compare the kept fold of the ledger `key` with daimon's full read and
    fold of the same bytes (a block at a time, as offsets: `fold_in_blocks`).
    It agrees: it is trusted from now on (None). It does not: it is
    discarded, in memory and on disk, and the reason is returned. A ledger
    that moves meanwhile is checked at the next call."""
    path = Path(key)
    with fold.active():
        fold.read(path)  # brings the kept fold up to the ledger's bytes
    with fold.lock:
        kept = fold.held.get(key)
    if not isinstance(kept, Kept) or kept.trusted:
        return None
    try:
        with path.open("rb") as handle:
            before = os.fstat(handle.fileno())
            if before.st_size != kept.size:
                return None

            def row_at(start: int) -> dict | None:
                return row_in_file(handle.fileno(), start, kept.size)

            folded = fold_in_blocks(fold.daimon, handle.fileno(), kept.size, row_at)
            why: str | None = None
            checked = folded is not None and folded[1] == kept.digest
            if checked:
                why = difference(kept, folded[0], row_at,
                                 lambda starts: rows_in_file(handle.fileno(), starts, kept.size), fold.daimon)
        after = os.stat(path)
    except OSError:
        return None
    if not checked or stat_key(before) != stat_key(after):
        return None  # it moved (or is not every line a row): checked at the next call
    if why is None:
        kept.trusted = True
        with contextlib.suppress(Exception):  # sealed now: the next run need not check it again
            kept_fold_persist.save(fold, key, kept)
        return None
    with fold.lock:
        if fold.held.get(key) is kept:
            del fold.held[key]
        fold.persisted.pop(key, None)
    kept_fold_file.discard(key)
    return (f"the kept fold of {path} (our cache) did not match daimon's full fold of the same bytes "
            f"({why}): discarded")


def fold_in_blocks(daimon: Daimon, fd: int, size: int,
                   row_at: Callable[[int], dict | None]) -> tuple[Places, str] | None:
    """daimon's read and fold of the first `size` bytes of the open ledger
    `fd`, as offsets (`Places`), and the sha256 of those bytes: read a block
    of whole lines at a time (never the whole file), each block judged by
    daimon's reader (from a private scratch copy of exactly those bytes; it
    reads paths) and folded onto the places, its rows let go before the next
    block is read. None when a block is not every line a row (the whole file
    is then not OK either: daimon's read decides later)."""
    places = Places()
    digest = hashlib.sha256()
    at = 0
    with tempfile.TemporaryDirectory(prefix="daimon-tui-check-") as scratch:
        block_path = Path(scratch) / LEDGER
        while at < size:
            block = whole_lines(fd, at, size)
            if not block or not fold_block(daimon, places, block_path, block, at, row_at):
                return None
            digest.update(block)
            at += len(block)
    return places, digest.hexdigest()


def whole_lines(fd: int, at: int, size: int) -> bytes:
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


def fold_block(daimon: Daimon, places: Places, block_path: Path, block: bytes, at: int,
                row_at: Callable[[int], dict | None]) -> bool:
    """One block read by daimon and folded onto `places` (its rows die with this call)."""
    try:
        block_path.write_bytes(block)
    except OSError:
        return False
    read = daimon.read(block_path)
    starts = line_starts(block, at)
    if read.health is not Health.OK or len(starts) != len(read.rows):
        return False
    return places.absorb(daimon, read.rows, starts, row_at)
