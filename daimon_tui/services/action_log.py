"""Our action log, for the views: the log they hold, what the Log view reads
(its lines and their hash chain), what the review's summary reads (`store.action_log`).
The quiet moment before a process ends at once: `process_end`.

A view holds an `ActionLog` only to hand it back to a service (this module,
`verbs`, `team`, `session`); it never calls into it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from daimon_tui.domain.action_entries import ActionEntry, ChainReport, LogLine
from daimon_tui.store.action_log import ActionLog

__all__ = ["ActionLog", "entries", "find", "lines_and_chain", "location", "log_problem", "open_log", "read_entries"]


def open_log() -> ActionLog:
    """The log at its usual place (or `DAIMON_TUI_LOG`'s)."""
    return ActionLog()


def location(log: ActionLog) -> Path:
    return log.path


async def find(log: ActionLog, action_id: str) -> ActionEntry | None:
    """The logged action with this id (its outcome line if it has one)."""
    return await asyncio.to_thread(log.find, action_id)


async def lines_and_chain(log: ActionLog) -> tuple[list[LogLine], ChainReport]:
    """Every line, and whether their hash chain holds (the Log view's one read)."""
    return await asyncio.to_thread(lambda: (log.lines(), log.verify_chain()))


def entries(log: ActionLog) -> list[ActionEntry]:
    """Every action logged, read now (a caller already off the UI thread, or a test)."""
    return log.entries()


async def read_entries(log: ActionLog) -> list[ActionEntry]:
    """Every action logged. Raises OSError for a log that cannot be read."""
    return await asyncio.to_thread(log.entries)


async def log_problem(log: ActionLog) -> str | None:
    """Why the log cannot take an intent now (read-only, full disk, a broken head), or None:
    said in a write's preview, before `y`."""
    return await asyncio.to_thread(log.probe)
