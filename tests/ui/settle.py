"""Waiting for the app to be still: workers done, messages processed."""

from __future__ import annotations

from textual.pilot import Pilot


async def settle(pilot: Pilot, rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
