"""The project index (`P`, and the screen shown when the current project has
no checkpoint): every project daimon has a checkpoint for, quick from the
bucket envelopes, then confirmed by daimon's listing; and each project's
trend, items per retained session (`store.read.project_index`, `history`)."""

from __future__ import annotations

import asyncio

from daimon_tui.models import Diagnostic, ProjectRef, ProjectSummary
from daimon_tui.store.child import judge_service
from daimon_tui.store.read import project_index, reader

# the item counts a session's trend adds up (daimon's trust classes)
_TREND_CLASSES = ("verbatim", "inferred", "untagged")


async def quick_projects() -> tuple[tuple[ProjectSummary, ...], tuple[Diagnostic, ...]]:
    """The envelopes and the counts of the last read (no ledger fold, fast)."""
    return await asyncio.to_thread(project_index.quick_projects)


async def project_listing(current: ProjectRef | None) -> tuple[tuple[ProjectSummary, ...], tuple[Diagnostic, ...]]:
    """daimon's own listing, which confirms counts and topics: by the judging
    child when a project is open (it holds the forget walk and that project's
    fold already), else read here."""
    if current is not None:
        listing, _failure = await judge_service.read("projects", current)
    else:
        listing = await asyncio.to_thread(project_index.listing, None)
    return listing.rows, listing.notes


async def session_trend(slug: str) -> tuple[int, ...]:
    """Items per retained session of the project `slug`, oldest first (daimon's
    session listing). Raises what the read raises: the caller keeps its dash."""
    from daimon_tui.store.read.history import sessions

    project = await asyncio.to_thread(reader.resolve_project, None, slug)
    listing = await asyncio.to_thread(sessions, project)
    return tuple(sum(r.counts.get(k, 0) for k in _TREND_CLASSES) for r in reversed(listing.rows))
