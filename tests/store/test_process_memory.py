"""Freed memory goes back to the system: glibc's `malloc_trim`, found once."""

from __future__ import annotations

import pytest

from daimon_tui.store import process_memory


def test_glibcs_malloc_trim_is_what_gives_back() -> None:
    # This machine's C library is glibc (as every Linux CI image we run on):
    # the call is found, and a trim after freeing a large allocation runs.
    assert process_memory.can_give_back()
    junk = [bytes(4096) for _ in range(20_000)]
    del junk
    process_memory.give_back()


def test_a_give_back_collects_unless_told_it_just_did(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    collected: list[bool] = []
    monkeypatch.setattr(process_memory, "_trim", lambda: lambda pad: trims.append(pad) or 1)
    monkeypatch.setattr(process_memory.gc, "collect", lambda: collected.append(True) or 0)
    assert process_memory.give_back() and process_memory.give_back(collect=False)
    assert trims == [0, 0] and collected == [True]
