"""Where the project's memory is heading, and which daimon reads it: the
Health view, `daimon-tui stats`, `daimon-tui doctor` and the safe-mode banner.

`health_as_read` gives the report as it fills (the columns at once, then one
point per session as it is read), for the view to draw each; `health_report`
is the whole report, for `stats` (through `asyncio.run`). The numbers are
read by `store.read.health` (daimon's own reader over the store as it stood
at each session)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from daimon_tui.domain.daimon_check import ContractCheck, DaimonCheck
from daimon_tui.models import ProjectRef

# model values the views show (frozen records of numbers; no store call behind them)
from daimon_tui.store.read.health import METRICS, NOW, HealthReport, SessionHealth

__all__ = ["METRICS", "NOW", "HealthReport", "SessionHealth", "daimon_check", "health_as_read", "health_report"]

_DONE = object()


async def health_as_read(project: ProjectRef, *, now: float | None = None) -> AsyncIterator[HealthReport]:
    """The report each time it grows: first every charted session with no
    number yet, then after each point is read; the last is the whole report.
    The reads run in a thread; a read that fails raises here, after what was read."""
    from daimon_tui.store.read.health import health_points

    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[object] = asyncio.Queue()

    def hand(item: object) -> None:
        # a closed loop (the view went away): nobody is waiting
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def read() -> None:
        try:
            for report in health_points(project, now=now):
                hand(report)
        finally:
            hand(_DONE)

    reading = asyncio.ensure_future(asyncio.to_thread(read))
    while (item := await queue.get()) is not _DONE:
        assert isinstance(item, HealthReport)
        yield item
    await reading  # the read's own exception, if it raised


async def health_report(project: ProjectRef, *, now: float | None = None) -> HealthReport:
    """The whole report: the newest retained sessions, oldest first, then now."""
    reports = [report async for report in health_as_read(project, now=now)]
    return reports[-1]  # the read gives the columns first: never empty


def daimon_check() -> DaimonCheck:
    """The installed daimon, our assumptions about it and the mode they
    decide (decided once per process, in memory: no read of the store)."""
    from daimon_tui.store.daimon_api import mode

    current = mode.current()
    return DaimonCheck(
        version=current.version,
        tested=current.tested,
        known_good=mode.KNOWN_GOOD,
        safe=current.safe,
        why=current.why() if current.safe else None,
        contracts=tuple(
            ContractCheck(id=o.contract.id, concern=o.contract.concern, where=o.contract.where,
                          assumption=o.contract.assumption, serves=o.contract.serves,
                          optional=o.contract.optional, holds=o.holds, problem=o.problem)
            for o in current.outcomes),
        off=current.off(),
        public_equivalents=current.public_equivalents(),
        banner=current.banner(),
    )
