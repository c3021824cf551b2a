"""daimon's fold of the kept winners (`store.fold_resolutions`, the forget
walk's `standing_tombstones`), kept across appends (issue 42 point 2): after
each batch of appended rows it is daimon's fold of every row so far (and the
fold of the winners whole, refs in the same order), and after an append
daimon folds the winners of the refs the rows name, not every winner again."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api.public import store
from daimon_tui.store.judging import kept_fold, kept_fold_hooks
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX, Kept, KeptRows
from tests.perf.kept_batches import asked_batches, grown_by, kept_of

KEY_REF = store.new_key_ref()
_REFS = st.sampled_from(["i-1", "i-2", "i-3", CORROBORATION_PREFIX + "i-1", CORROBORATION_PREFIX + "i-2", KEY_REF, ""])
_STATUSES = st.sampled_from(["resolved", "reopened", "reopened:unforget", "superseded-by:i-2", "supersede-candidate",
                             "corroborated-by:S-a", "corroborated-by:S-b", "forgotten:k", "resolving-candidate", ""])
_STAMPS = st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:01Z", "2026-03-01T09:00:02Z",
                           "2026-02-30T00:00:00Z", "2026-3-1T9:0:1Z", "", None])
_ROW = st.fixed_dictionaries({"item_ref": _REFS, "status": _STATUSES, "ts": _STAMPS,
                              "note": st.sampled_from(["", "x"])})


def _fold(kept: Kept, keys: bool) -> dict:
    return kept_fold_hooks.fold(kept_fold.KEPT, kept.rows(), keys=keys)


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(_ROW, max_size=8), min_size=1, max_size=6), ask=st.lists(st.booleans(), max_size=6))
def test_the_kept_winners_fold_after_each_batch_is_daimons_fold_of_every_row(
        batches: list[list[dict]], ask: list[bool]) -> None:
    daimon = kept_fold.KEPT.daimon
    for kept, seen in asked_batches(batches, ask):
        for keys in (True, False):
            answer = _fold(kept, keys)
            assert answer == daimon.fold(seen, keys=keys)
            whole = daimon.fold(kept.rows().winners, keys=keys)
            assert list(answer.items()) == list(whole.items())  # the refs' order, the very rows
            answer.clear()  # the caller's copy: what is kept is not touched
            assert _fold(kept, keys) == whole
        # a copy of the fold (as the kept fold's own writer makes one) answers the same
        assert _fold(dataclasses.replace(kept, size=kept.size), True) == daimon.fold(seen, keys=True)


def test_after_an_append_daimon_folds_only_the_winners_of_the_refs_it_names() -> None:
    folded: list[int] = []
    taken = kept_fold.KEPT.daimon

    def counting(rows: object, *, keys: bool) -> dict:
        rows = list(rows)  # type: ignore[call-overload]
        folded.append(len(rows))
        return taken.fold(rows, keys=keys)

    daimon = dataclasses.replace(taken, fold=counting)
    many = [{"item_ref": f"i-{n}", "status": "resolved", "ts": "2026-03-01T09:00:00Z"} for n in range(500)]
    kept = kept_of(many, daimon)
    watcher = _Jobs(daimon)
    for keys in (False, True):
        kept_fold_hooks.fold(watcher, kept.rows(), keys=keys)  # the first ask folds every winner
    appended = [{"item_ref": "i-7", "status": "reopened", "ts": "2026-03-01T09:00:05Z"},
                {"item_ref": "i-new", "status": "resolved", "ts": "2026-03-01T09:00:05Z"}]
    folded.clear()
    grown = grown_by(kept, appended, daimon)
    for keys in (False, True):
        answer = kept_fold_hooks.fold(watcher, grown.rows(), keys=keys)
        assert answer == taken.fold(many + appended, keys=keys)
    assert sum(folded) <= 20, folded  # the two refs' rows, not the 501 winners again and again


@dataclasses.dataclass
class _Jobs:
    """The part of `KeptFold` the fold hook reads: daimon's functions and no first open pending."""

    daimon: object
    pending: dict = dataclasses.field(default_factory=dict)


def test_a_fold_of_many_rows_hashes_each_ref_once(monkeypatch) -> None:
    """Where each ref's rows start is kept by the ref's hash (`ref_key`): a
    build over 200k rows of ~19k refs hashes each ref once, not each row."""
    from daimon_tui.store.judging import kept_fold_rows

    hashed: list[str] = []
    real = kept_fold_rows.ref_key

    def counting(ref: str) -> str:
        hashed.append(ref)
        return real(ref)

    monkeypatch.setattr(kept_fold_rows, "ref_key", counting)
    rows = [{"item_ref": f"i-{n % 10}", "status": "resolved", "ts": f"2026-03-01T09:00:{n % 60:02d}Z"}
            for n in range(1000)]
    kept = Kept(0, "").absorb(kept_fold.KEPT.daimon, rows, list(range(1000)), 1000, "")
    assert len(hashed) == 10, len(hashed)
    assert kept.refs == {real(f"i-{n}"): list(range(n, 1000, 10)) for n in range(10)}


# -- the rows a kept fold answers with (`KeptRows`), carried across appends

_ITEM_REFS = st.sampled_from(["i-1", "i-2", CORROBORATION_PREFIX + "i-1", CORROBORATION_PREFIX + "i-2", KEY_REF])


def _whole(kept: Kept) -> list:
    """`KeptRows` made from scratch: every winner, then every witness row that is no winner."""

    return list(KeptRows([row for _at, row in kept.winners.values()], [row for _at, row in kept.witnesses.values()]))


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(st.fixed_dictionaries({"item_ref": _ITEM_REFS, "status": _STATUSES, "ts": _STAMPS}),
                                 max_size=8), min_size=1, max_size=7),
       ask=st.lists(st.booleans(), max_size=7))
def test_the_kept_rows_after_each_batch_are_the_ones_made_from_scratch(batches: list[list[dict]],
                                                                         ask: list[bool]) -> None:
    kept = Kept(0, "", corroborations={})
    for n, batch in enumerate(batches):
        kept = grown_by(kept, batch)
        if n < len(ask) and not ask[n]:
            continue  # not asked after this batch: the next absorb carries what was asked before
        rows, whole = kept.rows(), _whole(kept)
        assert len(rows) == len(whole) and all(a is b for a, b in zip(rows, whole, strict=True))
        # the held witness rows in order, as the corroboration fold and the file read them (carried too)
        held = [row for _at, row in kept.witnesses.values()]
        assert len(rows.witnesses) == len(held) and all(a is b for a, b in zip(rows.witnesses, held, strict=True))
        assert rows.winners == [row for _at, row in kept.winners.values()]
        assert rows.witnesses == [row for _at, row in kept.witnesses.values()]
        copy = dataclasses.replace(kept, size=kept.size).rows()  # as the kept fold's own writer copies one
        assert len(copy) == len(whole) and all(a is b for a, b in zip(copy, whole, strict=True))


def test_after_an_append_the_kept_rows_are_not_sifted_again_row_by_row(monkeypatch) -> None:
    from daimon_tui.store.judging import kept_fold_rows

    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": CORROBORATION_PREFIX + f"i-{n}", "status": f"corroborated-by:S-{m}",
             "ts": f"2026-03-01T09:00:{m:02d}Z"} for n in range(100) for m in range(5)]
    kept = kept_of(many, daimon)
    kept.rows()  # asked once: made whole
    appended = [{"item_ref": CORROBORATION_PREFIX + "i-7", "status": "corroborated-by:S-9",
                 "ts": "2026-03-01T09:01:00Z"}]
    grown = grown_by(kept, appended, daimon)
    looked: list[object] = []

    def counting(row: object) -> int:
        looked.append(row)
        return id(row)

    monkeypatch.setattr(kept_fold_rows, "id", counting, raising=False)
    rows = grown.rows()
    assert len(looked) <= 10, len(looked)  # today: every witness row's id, 501 of them
    monkeypatch.undo()
    assert list(rows) == _whole(grown)


def test_a_grown_folds_rows_are_carried_not_read_again_from_every_held_row(monkeypatch) -> None:
    """`rows()` read each of ~117k held witness rows again at each of Health's
    moments; a fold grown from one whose rows were asked carries its list on."""
    from daimon_tui.store.judging import kept_fold_rows

    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": f"{CORROBORATION_PREFIX}i-{n}", "status": "corroborated-by:S-a",
             "ts": "2026-03-01T09:00:00Z"} for n in range(500)]
    kept = kept_of(many, daimon)
    kept.rows()
    appended = [{"item_ref": f"{CORROBORATION_PREFIX}i-3", "status": "corroborated-by:S-b",
                 "ts": "2026-03-01T09:00:05Z"}, {"item_ref": f"{CORROBORATION_PREFIX}i-4",
                                                 "status": "corroborated-by:S-a", "ts": "2026-03-01T09:00:05Z"}]
    grown = grown_by(kept, appended, daimon)
    read: list[object] = []
    real = kept_fold_rows._ROW
    monkeypatch.setattr(kept_fold_rows, "_ROW", lambda held: read.append(held) or real(held))
    rows = grown.rows()
    monkeypatch.undo()
    assert len(read) <= len(grown.winners) + 10, len(read)  # today: every witness row and every winner
    assert [row for _at, row in grown.witnesses.values()] == rows.witnesses
