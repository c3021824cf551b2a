"""The cyclic collector waits for the keyboard to rest, and the app leaves
the interpreter's collector as it found it."""

from __future__ import annotations

import gc
import time

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui import heap
from daimon_tui.ui.app import DaimonTUI
from tests.ui.settle import settle


def _passes(action) -> int:
    seen: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(count)
    try:
        action()
    finally:
        gc.callbacks.remove(count)
    return len(seen)


def test_no_collection_while_keys_arrive_one_once_they_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    collector = heap.IdleCollector()
    collector.start()
    try:
        junk = [[object()] for _ in range(5000)]  # enough new objects to be worth a pass
        collector.touch()
        assert _passes(collector.tick) == 0
        later = time.monotonic() + heap.REST_S + 1
        monkeypatch.setattr(heap.time, "monotonic", lambda: later)
        assert _passes(collector.tick) == 1
        del junk
    finally:
        collector.stop()
    assert gc.isenabled()


async def test_the_app_pauses_automatic_collection_and_restores_it(demo_store: demo.DemoStore) -> None:
    assert gc.isenabled()
    app = DaimonTUI(project_path=str(demo_store.project), now=demo.DEMO_NOW.timestamp())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # the confirmed briefing's heap was frozen
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_freed_memory_goes_back_once_the_keyboard_and_loads_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[bool] = []
    monkeypatch.setattr(heap.memory, "give_back", lambda collect=True: given.append(collect) or True)
    now = [time.monotonic()]
    monkeypatch.setattr(heap.time, "monotonic", lambda: now[0])
    collector = heap.IdleCollector()
    collector.start()
    try:
        collector.touch()
        now[0] += heap.REST_S + 0.1
        collector.tick()
        assert given == []  # rested for the collector, not yet for the give-back
        now[0] += heap.GIVE_BACK_AFTER_S
        collector.tick()
        collector.tick()
        assert len(given) == 1
        collector.settle()  # a load (a verb's reload, a live update) is work too
        now[0] += heap.GIVE_BACK_AFTER_S + 0.1
        collector.tick()
        assert len(given) == 2
    finally:
        collector.stop()


def test_a_pass_before_the_first_load_skips_the_heap_the_app_started_with() -> None:
    """Before the first load settles, each idle pass scanned every object of the start (every module
    imported, ~0.1 s a pass) between the app's mount and its first frame; now only what came since."""
    started_with = [object()]  # a tracked container alive before the app starts, as every module is
    collector = heap.IdleCollector()
    collector.start()
    try:
        scanned = [o for generation in range(3) for o in gc.get_objects(generation)]
        assert not any(o is started_with for o in scanned)
    finally:
        collector.stop()
    assert any(o is started_with for generation in range(3) for o in gc.get_objects(generation))  # given back
