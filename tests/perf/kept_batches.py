"""The kept fold grown batch by batch, as the swaps' differentials drive it."""

from __future__ import annotations

from collections.abc import Iterator

from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_rows import Kept


def asked_batches(batches: list[list[dict]], ask: list[bool]) -> Iterator[tuple[Kept, list[dict]]]:
    """After each batch the test asks about (`ask[n]`, else asked): the kept fold then, and every
    row so far. A batch not asked about is absorbed all the same, carried on by the next."""
    daimon = kept_fold.KEPT.daimon
    kept, seen, at = Kept(0, "", corroborations={}), [], 0
    for n, batch in enumerate(batches):
        starts = list(range(at, at + len(batch)))
        at += len(batch)
        seen += batch
        kept = kept.absorb(daimon, batch, starts, at, "")
        if n >= len(ask) or ask[n]:
            yield kept, seen
