"""Containment and identity of daimon's ledger at the moment of writing: a
symlink swapped in after the preview, a file replaced during the write, and a
torn tail are refused or reported, never written through."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from daimon_briefing import store

from daimon_tui.domain import verbs
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans, writer
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"


def _ledger(store_: demo.DemoStore) -> Path:
    return store.ledger_file(str(store_.project), "events.jsonl")


def test_a_symlink_swapped_in_after_the_preview_is_refused(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    plan = plans.build_plan("resolve", (item,), p, verbs.ResolveInput(status="done"))
    assert plan.allowed  # the preview was shown on a clean store
    ledger = _ledger(demo_store)
    outside = tmp_path / "elsewhere.jsonl"
    shutil.copyfile(ledger, outside)
    before = outside.read_bytes()
    ledger.unlink()
    ledger.symlink_to(outside)
    [result] = writer.apply_plan(plan, project=p)
    assert result.outcome == "refused" and result.code == "ledger-outside-store"
    assert str(ledger) in result.message
    assert outside.read_bytes() == before


def test_a_ledger_replaced_during_the_write_is_a_failure_not_success(demo_store: demo.DemoStore,
                                                                     monkeypatch) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    plan = plans.build_plan("resolve", (item,), p, verbs.ResolveInput(status="done"))
    ledger = _ledger(demo_store)
    real = store.append_event

    def then_replaced(*args, **kwargs):
        ok = real(*args, **kwargs)
        copy = ledger.with_name("copy.jsonl")
        shutil.copyfile(ledger, copy)
        os.replace(copy, ledger)  # same bytes, another inode
        return ok

    monkeypatch.setattr(writer.store, "append_event", then_replaced)
    [result] = writer.apply_plan(plan, project=p)
    assert result.outcome == "failed" and result.code == "ledger-swapped"
    assert "replaced" in result.message and str(ledger) in result.message


def test_a_torn_ledger_tail_is_named_and_nothing_is_appended(demo_store: demo.DemoStore) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    ledger = _ledger(demo_store)
    with ledger.open("ab") as handle:
        handle.write(b'{"item_ref": "o-x", "sta')
    before = ledger.read_bytes()
    result = writer.resolve(item, "done", project=p)
    assert result.outcome == "refused" and result.code == "ledger-torn"
    assert str(ledger) in result.message and "torn" in result.message
    assert ledger.read_bytes() == before
