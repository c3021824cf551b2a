"""One daimon snapshot per bucket and file state: shared while the ledgers
hold, replaced (never kept alongside) once they change; and the judging child
walks daimon's machine-wide forget set before it folds a bucket, so the two
reads of the largest ledger never overlap in memory."""

from __future__ import annotations

import pytest
from daimon_briefing import store, view
from daimon_briefing.surfaces import Writer

from daimon_tui.store.child import judge_child
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold, snapshot_share
from daimon_tui.store.read import reader


@pytest.fixture(autouse=True)
def child_state_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """`judge_child._warm`, run here in the test's process, puts it in the child's
    state (a kept fold's first build deferred to idle time); a later test in the
    same run (a headless report) must start as its own process does."""
    monkeypatch.setattr(kept_fold.KEPT, "deferring", kept_fold.KEPT.deferring)


def test_a_snapshot_is_shared_until_a_ledger_changes_and_the_old_one_is_dropped(
    demo_store: demo.DemoStore,
) -> None:
    project = reader.resolve_project(str(demo_store.project))
    snapshot_share.install()
    first = view.snapshot(project.target)
    assert view.snapshot(project.target) is first
    assert snapshot_share.cached(project.target) is first
    item = reader.load_briefing(project, demo.DEMO_NOW.timestamp()).items()[0].id
    assert store.append_event(item, "resolved", note="t", source="ui", project_dir=project.target,
                              writer=Writer.HUMAN)
    assert snapshot_share.cached(project.target) is None  # outdated: never served
    snapshot_share.drop_stale(project.target)
    assert not snapshot_share._memo  # and no longer held
    second = view.snapshot(project.target)
    assert second is not first and len(snapshot_share._memo) == 1


def test_the_child_walks_the_forget_set_before_it_folds_the_bucket(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = reader.resolve_project(str(demo_store.project))
    calls: list[str] = []
    machine_sets, fold = view.machine_sets, snapshot_share._original
    monkeypatch.setattr(view, "machine_sets", lambda: calls.append("forget-walk") or machine_sets())
    monkeypatch.setattr(snapshot_share, "_original", lambda p: calls.append("fold") or fold(p))
    judge_child._warm({"project": project.model_dump(mode="json")})
    # (the fold asks for the walk again inside: daimon's memo answers it)
    assert calls[:2] == ["forget-walk", "fold"]
    calls.clear()
    judge_child._warm({"project": project.model_dump(mode="json")})
    assert calls == ["forget-walk"]  # the fold is shared; daimon memoizes the walk itself


def test_the_child_never_folds_a_bucket_holding_a_fifo(demo_store: demo.DemoStore,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    project = reader.resolve_project(str(demo_store.project))
    bucket = view._bucket(project.target)
    assert bucket is not None
    os.mkfifo(bucket / "amendments.jsonl")
    folded: list[str] = []
    monkeypatch.setattr(snapshot_share, "_original", lambda p: folded.append("fold"))
    judge_child._warm({"project": project.model_dump(mode="json")})  # returns; never blocks on the FIFO
    assert folded == []
