"""The ledgers of a pass over a project's moments, oldest first (Health): each
ledger is read and parsed once, and each moment's copy grows by its new rows.

Cut one moment at a time (`asof._cut_ledger`), a copy keeps the rows stamped up
to the moment in file order. When a ledger's rows are not in time order (the
rows a capture writes for its session come before rows stamped earlier), a
later moment's copy is not the earlier one plus rows: the copy is written
whole, and the kept fold of the copy is daimon's full read again, each moment.

Here the copy for a later moment is the earlier copy with the rows stamped
between the two moments appended (in file order; found by stamp, not by a
walk of every line). It differs from the exact
cut only in where rows of different stamps sit: every row appended is stamped
after every stamped row already there, and daimon's folds pick by stamp (file
position only breaks ties within one second, and rows of one second stay in
file order). Rows kept whatever their time (no stamp: folded as oldest; a
forget row) stay where the first copy put them; a forget row stamped after
the first moment could tie a later row, so a ledger holding one is cut exactly
at every moment (tests/store/test_health_pass.py holds the two equal).

A ledger daimon has read whole already (the real store's events ledger, read
for the listing: `offer`) is not parsed again: each line is classified by
daimon's row of it, and a copy written whole hands its rows to `seed` (the
copy's kept fold is made from them, not from daimon's read of the copy). The
lines a copy keeps are whole lines of a ledger whose every line is a row, so
daimon's read of the copy is exactly those rows, in order
(tests/store/test_health_once.py holds the two folds equal).
"""

from __future__ import annotations

import bisect
import dataclasses
import io
import os
from collections.abc import Callable
from pathlib import Path

# A line's (stamp or None, is a forget row), or None for a blank line.
Classify = Callable[[str], "tuple[str | None, bool] | None"]
# The same, of daimon's row of a line.
ClassifyRow = Callable[[dict], "tuple[str | None, bool]"]
# (copy, its bytes, daimon's rows of them): a copy written whole from a ledger daimon read whole
Seed = Callable[[Path, bytes, "list[dict]"], None]
# (copy, its size before): a copy this pass has just appended to, its first bytes untouched
Appended = Callable[[Path, int], None]


# mutable because it indexes its own rows once built (`__post_init__` fills `stamps` and `lines_at`)
@dataclasses.dataclass(slots=True)
class _Ledger:
    state: tuple[int, int, int, int]
    lines: list[str]
    kinds: list[tuple[str | None, bool] | None]
    late_forget: str  # the latest stamp of a forget row ("" when none is stamped)
    # daimon's row of each line (None for a blank line), while a copy may still be written whole from them
    rows: list[dict | None] | None = None
    # the copy that keeps only its forget rows (another bucket's: the same at every moment), once cut
    forgets: tuple[bytes, int] | None = None
    # the stamped rows that are not forget rows, by (stamp, line): a copy grows by a range of them
    stamps: list[str] = dataclasses.field(default_factory=list)
    lines_at: list[int] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        timed = sorted((kind[0], n) for n, kind in enumerate(self.kinds)
                       if kind is not None and kind[0] is not None and not kind[1])
        self.stamps = [ts for ts, _n in timed]
        self.lines_at = [n for _ts, n in timed]

    def between(self, after: str, upto: str) -> tuple[list[str], int]:
        """The lines of the rows stamped after `after` and up to `upto`, in
        file order, and how many rows are stamped after `upto`."""
        lo, hi = bisect.bisect_right(self.stamps, after), bisect.bisect_right(self.stamps, upto)
        return [self.lines[n] for n in sorted(self.lines_at[lo:hi])], len(self.stamps) - hi


@dataclasses.dataclass(frozen=True, slots=True)
class _Copy:
    cutoff: str
    first: str  # the first moment this copy was cut at
    size: int  # its bytes as written, to tell that nothing else wrote it


class LedgerPass:
    """`cut(src, dst, cutoff)`: what `asof._cut_ledger` writes, each source
    parsed once for the whole pass; moments must come oldest first to append."""

    def __init__(self, classify: Classify, classify_row: ClassifyRow | None = None, seed: Seed | None = None,
                 appended: Appended | None = None) -> None:
        self.classify = classify
        self.classify_row = classify_row
        self.seed = seed
        self.appended = appended
        self.ledgers: dict[str, _Ledger] = {}
        self.copies: dict[str, _Copy] = {}

    def offer(self, src: Path, data: bytes, rows: list[dict],
              st: os.stat_result) -> tuple[list[str], list[dict | None], list[str | None]] | None:
        """daimon's whole read of `src`: `data` its bytes, `rows` daimon's row of
        each line that is not blank (split at newlines, every one a row), `st`
        its stat then. Taken when it lines up with the lines as this pass
        splits them (one row each that is not blank): then those lines, the
        row of each (None for a blank one) and its time (`classify_row`'s); else None."""
        if self.classify_row is None:
            return None
        lines = io.StringIO(data.decode("utf-8", errors="surrogateescape"), newline="").readlines()
        filled = [n for n, line in enumerate(lines) if line.strip()]
        if len(filled) != len(rows) or not all(isinstance(row, dict) for row in rows):
            return None
        row_at: list[dict | None] = [None] * len(lines)
        for n, row in zip(filled, rows, strict=True):
            row_at[n] = row
        kinds = [None if row is None else self.classify_row(row) for row in row_at]
        self.ledgers[os.path.abspath(src)] = _Ledger((st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino),
                                                     lines, kinds, _late_forget(kinds), rows=row_at)
        return lines, row_at, [None if kind is None else kind[0] for kind in kinds]

    def _ledger(self, src: Path) -> _Ledger:
        st = os.stat(src)
        state = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        held = self.ledgers.get(os.path.abspath(src))
        if held is not None and held.state == state:
            return held
        with src.open("r", encoding="utf-8", errors="surrogateescape", newline="") as handle:
            lines = handle.readlines()
        kinds = [self.classify(line.strip()) if line.strip() else None for line in lines]
        held = _Ledger(state, lines, kinds, _late_forget(kinds))
        self.ledgers[os.path.abspath(src)] = held
        return held

    def cut(self, src: Path, dst: Path, cutoff: str, *, forgets_only: bool = False) -> int:
        """Write the copy of `src` at `cutoff` to `dst`; how many rows were left out."""
        ledger = self._ledger(src)
        kept: list[str] = []
        kept_rows: list[dict] = []  # daimon's rows of the kept lines, when it read the ledger whole
        rows = ledger.rows if self.seed is not None and not forgets_only else None
        cut = 0
        before = self.copies.get(str(dst))
        grows = (before is not None and not forgets_only and before.cutoff <= cutoff
                 and ledger.late_forget <= before.first and _size(dst) == before.size)
        if grows and before is not None:  # the rows stamped since the last moment, looked up by stamp
            kept, cut = ledger.between(before.cutoff, cutoff)
        elif forgets_only and ledger.forgets is not None:  # whatever the moment: cut once
            self._write_whole(dst, ledger.forgets[0], cutoff)
            return ledger.forgets[1]
        else:
            for n, (line, kind) in enumerate(zip(ledger.lines, ledger.kinds, strict=True)):
                if kind is None:  # a blank line: kept (the ledger's health)
                    kept.append(line)
                    continue
                ts, forgets = kind
                if (forgets_only and not forgets) or (not forgets and ts is not None and ts > cutoff):
                    cut += 1
                    continue
                kept.append(line)
                if rows is not None:
                    kept_rows.append(rows[n])  # type: ignore[arg-type]  # not blank: a row
        data = "".join(kept).encode("utf-8", errors="surrogateescape")
        if grows and before is not None:
            with dst.open("ab") as handle:
                handle.write(data)
            self.copies[str(dst)] = _Copy(cutoff, before.first, before.size + len(data))
            if self.appended is not None:
                self.appended(dst, before.size)
        else:
            self._write_whole(dst, data, cutoff)
            if forgets_only:
                ledger.forgets = (data, cut)
            if rows is not None and self.seed is not None:
                self.seed(dst, data, kept_rows)
                if ledger.late_forget <= cutoff:  # every later copy grows from this one: the rows are let go
                    ledger.rows = None
        return cut

    def _write_whole(self, dst: Path, data: bytes, cutoff: str) -> None:
        if _size(dst) != len(data) or dst.read_bytes() != data:  # the same bytes: left alone (its stat too)
            dst.write_bytes(data)
        self.copies[str(dst)] = _Copy(cutoff, cutoff, len(data))


def _late_forget(kinds: list[tuple[str | None, bool] | None]) -> str:
    return max((k[0] for k in kinds if k is not None and k[1] and k[0] is not None), default="")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1
