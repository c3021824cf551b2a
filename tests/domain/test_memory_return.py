"""Freed memory goes back to the system once per burst of work, after a rest."""

from __future__ import annotations

import pytest

from daimon_tui.domain import memory_return


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def trims(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(memory_return, "_trim", lambda: lambda pad: calls.append(pad) or 1)
    return calls


def test_given_back_once_after_the_rest_and_not_again_until_new_work(trims: list[int]) -> None:
    clock = Clock()
    rest = memory_return.AtRest(5.0, clock=clock)
    assert not rest.tick()  # nothing was done since the start: nothing owed
    rest.active()
    clock.now += 4.9
    assert not rest.tick()
    clock.now += 0.2
    assert rest.tick(busy=True) is False  # a read or a build still runs
    assert rest.tick()
    assert trims == [0]
    clock.now += 60
    assert not rest.tick()  # resting on: once is enough
    rest.active()
    clock.now += 5.0
    assert rest.tick()
    assert trims == [0, 0]


def test_glibcs_malloc_trim_is_what_gives_back() -> None:
    # This machine's C library is glibc (as every Linux CI image we run on):
    # the call is found, and a trim after freeing a large allocation runs.
    assert memory_return.can_give_back()
    junk = [bytes(4096) for _ in range(20_000)]
    del junk
    memory_return.give_back()
