"""World-check a set of items: every claim in each item's words, probed
offline (`store.world.prober`), each result judged by `domain.worldcheck`.

Unlike daimon's brief-time world-check (one claim per item, five probes, 0.8 s
budget, `gh` over the network), this checks every claim of every item given,
reads only the local repository and files, and can be cancelled between items.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from daimon_tui.domain.claims import extract_claims
from daimon_tui.domain.worldcheck import ClaimResult, ItemResult, WorldReport
from daimon_tui.store.world.prober import Prober


async def check_items(
    root: Path,
    items: Sequence[tuple[str, str, str | None]],
    *,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] | None = None,
) -> WorldReport:
    """Probe every claim in `items` ((item_id, text, quote) each) against the
    project at `root`, in a thread. On cancellation the report holds the items
    finished so far and `cancelled=True`. `cancelled` and `progress` are called
    from that thread. If this call is cancelled, the thread stops after the
    item it is probing (a thread cannot be stopped mid-probe)."""
    stop = threading.Event()
    try:
        return await asyncio.to_thread(probe_items, root, items, cancelled=lambda: stop.is_set() or cancelled(),
                                       progress=progress)
    except asyncio.CancelledError:
        stop.set()
        raise


def probe_items(
    root: Path,
    items: Sequence[tuple[str, str, str | None]],
    *,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] | None = None,
) -> WorldReport:
    """`check_items`, blocking, in the caller's thread: for a caller that
    bounds the check with a thread of its own (the hostile-repository tests)."""
    prober = Prober(root)
    done: list[ItemResult] = []
    total = len(items)
    for index, (item_id, text, quote) in enumerate(items):
        if cancelled():
            return WorldReport(str(prober.root), tuple(done), prober.repo_error, cancelled=True)
        claims = extract_claims(text, quote)
        done.append(ItemResult(item_id, tuple(ClaimResult(c, prober.probe(c)) for c in claims)))
        if progress is not None:
            progress(index + 1, total)
    return WorldReport(str(prober.root), tuple(done), prober.repo_error)
