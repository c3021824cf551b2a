"""The kept fold's corroboration refold (`Kept.absorb`): over batches of
appended witness and contradiction rows, the kept corroboration fold is
daimon's fold of every row so far, and the index of the witness keys by item
that the refold looks items up in, grown batch by batch, is the one built
from scratch."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX, Kept

ITEMS = ("i-1", "i-2", "i-3", "i-4")


def _row(kind: str, item: str, session: str, second: int) -> dict:
    ts = f"2026-11-01T09:00:{second:02d}Z"
    if kind == "witness":
        return {"item_ref": CORROBORATION_PREFIX + item, "status": f"corroborated-by:{session}", "ts": ts}
    if kind == "contradiction":
        return {"item_ref": item, "status": "supersede-candidate", "ts": ts}
    return {"item_ref": item, "status": "reopened", "ts": ts}  # names the item, folds no witness


rows = st.builds(_row, st.sampled_from(("witness", "witness", "contradiction", "other")), st.sampled_from(ITEMS),
                 st.sampled_from(("S-a", "S-b", "S-c")), st.integers(0, 59))


@settings(max_examples=150, deadline=None)
@given(batches=st.lists(st.lists(rows, max_size=6), min_size=1, max_size=6))
def test_the_refold_after_each_batch_is_daimons_fold_of_every_row(batches: list[list[dict]]) -> None:
    daimon = kept_fold.KEPT.daimon
    kept, seen, at = Kept(0, "", corroborations={}), [], 0
    for batch in batches:
        starts = list(range(at, at + len(batch)))
        at += len(batch)
        seen += batch
        kept = kept.absorb(daimon, batch, starts, at, "")
        assert kept.corroborations == daimon.fold_corroborations(seen)
        if kept.index is not None:
            assert kept.index == Kept(0, "", witnesses=kept.witnesses, corroborations={})._index(kept.witnesses)
