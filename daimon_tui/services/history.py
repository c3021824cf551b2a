"""A project's history: its retained sessions, daimon's change rows between
two of them, and one session's checkpoint judged like the briefing
(`store.read.history`). Read-only. The briefing as of a moment:
`services.as_of`; daimon's own `diff` answer: `services.diff`.

The value types it answers with are the model's (`models.history`): the views import them from there.
"""

from __future__ import annotations

import asyncio

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.models.history import DiffReport, SessionListing
from daimon_tui.store.child import judge_service
from daimon_tui.store.read import asof, reader

__all__ = [
    "as_of_refusal",
    "session_briefing",
    "session_changes",
    "sessions",
]


async def sessions(project: ProjectRef) -> SessionListing:
    """The project's retained sessions, newest first. The judging child folds
    (and keeps) the ledgers; if it fails, the same read in a thread here."""
    listing, _failure = await judge_service.read("sessions", project)
    return listing


async def session_changes(project: ProjectRef, older: str, newer: str) -> DiffReport:
    """daimon's change rows from session `older` to session `newer`, read by the judging child."""
    report, _failure = await judge_service.read("diff", project, older, newer)
    return report


async def session_briefing(project: ProjectRef, session_id: str, *, now: float | None = None) -> Briefing:
    """One retained session's checkpoint, judged by daimon like the briefing."""
    # to_thread copies the context: daimon's ContextVar configuration follows the read
    return await asyncio.to_thread(reader.load_briefing, project, now, session_id=session_id)



def as_of_refusal() -> str | None:
    """Why no as-of view can be made here (safe mode: the copy needs daimon's
    private names), or None. Asked before a moment is picked."""
    return asof.refusal()
