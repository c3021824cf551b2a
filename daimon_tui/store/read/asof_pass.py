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
"""

from __future__ import annotations

import bisect
import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

# A line's (stamp or None, is a forget row), or None for a blank line.
Classify = Callable[[str], "tuple[str | None, bool] | None"]


# mutable because it indexes its own rows once built (`__post_init__` fills `stamps` and `lines_at`)
@dataclasses.dataclass(slots=True)
class _Ledger:
    state: tuple[int, int, int, int]
    lines: list[str]
    kinds: list[tuple[str | None, bool] | None]
    late_forget: str  # the latest stamp of a forget row ("" when none is stamped)
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

    def __init__(self, classify: Classify) -> None:
        self.classify = classify
        self.ledgers: dict[str, _Ledger] = {}
        self.copies: dict[str, _Copy] = {}

    def _ledger(self, src: Path) -> _Ledger:
        st = os.stat(src)
        state = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        held = self.ledgers.get(str(src))
        if held is not None and held.state == state:
            return held
        with src.open("r", encoding="utf-8", errors="surrogateescape", newline="") as handle:
            lines = handle.readlines()
        kinds = [self.classify(line.strip()) if line.strip() else None for line in lines]
        late = max((k[0] for k in kinds if k is not None and k[1] and k[0] is not None), default="")
        held = _Ledger(state, lines, kinds, late)
        self.ledgers[str(src)] = held
        return held

    def cut(self, src: Path, dst: Path, cutoff: str, *, forgets_only: bool = False) -> int:
        """Write the copy of `src` at `cutoff` to `dst`; how many rows were left out."""
        ledger = self._ledger(src)
        kept: list[str] = []
        cut = 0
        before = self.copies.get(str(dst))
        grows = (before is not None and not forgets_only and before.cutoff <= cutoff
                 and ledger.late_forget <= before.first and _size(dst) == before.size)
        if grows and before is not None:  # the rows stamped since the last moment, looked up by stamp
            kept, cut = ledger.between(before.cutoff, cutoff)
        else:
            for line, kind in zip(ledger.lines, ledger.kinds, strict=True):
                if kind is None:  # a blank line: kept (the ledger's health)
                    kept.append(line)
                    continue
                ts, forgets = kind
                if forgets or (ts is None and not forgets_only):
                    kept.append(line)
                elif forgets_only or ts is None or ts > cutoff:
                    cut += 1
                else:
                    kept.append(line)
        data = "".join(kept).encode("utf-8", errors="surrogateescape")
        if grows and before is not None:
            with dst.open("ab") as handle:
                handle.write(data)
            self.copies[str(dst)] = _Copy(cutoff, before.first, before.size + len(data))
        else:
            if _size(dst) != len(data) or dst.read_bytes() != data:  # the same bytes: left alone (its stat too)
                dst.write_bytes(data)
            self.copies[str(dst)] = _Copy(cutoff, cutoff, len(data))
        return cut


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1
