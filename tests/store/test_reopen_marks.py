"""Issue 40 point 7: the marks an undone resolve decides, by daimon's staleness
rule (a carried item's age runs from its newest verification; a reopen is one)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write.plans import reopen_marks
from tests.daimon_records import item_ids, project_ref
from tests.store.test_differential import START, WORLD_MOVES, build

QUESTION = "Should uploads retry on HTTP 429 with backoff?"  # carried, stored verbatim
NATIVE = "Keep the upload worker single-threaded for now"  # the last session's own


def test_a_stale_carried_item_comes_back_verbatim_a_fresh_one_as_it_was(sandbox_root: Path) -> None:
    with demo.sandboxed(sandbox_root, receipts=False) as store:
        build(store, WORLD_MOVES)
        ref, ids = project_ref(store), item_ids(store.project)
        assert reopen_marks(ref, ids[QUESTION], None) == {"mark_without_resolve": "stale",
                                                          "mark_after_reopen": "verbatim"}
        soon = (START + timedelta(days=1)).timestamp()  # within daimon's staleness budget of its capture
        assert reopen_marks(ref, ids[QUESTION], None, now=soon) == {"mark_without_resolve": "verbatim",
                                                                    "mark_after_reopen": "verbatim"}
        assert reopen_marks(ref, ids[NATIVE], None) == {}  # not carried: its mark does not move
        assert reopen_marks(ref, "o-000000000000", None) == {}
