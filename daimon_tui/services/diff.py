"""`daimon-tui diff`: daimon's own `diff` answer between two retained
checkpoints, its bytes as daimon prints them (`store.read.daimon_diff`).
Read-only. The history view's change rows: `services.history`."""

from __future__ import annotations

import asyncio

from daimon_tui.models import ProjectRef
from daimon_tui.store.read.daimon_diff import DaimonDiff
from daimon_tui.store.read.daimon_diff import daimon_diff as _daimon_diff

__all__ = ["DaimonDiff", "daimon_diff"]


async def daimon_diff(project: ProjectRef, older: int | None = None, newer: int | None = None) -> DaimonDiff:
    """daimon's answer between generations `older` and `newer` (0 is the latest)."""
    # to_thread copies the context: daimon's ContextVar configuration follows the read
    return await asyncio.to_thread(_daimon_diff, project, older, newer)
