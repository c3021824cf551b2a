"""A snapshot's resolved refs answered from the kept fold (issue 42 point 2):
daimon's `Snapshot.resolved_refs` (a cached property: `store.is_resolved`
over every ref of the item fold, ~0.3 s of a cold Health pass on the heavy
store, asked at each moment by the reader's `view.closing_event`) is handed,
for a snapshot folded from the kept fold, the kept fold's set, carried by
each absorb over the refs its rows name. Any other snapshot: daimon's own."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api.public import store, view
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX, Kept
from daimon_tui.store.judging.snapshot_share import hand_kept_answers
from tests.perf.kept_batches import asked_batches, grown_by, kept_of

_ROW = st.fixed_dictionaries({
    "item_ref": st.sampled_from(["i-1", "i-2", "i-3", CORROBORATION_PREFIX + "i-1", store.new_key_ref(), ""]),
    "status": st.sampled_from(["resolved", "Resolved", "reopened", "superseded-by:i-2", "supersede-candidate:i-2",
                               "resolving-candidate", "forgotten:k", "corroborated-by:S-a", "", "done"]),
    "ts": st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:01Z", "2026-02-30T00:00:00Z", "", None])})


def _daimons(resolutions: dict) -> frozenset:
    """daimon's own answer: its cached property made over `resolutions`."""
    return dataclasses.replace(view.Snapshot.empty(), resolutions=MappingProxyType(dict(resolutions))).resolved_refs


def _folded(kept: Kept) -> view.Snapshot:
    """A snapshot as daimon's makes it from the kept rows: its item fold a copy of the fold handed out."""
    kept_fold.install()
    return dataclasses.replace(view.Snapshot.empty(), resolutions=MappingProxyType(
        dict(store.fold_resolutions(kept.rows()))))


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(_ROW, max_size=8), min_size=1, max_size=6), ask=st.lists(st.booleans(), max_size=6),
       touch=st.booleans())
def test_the_resolved_refs_after_each_batch_are_daimons_over_every_row(
        batches: list[list[dict]], ask: list[bool], touch: bool) -> None:
    kept_fold.install()
    daimon = kept_fold.KEPT.daimon
    for kept, seen in asked_batches(batches, ask):
        snap = _folded(kept)
        want = daimon.fold(seen, keys=False)
        if touch:  # a snapshot whose fold is not the kept fold's keeps daimon's own answer
            snap = dataclasses.replace(snap, resolutions=MappingProxyType(
                {**snap.resolutions, "i-3": {"item_ref": "i-3", "status": "resolved", "ts": "2026-03-01T09:00:09Z"}}))
            want = {**want, "i-3": snap.resolutions["i-3"]}
        hand_kept_answers(snap)
        assert snap.resolved_refs == _daimons(want)


def test_a_kept_snapshot_is_handed_its_resolved_refs_not_made_over_every_ref(monkeypatch) -> None:
    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": f"i-{n}", "status": "resolved" if n % 2 else "reopened", "ts": "2026-03-01T09:00:00Z"}
            for n in range(500)]
    kept = kept_of(many, daimon)
    hand_kept_answers(_folded(kept))  # the first: every ref judged once
    appended = [{"item_ref": "i-2", "status": "resolved", "ts": "2026-03-01T09:00:05Z"},
                {"item_ref": "i-3", "status": "reopened", "ts": "2026-03-01T09:00:05Z"}]
    grown = grown_by(kept, appended, daimon)
    snap = _folded(grown)
    judged: list[dict] = []
    real = store.is_resolved
    monkeypatch.setattr(store, "is_resolved", lambda evt: judged.append(evt) or real(evt))
    hand_kept_answers(snap)
    answer = snap.resolved_refs
    monkeypatch.undo()
    assert len(judged) <= 10, len(judged)  # today: every one of the 500 refs
    assert answer == _daimons(daimon.fold(many + appended, keys=False))
    assert "i-2" in answer and "i-3" not in answer


def test_a_snapshot_that_is_no_kept_folds_is_left_to_daimon() -> None:
    rows = [{"item_ref": "i-1", "status": "resolved", "ts": "2026-03-01T09:00:00Z"}]
    snap = dataclasses.replace(view.Snapshot.empty(), resolutions=MappingProxyType({"i-9": rows[0]}))
    hand_kept_answers(snap)
    assert "resolved_refs" not in vars(snap)
    assert snap.resolved_refs == frozenset({"i-9"})
