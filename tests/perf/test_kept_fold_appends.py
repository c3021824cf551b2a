"""The kept fold of a ledger file appended to batch after batch (Health's
copies grow so at each moment), against daimon's own read and folds of the
whole file: the winners' fold (`fold_resolutions`, the forget walk's fold),
the forget walk's standing tombstones, the snapshot's forgotten ids
(`tombstone_refs`), the corroboration fold and the rows answered are the same after every batch,
over random rows of every kind, torn lines (a line completed by the next
batch, a line that is not a row), a new process (the fold from disk) and
appends the writer vouches for (`appended`: the kept bytes not hashed again)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api.public import store
from daimon_tui.store.judging import kept_fold, kept_fold_hooks
from daimon_tui.store.judging.kept_fold_rows import CORROBORATION_PREFIX, KeptRows

KEY_REF = store.new_key_ref()
_ROW = st.fixed_dictionaries({
    "item_ref": st.sampled_from(["i-1", "i-2", "i-3", CORROBORATION_PREFIX + "i-1", CORROBORATION_PREFIX + "i-2",
                                 KEY_REF]),
    "status": st.sampled_from(["resolved", "reopened", "reopened:unforget", "superseded-by:i-2",
                               "supersede-candidate", "corroborated-by:S-a", "corroborated-by:S-b",
                               "forgotten:k", "resolving-candidate"]),
    "ts": st.sampled_from(["2026-03-01T09:00:00Z", "2026-03-01T09:00:01Z", "2026-03-01T09:00:02Z",
                           "2026-02-30T00:00:00Z", ""]),
})
# a batch: its rows, then how it ends (whole lines / a torn last line the next batch completes / a line not a row)
_BATCH = st.tuples(st.lists(_ROW, min_size=1, max_size=6), st.sampled_from(["whole", "whole", "torn", "junk"]))


@pytest.fixture(autouse=True)
def keep_every_size(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(kept_fold, "KEEP_MIN_BYTES", 0)
    kept_fold.forget_held()
    yield
    kept_fold.forget_held()


def _same_as_daimons(ledger: Path) -> None:
    daimon = kept_fold.KEPT.daimon
    theirs = daimon.read(ledger)
    with kept_fold.active():
        ours = kept_fold.KEPT.read(ledger)
    assert (ours.health, ours.detail) == (theirs.health, theirs.detail)
    for keys in (True, False):
        assert kept_fold_hooks.fold(kept_fold.KEPT, ours.rows, keys=keys) == daimon.fold(theirs.rows, keys=keys)
    assert kept_fold_hooks.fold_corroborations(kept_fold.KEPT, ours.rows) == daimon.fold_corroborations(theirs.rows)
    assert kept_fold_hooks.standing_tombstones(kept_fold.KEPT, ours.rows) == daimon.standing_tombstones(theirs.rows)
    resolutions = kept_fold_hooks.fold(kept_fold.KEPT, ours.rows, keys=False)  # as the snapshot is handed it
    assert (kept_fold_hooks.tombstone_refs(kept_fold.KEPT, resolutions)
            == daimon.tombstone_refs(daimon.fold(theirs.rows, keys=False)))
    if isinstance(ours.rows, KeptRows) and ours.rows.kept is not None:
        whole = KeptRows(list(ours.rows.winners), list(ours.rows.witnesses))
        assert len(ours.rows) == len(whole) and all(a is b for a, b in zip(ours.rows, whole, strict=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(_BATCH, min_size=1, max_size=6), vouch=st.booleans(), restart=st.integers(0, 6))
def test_a_ledger_appended_batch_after_batch_folds_as_daimon_reads_it(
        tmp_path_factory: pytest.TempPathFactory, batches: list[tuple[list[dict], str]], vouch: bool,
        restart: int) -> None:
    kept_fold.forget_held()
    ledger = tmp_path_factory.mktemp("ledger") / "events.jsonl"
    ledger.write_bytes(b"")
    torn = b""
    for n, (rows, ending) in enumerate(batches):
        lines = [json.dumps(row).encode() for row in rows]
        data = torn + b"\n".join(lines) + b"\n"
        torn = b""
        if ending == "torn":  # half a line now, the rest with the next batch
            data, torn = data + lines[-1][:7], lines[-1][7:] + b"\n"
        elif ending == "junk":
            data += b"not a row\n"
        size = ledger.stat().st_size
        with ledger.open("ab") as handle:
            handle.write(data)
        if vouch:
            kept_fold.appended(ledger, size)  # as Health's pass does for its copies
        if n == restart:
            kept_fold.forget_held()  # a new process: the fold from disk, if one was written
        _same_as_daimons(ledger)
