"""The kept fold grown batch by batch, as the swaps' differentials drive it."""

from __future__ import annotations

from collections.abc import Iterator

from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.judging.kept_fold_rows import Kept


def kept_of(rows: list[dict], daimon: Daimon | None = None) -> Kept:
    """A kept fold of `rows`, one line each (starts 0, 1, ...)."""
    return grown_by(Kept(0, "", corroborations={}), rows, daimon)


def grown_by(kept: Kept, rows: list[dict], daimon: Daimon | None = None) -> Kept:
    """`kept` with `rows` appended, one line each after its last."""
    at = kept.size
    return kept.absorb(daimon or kept_fold.KEPT.daimon, rows, list(range(at, at + len(rows))), at + len(rows), "")


def asked_batches(batches: list[list[dict]], ask: list[bool]) -> Iterator[tuple[Kept, list[dict]]]:
    """After each batch the test asks about (`ask[n]`, else asked): the kept fold then, and every
    row so far. A batch not asked about is absorbed all the same, carried on by the next."""
    kept, seen = Kept(0, "", corroborations={}), []
    for n, batch in enumerate(batches):
        seen += batch
        kept = grown_by(kept, batch)
        if n >= len(ask) or ask[n]:
            yield kept, seen
