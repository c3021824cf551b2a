"""Waiting for the app to be still: workers done, messages processed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

# A verb's worker waits on the person (its modals) and the live watcher runs
# (the bucket, the team copy) for as long as the screen does: never wait for those.
INTERACTIVE_GROUPS = frozenset({"verb", "queue-verb", "briefing-live", "team-live"})


async def settle(pilot: Pilot, rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()
        busy = [w for w in pilot.app.workers if w.group not in INTERACTIVE_GROUPS]
        # Not `wait_for_complete(busy)`: an empty list there means "all".
        await asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)
    await pilot.pause()


async def press_settled(pilot: Pilot, *keys: str) -> None:
    """Press the keys, then let the app settle (a view opened, a filter applied)."""
    await pilot.press(*keys)
    await settle(pilot)


async def wait_until(pilot: Pilot, check: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Poll `check` between pauses; a condition never reached is a failure, not a hang."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"not reached within {timeout}s: {what or check}")
        await pilot.pause(0.02)


async def press_until(pilot: Pilot, key: str, check: Callable[[], bool], limit: int = 50) -> None:
    """Press `key` until `check` holds, at most `limit` times."""
    for _ in range(limit):
        if check():
            return
        await pilot.press(key)
    assert check(), f"{key!r} pressed {limit} times without reaching the condition"
