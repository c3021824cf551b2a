"""What the briefing view asks of daimon's store, and nothing of the screen:
the provisional first paint, daimon's confirmation (in the judging child), the
audit's receipt count. The screen's load worker decides what to show."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.child import first_paint, judge_service
from daimon_tui.store.judging import verdict_cache


def child_started() -> bool:
    """The judging child runs already (started before Textual): asking it costs the first frame nothing."""
    return judge_service.service().started()


async def provisional(project: ProjectRef, now: float | None) -> Briefing | None:
    """From the pointer, the trust ledger and the verdict cache (no events fold); None: the confirmation answers."""
    try:
        return await asyncio.to_thread(first_paint.provisional_briefing, project, now)
    except Exception:  # the confirming read still answers
        return None


async def kept_receipt_failures(project: ProjectRef) -> int:
    """The audit's last count, while the session files are as it judged them."""
    return await asyncio.to_thread(verdict_cache.kept_receipt_failures, project.slug)


async def _asked(pending: asyncio.Future[Briefing]) -> Briefing | None:
    """The confirmation the app asked for before the screen opened; None if it failed (it is asked again)."""
    if pending.cancelled():
        return None
    try:
        return await asyncio.shield(pending)
    except Exception:
        return None


async def confirmation(project: ProjectRef, now: float | None, pending: asyncio.Future[Briefing] | None,
                       shown: Callable[[Briefing], object]) -> Briefing:
    """daimon's full read, in the judging child (the fold neither holds our GIL nor adds to our memory)."""
    briefing = await _asked(pending) if pending is not None else None
    if briefing is None:
        briefing = await first_paint.confirm_async(project, now, shown=shown)
    return briefing


async def receipt_failures(project: ProjectRef, audited: tuple | None) -> tuple[tuple | None, int] | None:
    """Every session's receipt, checked natively by the judging child over the
    snapshot it holds: (the session files judged, the failures), or None when
    the files are as `audited` (a ledger write leaves them, and their count, as they were)."""
    stamp = await asyncio.to_thread(paths.session_files_stamp)
    if stamp is not None and stamp == audited:
        return None
    report, _failure = await judge_service.read("audit", project)
    await asyncio.to_thread(verdict_cache.save_receipts, project.slug, stamp, report.receipt_failures)
    return stamp, report.receipt_failures
