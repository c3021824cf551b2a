"""The snapshot's `store.tombstone_refs` (its `forgotten_ids`) answered from
the kept fold (issue 42 point 2): for the item fold the kept fold just handed
out, untouched, daimon's own function over the refs whose winner may be a
tombstone, not over every ref (it filters ref by ref, so a ref whose latest
event is no tombstone adds nothing). Any other map, or one changed after it
was handed out: daimon's own over all of it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api import originals
from daimon_tui.store.daimon_api.public import store
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX
from tests.perf.kept_batches import asked_batches, grown_by, kept_of

KEY_REF = store.new_key_ref()
_REFS = st.sampled_from(["i-1", "i-2", "i-3", CORROBORATION_PREFIX + "i-1", KEY_REF, store.new_key_ref(), ""])
_STATUSES = st.sampled_from(["resolved", "reopened", "reopened:unforget", "superseded-by:i-2", "supersede-candidate",
                             "corroborated-by:S-a", "forgotten:k", "forgotten:j", " Forgotten: k ",
                             "forgotten about it", "resolving-candidate", ""])
_STAMPS = st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:01Z", "2026-03-01T09:00:02Z",
                           "2026-02-30T00:00:00Z", "2026-3-1T9:0:1Z", "", None])
_ROW = st.fixed_dictionaries({"item_ref": _REFS, "status": _STATUSES, "ts": _STAMPS})


def _own(resolutions: dict) -> frozenset:
    return originals.kept.get("daimon_briefing.store:tombstone_refs", store.tombstone_refs)(resolutions)


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(_ROW, max_size=8), min_size=1, max_size=6), ask=st.lists(st.booleans(), max_size=6),
       touch=st.booleans())
def test_the_tombstone_refs_after_each_batch_are_daimons_over_every_row(
        batches: list[list[dict]], ask: list[bool], touch: bool) -> None:
    kept_fold.install()
    daimon = kept_fold.KEPT.daimon
    for kept, seen in asked_batches(batches, ask):
        resolutions = store.fold_resolutions(kept.rows())
        if touch:  # a map changed after it was handed out is answered by daimon over all of it
            resolutions["i-9"] = {"item_ref": "i-9", "status": "forgotten:z", "ts": "2026-03-01T09:00:00Z"}
            resolutions.pop("i-1", None)
        want = _own(daimon.fold(seen, keys=False))
        if touch:
            want = _own({**{r: e for r, e in daimon.fold(seen, keys=False).items() if r != "i-1"},
                         "i-9": resolutions["i-9"]})
        assert store.tombstone_refs(resolutions) == want
    # a map that is no kept fold's: daimon's own answer
    seen = [row for batch in batches for row in batch]  # every row, asked about last or not
    assert store.tombstone_refs(daimon.fold(seen, keys=False)) == _own(daimon.fold(seen, keys=False))


def test_after_an_append_daimon_judges_only_the_refs_that_may_be_tombstones(monkeypatch) -> None:
    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": f"i-{n}", "status": "resolved", "ts": "2026-03-01T09:00:00Z"} for n in range(500)]
    many += [{"item_ref": "i-3", "status": "forgotten:k", "ts": "2026-03-01T09:00:01Z"},
             {"item_ref": KEY_REF, "status": "forgotten:k", "ts": "2026-03-01T09:00:01Z"}]
    kept = kept_of(many, daimon)
    kept_fold.install()  # the snapshot calls `store.tombstone_refs`: the kept fold's once installed
    store.tombstone_refs(store.fold_resolutions(kept.rows()))  # the first ask finds the maybe-tombstones
    appended = [{"item_ref": "i-7", "status": "forgotten:j", "ts": "2026-03-01T09:00:05Z"}]
    grown = grown_by(kept, appended, daimon)
    resolutions = store.fold_resolutions(grown.rows())
    judged: list[object] = []
    real = store.is_resolved

    def counting(row: object) -> bool:
        judged.append(row)
        return real(row)

    monkeypatch.setattr(store, "is_resolved", counting)
    answer = store.tombstone_refs(resolutions)
    monkeypatch.undo()
    assert len(judged) <= 10, len(judged)  # today: every one of the 500 refs
    assert answer == frozenset({"i-3", "i-7"})
    assert answer == _own(daimon.fold(many + appended, keys=False))
