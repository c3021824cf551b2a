"""`daimon-tui brief --as-of TIME`: the briefing as it stood at a moment.

TIME is an ISO-8601 moment (`2026-11-28T12:00:00Z`) or a session id (the
moment that session's checkpoint was created). daimon's own reader runs over
a read-only copy of the store cut at that moment (`store.asof`); the store
itself is only read.
"""

from __future__ import annotations

from datetime import datetime

from daimon_tui.models import Briefing, Diagnostic, ProjectRef
from daimon_tui.store.read.asof import as_of
from daimon_tui.store.read.reader import load_briefing


def briefing_as_of(project: ProjectRef, when: str | datetime) -> Briefing:
    """The historical briefing model, judged at `when` (stale marks and ages
    read that moment, not now). Raises ValueError for a TIME that is neither a
    time nor a session of the project."""
    with as_of(project, when) as cut:
        briefing = load_briefing(cut.project, now=cut.timestamp)
    note = Diagnostic(
        level="info",
        source="daimon-tui",
        message=f"historical view as of {cut.label}: checkpoint {cut.session_id or '(none)'}, "
        f"{cut.rows_cut} ledger row(s) written later left out",
    )
    return briefing.model_copy(update={"notes": (note, *cut.diagnostics, *briefing.notes)})
