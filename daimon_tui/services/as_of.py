"""The briefing, and the teammates' memory, as they stood at a moment: for
`daimon-tui brief --as-of TIME` and the history's as-of views.

TIME is an ISO-8601 moment (`2026-11-28T12:00:00Z`) or a session id (the
moment that session's checkpoint was created). daimon's own reader runs over
a read-only copy of the store cut at that moment (`store.asof`); the store
itself is only read.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

from daimon_tui.models import Briefing, Diagnostic, ProjectRef, WithheldItem
from daimon_tui.models.team import TeamView
from daimon_tui.store.read.asof import as_of
from daimon_tui.store.read.forgotten import first_forget
from daimon_tui.store.read.reader import load_briefing
from daimon_tui.store.read.team import load_team


def _forgotten_later(project: ProjectRef, entry: WithheldItem, moment: str) -> WithheldItem:
    """A forgotten row whose first tombstone came after `moment` is not
    called forgotten before the forget happened: its value stays removed
    (the copy keeps every tombstone, and the forget scrubbed every copy),
    and the row says when it was forgotten."""
    if entry.state != "forgotten" or not entry.id:
        return entry
    first = first_forget(project, entry.id)
    if first is None or first <= moment:
        return entry
    return entry.model_copy(update={"state": "withheld", "when": None, "forgotten_after": first})


async def briefing_as_of(project: ProjectRef, when: str | datetime) -> Briefing:
    """The historical briefing model, judged at `when` (stale marks and ages
    read that moment, not now). Raises ValueError for a TIME that is neither a
    time nor a session of the project."""
    # to_thread copies the context: daimon's ContextVar configuration follows the read
    return await asyncio.to_thread(_briefing_as_of, project, when)


def _briefing_as_of(project: ProjectRef, when: str | datetime) -> Briefing:
    with as_of(project, when) as cut:
        briefing = load_briefing(cut.project, now=cut.timestamp)
        withheld = tuple(_forgotten_later(cut.project, w, cut.when) for w in briefing.withheld)
    briefing = briefing.model_copy(update={"withheld": withheld})
    note = Diagnostic(
        level="info",
        source="daimon-tui",
        message=f"historical view as of {cut.label}: checkpoint {cut.session_id or '(none)'}, "
        f"{cut.rows_cut} ledger row(s) written later left out",
    )
    return briefing.model_copy(update={"notes": (note, *cut.diagnostics, *briefing.notes)})


async def team_as_of(project: ProjectRef, when: str) -> TeamView:
    """The teammates' memory as it stood on this machine at `when`: what had
    reached the team clone by then (its git history), judged by the ledgers then."""
    return await asyncio.to_thread(_team_as_of, project, when)


def _team_as_of(project: ProjectRef, when: str) -> TeamView:
    with as_of(project, when) as cut:
        team = load_team(cut.project, now=cut.timestamp, clones=False)
    note = Diagnostic(level="info", source="daimon-tui",
                      message=f"teammates as of {cut.label}: what had reached this machine's team clone by then")
    return team.model_copy(update={"notes": (note, *team.notes)})
