"""Search what daimon remembers: recall's hits, each with what it is now
(`store.read.search`). Read-only. The Search view asks the judging child
(it keeps daimon's folded verdicts and the warm recall index between
keystrokes); `daimon-tui search` prints the same `SearchResult`
(`models.search`).

The judging child's client (and with it pydantic) is imported when the view
first asks.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from daimon_tui.models.search import SearchResult

if TYPE_CHECKING:  # the log (and pydantic with it) only for the annotations: see above
    from daimon_tui.models import ProjectRef
    from daimon_tui.store.action_log import ActionLog  # the app's log, which a view holds only to hand it here

__all__ = ["log_refused", "prepare", "search", "search_here"]


async def prepare(project: ProjectRef) -> SearchResult:
    """Pay daimon's cold costs (index freshness, the verdict fold) once, in
    the judging child, while the person types."""
    from daimon_tui.store.child import judge_service

    warmup, _failure = await judge_service.read("search-prepare", project)
    return warmup


async def search(project: ProjectRef, text: str, all_projects: bool, team: bool,
                 now: float | None) -> tuple[SearchResult, str | None]:
    """The hits for `text`, and, when the judging child failed and the search
    ran in this process instead, why (for the view to say)."""
    from daimon_tui.store.child import judge_service

    result, failure = await judge_service.read("search", project, text, all_projects, team, now)
    return result, (None if failure is None else str(failure))


async def log_refused(log: ActionLog, *, project: str, verb: str, item_ids: tuple[str, ...], reason: str) -> None:
    """Log a verb refused on hits that are not live in this project's briefing."""
    await asyncio.to_thread(log.record, project=project, verb=verb, outcome="refused", item_ids=item_ids,
                            reason=reason)


async def search_here(project: ProjectRef, text: str, *, all_projects: bool, by_slug: bool,
                      limit: int) -> SearchResult:
    """`daimon-tui search`: the hits for `text`, read in this process, with
    how many there are in all (`total`) beside the first `limit`."""
    from daimon_tui.store.read import search as read

    # to_thread copies the context: daimon's ContextVar configuration follows the read
    return await asyncio.to_thread(read.search, project, text, all_projects=all_projects, by_slug=by_slug,
                                   limit=limit, count=True)
