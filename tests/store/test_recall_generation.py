"""A search keystroke reuses recall's freshness check and daimon's forget walk
while daimon's files stand (`recall_generation.held`): it answers exactly what
`recall.query` answers, and the next keystroke after a write sees the write."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from daimon_briefing import recall, store, testing

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import recall_generation, search
from daimon_tui.store.write import writer
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

NIGHTLY = "Switch the nightly job to its own bucket prefix"
QUERIES = ("retry", "upload bucket", "nightly job", "retry budget", "Retry-After headers", "flag", "zebra")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often daimon's fingerprint and forget walk really ran."""
    calls = {"fingerprint": 0, "walk": 0}
    fingerprint, walk = recall._fingerprint, recall_generation._original_forgotten_walk

    def counted_fingerprint() -> str:
        calls["fingerprint"] += 1
        return fingerprint()

    def counted_walk() -> tuple[frozenset, frozenset]:
        calls["walk"] += 1
        return walk()

    monkeypatch.setattr(recall, "_fingerprint", counted_fingerprint)
    monkeypatch.setattr(recall_generation, "_original_forgotten_walk", counted_walk)
    recall_generation.forget()
    yield calls
    recall_generation.forget()


def _held(query: str, project: str) -> list[dict]:
    with recall_generation.held():
        return recall.query(query, project_dir=project, limit=50).rows


def _agrees(store_: demo.DemoStore) -> None:
    """Every query answers, held, exactly the rows in exactly the order daimon's own `recall.query` does."""
    project = str(store_.project)
    for query in QUERIES:
        assert _held(query, project) == recall.query(query, project_dir=project, limit=50).rows, query


def test_held_answers_what_recall_answers_and_pays_once(demo_store: demo.DemoStore, counted: dict) -> None:
    _agrees(demo_store)
    paid = dict(counted)
    for query in QUERIES:
        _held(query, str(demo_store.project))
    # Nothing changed: no fingerprint and no forget walk was paid again.
    assert counted == paid


def test_a_new_checkpoint_is_seen_by_the_next_keystroke(demo_store: demo.DemoStore, counted: dict) -> None:
    project = str(demo_store.project)
    assert _held("zebra", project) == []
    demo.seed(demo_store.project, testing.sample_checkpoint("Adopt the zebra rollout plan", topic="zebra"))
    got = _held("zebra", project)
    assert got and any("zebra rollout" in row["text"] for row in got)
    _agrees(demo_store)


def test_a_quarantine_is_seen_by_the_next_keystroke(demo_store: demo.DemoStore, counted: dict) -> None:
    project = str(demo_store.project)
    assert any(row["text"] == NIGHTLY for row in _held("nightly", project))
    result = writer.quarantine(ids(demo_store.project)[NIGHTLY], "never decided", ("issue:7",), project=ref(demo_store))
    assert result.outcome == "applied"
    assert not any(row["text"] == NIGHTLY for row in _held("nightly", project))
    _agrees(demo_store)


def test_a_forget_is_seen_by_the_next_keystroke(demo_store: demo.DemoStore, counted: dict) -> None:
    project = str(demo_store.project)
    item = ids(demo_store.project)[NIGHTLY]
    assert any(row["text"] == NIGHTLY for row in _held("nightly", project))
    assert writer.forget_item(item, item, "secret", project=ref(demo_store)).outcome == "applied"
    assert not any(row["text"] == NIGHTLY for row in _held("nightly", project))
    assert NIGHTLY not in {h.text for h in search.search(ref(demo_store), "nightly").hits}
    _agrees(demo_store)


def test_an_unproven_forget_walk_is_walked_again(demo_store: demo.DemoStore, counted: dict,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # daimon's own rule: a walk that found an events ledger unreadable is never
    # kept, so a repair shows at once even though no file moved.
    real = recall_generation._original_forgotten_walk
    unproven = {"walks": 0}

    def unreadable() -> tuple[frozenset, frozenset]:
        unproven["walks"] += 1
        return real()[0], frozenset({"some-bucket"})

    monkeypatch.setattr(recall_generation, "_original_forgotten_walk", unreadable)
    for _ in range(3):
        with recall_generation.held():
            assert store.forgotten_incomplete() == frozenset({"some-bucket"})
    assert unproven["walks"] == 3
    monkeypatch.setattr(recall_generation, "_original_forgotten_walk", real)
    with recall_generation.held():
        assert store.forgotten_incomplete() == frozenset()


def test_outside_held_daimon_runs_its_own_checks(demo_store: demo.DemoStore, counted: dict) -> None:
    project = str(demo_store.project)
    _held("retry", project)
    paid = counted["fingerprint"]
    recall.query("retry", project_dir=project)
    assert counted["fingerprint"] == paid + 1


def test_a_change_only_a_files_stat_shows_moves_the_generation(demo_store: demo.DemoStore, counted: dict) -> None:
    # A chmod moves a checkpoint's ctime and nothing else (no directory
    # changes); daimon's fingerprint sees it, so the generation must too.
    project = str(demo_store.project)
    _held("retry", project)
    paid = counted["fingerprint"]
    checkpoint = next(p for p in sorted(demo_store.checkpoint_dir.glob("*.json")))
    checkpoint.chmod(checkpoint.stat().st_mode ^ 0o004)
    _held("retry", project)
    assert counted["fingerprint"] > paid
    _agrees(demo_store)
