"""The forget walk's `store.standing_tombstones` answered from the kept fold
(issue 42 point 2): daimon's own function over the winners that may be a
tombstone, not over every winner (`_fold` is per ref, and a ref whose winner
is no tombstone adds nothing). After each batch of appended rows it is
daimon's answer over every row so far, and daimon judges only those winners."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api.public import store
from daimon_tui.store.judging import kept_fold, kept_fold_hooks
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


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(_ROW, max_size=8), min_size=1, max_size=6), ask=st.lists(st.booleans(), max_size=6))
def test_the_standing_tombstones_after_each_batch_are_daimons_over_every_row(
        batches: list[list[dict]], ask: list[bool]) -> None:
    daimon = kept_fold.KEPT.daimon
    for kept, seen in asked_batches(batches, ask):
        assert kept_fold_hooks.standing_tombstones(kept_fold.KEPT, kept.rows()) == daimon.standing_tombstones(seen)
    # rows that are no kept fold's: daimon's own answer
    seen = [row for batch in batches for row in batch]  # every row, asked about last or not
    assert kept_fold_hooks.standing_tombstones(kept_fold.KEPT, list(seen)) == daimon.standing_tombstones(seen)


def test_after_an_append_daimon_judges_only_the_winners_that_may_be_tombstones(monkeypatch) -> None:
    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": f"i-{n}", "status": "resolved", "ts": "2026-03-01T09:00:00Z"} for n in range(500)]
    many += [{"item_ref": "i-3", "status": "forgotten:k", "ts": "2026-03-01T09:00:01Z"},
             {"item_ref": KEY_REF, "status": "forgotten:k", "ts": "2026-03-01T09:00:01Z"}]
    kept = kept_of(many, daimon)
    kept_fold.install()  # the forget walk calls `store.standing_tombstones`: the kept fold's once installed
    store.standing_tombstones(kept.rows())  # the first ask folds every winner
    appended = [{"item_ref": "i-7", "status": "forgotten:j", "ts": "2026-03-01T09:00:05Z"}]
    grown = grown_by(kept, appended, daimon)
    judged: list[object] = []
    real = store.is_resolved

    def counting(row: object) -> bool:
        judged.append(row)
        return real(row)

    monkeypatch.setattr(store, "is_resolved", counting)
    answer = store.standing_tombstones(grown.rows())
    monkeypatch.undo()
    assert len(judged) <= 10, len(judged)  # today: every one of the 501 winners
    assert set(answer) == {"k", "j"}
    assert answer == daimon.standing_tombstones(many + appended)
