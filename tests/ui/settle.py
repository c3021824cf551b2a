"""Waiting for the app to be still: workers done, messages processed."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

# A verb's worker waits on the person (its modals) and the live watcher runs
# for as long as the screen does: never wait for those.
INTERACTIVE_GROUPS = frozenset({"verb", "queue-verb", "briefing-live"})


async def settle(pilot: Pilot, rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()
        busy = [w for w in pilot.app.workers if w.group not in INTERACTIVE_GROUPS]
        # Not `wait_for_complete(busy)`: an empty list there means "all".
        await asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)
    await pilot.pause()
