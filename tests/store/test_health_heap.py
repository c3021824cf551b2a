"""Issue 42 point 2: a cold Health pass holds ~300k objects of the store's
read (the real ledger's rows, its kept fold, the pass's lines) for all of its
30 moments, and each full collection walked them again (~0.15 s, three times
a pass on the heavy store). While the pass reads its moments, what it held
before each moment is frozen (`gc.freeze`): a collection walks only what is
new. The collector is left as the pass found it, and in the app (collector
off: `ui.heap` collects at rest) nothing is frozen."""

from __future__ import annotations

import gc

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import health as health_module
from daimon_tui.store.read import reader


def _frozen_during_moments(project: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    real = health_module.briefing_counts

    def counting(briefing):  # type: ignore[no-untyped-def]
        seen.append(gc.get_freeze_count())
        return real(briefing)

    monkeypatch.setattr(health_module, "briefing_counts", counting)
    report = health_module.health(reader.resolve_project(str(project.project)))
    assert report.sessions
    return seen


def test_the_pass_freezes_what_it_holds_and_leaves_the_collector_as_found(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    assert gc.isenabled() and gc.get_freeze_count() == 0
    seen = _frozen_during_moments(demo_store, monkeypatch)
    assert seen and all(count > 0 for count in seen[:-1]), seen  # each moment's (now: its own read, not frozen)
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_with_the_collector_off_nothing_is_frozen(demo_store: demo.DemoStore,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    gc.disable()
    try:
        seen = _frozen_during_moments(demo_store, monkeypatch)
    finally:
        gc.enable()
    assert seen and not any(seen), seen
    assert gc.get_freeze_count() == 0
