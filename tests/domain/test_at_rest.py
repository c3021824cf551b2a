"""Freed memory goes back to the system once per burst of work, after a rest."""

from __future__ import annotations

from daimon_tui.domain.at_rest import AtRest


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_given_back_once_after_the_rest_and_not_again_until_new_work() -> None:
    trims: list[bool] = []
    clock = Clock()
    rest = AtRest(5.0, trims.append, clock=clock)
    assert not rest.tick()  # nothing was done since the start: nothing owed
    rest.active()
    clock.now += 4.9
    assert not rest.tick()
    clock.now += 0.2
    assert rest.tick(busy=True) is False  # a read or a build still runs
    assert rest.tick()
    assert trims == [True]
    clock.now += 60
    assert not rest.tick()  # resting on: once is enough
    rest.active()
    clock.now += 5.0
    assert rest.tick()
    assert trims == [True, True]
