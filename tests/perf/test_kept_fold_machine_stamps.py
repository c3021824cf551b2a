"""The briefing's `_machine_stamps` (its supersede and agent-claim stamps)
answered from the kept fold (issue 42 point 2): for a snapshot whose item fold
equals the item fold the kept fold last handed out, daimon's own function over
the refs whose latest event may be a candidate, not over every ref (it reads
ref by ref, and a ref whose status says no `candidate` stamps nothing). Any
other snapshot: daimon's own over all of it."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api import originals
from daimon_tui.store.daimon_api.public import briefing, capture, schema, store, view
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX
from tests.perf.kept_batches import asked_batches, grown_by, kept_of

_IDS = ["i-1", "i-2", "i-3"]
_REFS = st.sampled_from([*_IDS, CORROBORATION_PREFIX + "i-1", store.new_key_ref(), ""])
_STATUSES = st.sampled_from(["resolved", "reopened", "superseded-by:i-2", "supersede-candidate:i-abcdef12",
                             "Supersede-Candidate: i-0123456", "supersede-candidate:not an id", "supersede-candidate",
                             "resolving-candidate", "Resolving-Candidate", "forgotten:k", "corroborated-by:S-a", ""])
_STAMPS = st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:01Z", "2026-03-01T09:00:02Z",
                           "2026-02-30T00:00:00Z", "", None])
_ROW = st.fixed_dictionaries({"item_ref": _REFS, "status": _STATUSES, "ts": _STAMPS,
                              "source": st.sampled_from(["agent", "human", None]),
                              "note": st.sampled_from(["the quote", " ", None])})


def _checkpoint() -> dict:
    section, key = schema.ITEM_LISTS[0]
    return {section: {key: [{"id": ref, "text": ref} for ref in _IDS] + ["junk", {"text": "no id"}]}}


def _snap(resolutions: dict) -> view.Snapshot:
    return dataclasses.replace(view.Snapshot.empty(), resolutions=MappingProxyType(dict(resolutions)))


def _own(checkpoint: dict, snap: view.Snapshot) -> tuple:
    return originals.kept.get("daimon_briefing.briefing:_machine_stamps", briefing._machine_stamps)(checkpoint, snap)


@settings(max_examples=300, deadline=None)
@given(batches=st.lists(st.lists(_ROW, max_size=8), min_size=1, max_size=6), ask=st.lists(st.booleans(), max_size=6),
       touch=st.booleans())
def test_the_machine_stamps_after_each_batch_are_daimons_over_every_row(
        batches: list[list[dict]], ask: list[bool], touch: bool) -> None:
    kept_fold.install()
    daimon = kept_fold.KEPT.daimon
    for kept, seen in asked_batches(batches, ask):
        resolutions = store.fold_resolutions(kept.rows())
        want_map = daimon.fold(seen, keys=False)
        if touch:  # a snapshot whose fold is not the kept fold's is answered by daimon over all of it
            resolutions["i-3"] = want_map["i-3"] = {"item_ref": "i-3", "status": "supersede-candidate:i-fedcba9",
                                                    "ts": "2026-03-01T09:00:00Z"}
        assert briefing._machine_stamps(_checkpoint(), _snap(resolutions)) == _own(_checkpoint(), _snap(want_map))
    # a snapshot that is no kept fold's: daimon's own answer
    seen = [row for batch in batches for row in batch]  # every row, asked about last or not
    other = daimon.fold(seen, keys=False)
    assert briefing._machine_stamps(_checkpoint(), _snap(other)) == _own(_checkpoint(), _snap(other))


def test_after_an_append_daimon_reads_only_the_refs_that_may_be_candidates(monkeypatch) -> None:
    daimon = kept_fold.KEPT.daimon
    many = [{"item_ref": f"i-{n}", "status": "resolved", "ts": "2026-03-01T09:00:00Z"} for n in range(500)]
    many += [{"item_ref": "i-3", "status": "supersede-candidate:i-abcdef12", "ts": "2026-03-01T09:00:01Z"}]
    kept = kept_of(many, daimon)
    kept_fold.install()  # the briefing calls `briefing._machine_stamps`: the kept fold's once installed
    briefing._machine_stamps(_checkpoint(), _snap(store.fold_resolutions(kept.rows())))  # finds the candidates
    appended = [{"item_ref": "i-2", "status": "resolving-candidate", "source": "agent", "note": "the quote",
                 "ts": "2026-03-01T09:00:05Z"}]
    grown = grown_by(kept, appended, daimon)
    snap = _snap(store.fold_resolutions(grown.rows()))
    read: list[int] = []
    real = capture._pending_agent_candidates

    def counting(events: dict) -> dict:
        read.append(len(events))
        return real(events)

    monkeypatch.setattr(capture, "_pending_agent_candidates", counting)
    answer = briefing._machine_stamps(_checkpoint(), snap)
    monkeypatch.undo()
    assert read and read[0] <= 10, read  # today: every one of the 500 refs
    assert answer == _own(_checkpoint(), _snap(daimon.fold(many + appended, keys=False)))
    assert [item["id"] for _key, item, _evt in answer[1]] == ["i-3"]
