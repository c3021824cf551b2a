"""Where a project's memory is heading: numbers per retained session.

Each session's numbers are the briefing as it stood when that session's
checkpoint was written, read by daimon's own reader over the store cut at
that moment (`asof`): items per trust class (the mark daimon shows), carried
and stale, withheld, corroborated, contradictions, quarantines; and the
session receipts that fail today among the sessions retained by then
(daimon's receipt check, through our audit). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from daimon_tui.domain.review import CONTRADICTIONS
from daimon_tui.domain.withheld import withheld_count
from daimon_tui.models import Briefing, Diagnostic, Frozen, ProjectRef

# Sessions charted: the newest this many (each is one read of the store as it stood).
SESSIONS_CHARTED = 30

# (key, label) in the order the Health view and `stats` show them.
METRICS: tuple[tuple[str, str], ...] = (
    ("items", "items"),
    ("verbatim", "✓ verbatim"),
    ("inferred", "~ inferred"),
    ("untagged", "? untagged"),
    ("unverified", "⚠ unverified (verbatim)"),
    ("stale", "? stale"),
    ("carried", "⟳ carried"),
    ("withheld", "withheld"),
    ("corroborated", "≈ corroborated"),
    ("contradictions", "contradictions"),
    ("quarantines", "quarantines"),
    ("failing_receipts", "failing receipts"),
)


class SessionHealth(Frozen):
    session_id: str
    created: str | None = None
    counts: dict[str, int] = Field(default_factory=dict)


class HealthReport(Frozen):
    project: ProjectRef
    sessions: tuple[SessionHealth, ...] = ()  # oldest first
    retained: int = 0
    diagnostics: tuple[Diagnostic, ...] = ()

    def series(self, key: str) -> list[int]:
        return [s.counts.get(key, 0) for s in self.sessions]


def briefing_counts(briefing: Briefing) -> dict[str, int]:
    """The numbers of one briefing as daimon judged it."""
    items = briefing.items()
    marks = {m: sum(1 for i in items if i.mark == m)
             for m in ("verbatim", "inferred", "untagged", "unverified-verbatim", "stale")}
    contradicted = {i.id or str(n) for n, i in enumerate(items)
                    if i.section == "contradictions" or any(b.kind in CONTRADICTIONS for b in i.badges)}
    return {
        "items": len(items),
        "verbatim": marks["verbatim"],
        "inferred": marks["inferred"],
        "untagged": marks["untagged"],
        "unverified": marks["unverified-verbatim"],
        "stale": marks["stale"],
        "carried": sum(1 for i in items if i.has_badge("carried")),
        "withheld": withheld_count(briefing),  # one definition: domain/withheld.py
        "corroborated": sum(1 for i in items if i.has_badge("corroborated")),
        "contradictions": len(contradicted),
        "quarantines": sum(1 for w in briefing.withheld if w.state == "quarantined"),
    }


def _failing_by_session(project: ProjectRef) -> tuple[dict[str, tuple[str | None, bool]], list[Diagnostic]]:
    from daimon_tui.store.read.audit import load_audit

    try:
        report = load_audit(project)
    except Exception as exc:  # the other numbers still stand
        return {}, [Diagnostic(level="warning", message=f"receipts could not be checked ({type(exc).__name__})")]
    return {r.session_id: (r.created, r.failed) for r in report.receipts}, []


NOW = "now"


def _now(project: ProjectRef, receipts: dict[str, tuple[str | None, bool]], notes: list[Diagnostic],
         now: float | None) -> SessionHealth:
    """The last point: the briefing as daimon reads it now (verbs and
    world-checks since the latest session included)."""
    from daimon_tui.store.read.reader import load_briefing

    try:
        counts = briefing_counts(load_briefing(project, now))
    except Exception as exc:
        notes.append(Diagnostic(message=f"the current briefing could not be read ({type(exc).__name__})"))
        counts = {}
    counts["failing_receipts"] = sum(1 for _created, failed in receipts.values() if failed)
    return SessionHealth(session_id=NOW, counts=counts)


def health(project: ProjectRef, *, limit: int = SESSIONS_CHARTED, now: float | None = None,
           progress: Callable[[int, int], None] | None = None) -> HealthReport:
    """Numbers for the newest `limit` retained sessions, oldest first, then
    now (`now`: the moment stale marks are judged at; None: the clock)."""
    from daimon_tui.store import paths
    from daimon_tui.store.daimon_api.mode import Unavailable
    from daimon_tui.store.read.asof import as_of
    from daimon_tui.store.read.history import sessions
    from daimon_tui.store.read.reader import load_briefing

    refused = paths.refusals(project.slug)
    if refused:  # the one rule: nothing is read through a link out of the store (each named)
        return HealthReport(project=project, diagnostics=tuple(
            Diagnostic(level="error", source="daimon-tui", message=m) for m in refused))
    listing = sessions(project)
    notes = list(listing.diagnostics)
    rows = list(reversed(listing.rows[:limit]))
    receipts, receipt_notes = _failing_by_session(project)
    notes.extend(receipt_notes)
    out = []
    for n, row in enumerate(rows):
        try:
            with as_of(project, row.session_id) as cut:  # daimon's reader over the store as it stood then
                briefing = load_briefing(cut.project, now=cut.timestamp)
        except Unavailable as exc:  # safe mode: no session can be read as of then
            notes.append(Diagnostic(level="info", message=str(exc)))
            break
        except Exception as exc:
            notes.append(Diagnostic(message=f"session {row.session_id} could not be read as of then "
                                            f"({type(exc).__name__})"))
            continue
        counts = briefing_counts(briefing)
        # a session's receipt counts from its own session on
        counts["failing_receipts"] = sum(
            1 for sid, (created, failed) in receipts.items()
            if failed and (sid == row.session_id or (created or "") <= (row.created or "")))
        out.append(SessionHealth(session_id=row.session_id, created=row.created, counts=counts))
        if progress is not None:
            progress(n + 1, len(rows) + 1)
    out.append(_now(project, receipts, notes, now))
    return HealthReport(project=project, sessions=tuple(out), retained=len(listing.rows), diagnostics=tuple(notes))
