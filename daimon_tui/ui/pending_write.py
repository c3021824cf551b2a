"""A confirmed write that has not come back yet, on screen.

The write is carried out by the judging child; a child busy with a long
fold, or hung, leaves the person waiting with nothing to see. After a short
moment the pending write is named (what, on which items, since when) and
how long the app waits before it settles it from daimon's ledgers.
"""

from __future__ import annotations

import asyncio
from typing import Any

from daimon_tui.services import verbs

# Below this a write is simply quick: nothing is shown.
SHOW_AFTER_S = 2.0


def describe(title: str, items: tuple[str, ...], since: str) -> str:
    named = ", ".join(items[:4]) + (f" and {len(items) - 4} more" if len(items) > 4 else "")
    return (f"{title} of {named or 'the items'} is being written, since {since} (intent logged); "
            f"if the judging child has not answered after {verbs.write_wait_s():.0f} s, the app settles "
            "it from daimon's ledgers and says what happened")


async def shown_after(app: Any, title: str, items: tuple[str, ...], since: str) -> None:
    """Named once the write has taken SHOW_AFTER_S (cancelled when it returns)."""
    await asyncio.sleep(SHOW_AFTER_S)
    app.notify(describe(title, items, since), title="write pending", timeout=verbs.write_wait_s())
