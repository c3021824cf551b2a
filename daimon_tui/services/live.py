"""The briefing's live changes: daimon's bucket watched, the rows appended to
its events ledger read as they land, and applied at once to the briefing on
screen (provisional until daimon confirms; `store.judging.live`)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from daimon_tui.models import Briefing

if TYPE_CHECKING:
    from daimon_tui.store.judging.live import Change


@dataclass(frozen=True, slots=True)
class BucketChange:
    """One burst of changes in the bucket: the files' names, the events rows
    appended (None: the ledger was rewritten, not appended to), and how far the
    events ledger has been read."""

    names: frozenset[str]
    rows: list[dict] | None
    offset: int


def events_size(slug: str) -> int | None:
    """The events ledger's size now (a confirmation starting reads up to here), or None."""
    from daimon_tui.store import paths  # daimon: after the first frame

    bucket = paths.bucket_dir(slug)
    if bucket is None:
        return None
    try:
        return os.stat(bucket / "events.jsonl").st_size
    except OSError:
        return None


async def bucket_changes(slug: str, on_fallback: Callable[[str], None]) -> AsyncIterator[BucketChange]:
    """Each burst of changes in the project's bucket (hidden files left out),
    until the watch is cancelled; nothing for a bucket that is not there."""
    from daimon_tui.store import paths  # daimon: after the first frame

    bucket = paths.bucket_dir(slug)
    if bucket is None or not bucket.is_dir():
        return
    from daimon_tui.store.judging import live

    tail = live.EventsTail(bucket / "events.jsonl")
    await asyncio.to_thread(tail.prime)
    async for names in live.watch(bucket, on_fallback=on_fallback):
        names = {n for n in names if not n.startswith(".")}
        if not names:
            continue
        rows = await asyncio.to_thread(tail.appended) if "events.jsonl" in names else []
        yield BucketChange(frozenset(names), rows, tail.offset)


def apply_events(briefing: Briefing, rows: list[dict]) -> Change | None:
    """The briefing with the appended rows applied (and what they changed), or None when none applies."""
    from daimon_tui.store.judging import live

    return live.apply_events(briefing, rows)
