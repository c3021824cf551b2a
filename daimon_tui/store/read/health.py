"""Where a project's memory is heading: numbers per retained session.

Each session's numbers are the briefing as it stood when that session's
checkpoint was written, read by daimon's own reader over the store cut at
that moment (`asof`): items per trust class (the mark daimon shows), carried
and stale, withheld, corroborated, contradictions, quarantines; and the
session receipts that fail today among the sessions retained by then
(daimon's receipt check, through our audit). Nothing here writes.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from daimon_tui.domain.review import CONTRADICTIONS
from daimon_tui.domain.withheld import withheld_count
from daimon_tui.models import Briefing, Diagnostic, ProjectRef
from daimon_tui.models.records import Record

if TYPE_CHECKING:
    from daimon_tui.store.read.asof_pass import LedgerPass
    from daimon_tui.store.read.health_kept import KeptNumbers

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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SessionHealth(Record):
    """One point; a number not in `counts` is not known (not read yet, or unreadable)."""

    session_id: str
    created: str | None = None
    counts: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class HealthReport(Record):
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
        counts = briefing_counts(load_briefing(project, now, split=False))
    except Exception as exc:
        notes.append(Diagnostic(message=f"the current briefing could not be read ({type(exc).__name__})"))
        counts = {}
    counts["failing_receipts"] = sum(1 for _created, failed in receipts.values() if failed)
    return SessionHealth(session_id=NOW, counts=counts)


def _kept(project: ProjectRef, created: dict[str, str | None]) -> KeptNumbers:
    """The numbers kept from earlier reads (none in safe mode, or when they cannot be checked)."""
    from daimon_tui.store.read import asof, asof_moments, asof_pass, history
    from daimon_tui.store.read.health_kept import KeptNumbers, kept_numbers

    if asof.refusal() is None:
        try:  # the numbers come from this module's counts over asof's copy (cut by its pass, at the moments
            # asof_moments works out), the listing from history's reader: a change of any keeps nothing
            return kept_numbers(project.slug, created, (Path(__file__), *(Path(str(m.__file__)) for m in (
                asof, asof_moments, asof_pass, history))))
        except Exception:  # a kept number that cannot be checked is read again
            pass
    return KeptNumbers(project.slug, {}, {}, {}, None)


def _fold_of_copy(dst: Path, data: bytes, rows: list[dict]) -> None:
    """The kept fold of a copy written whole from the real events ledger,
    made from daimon's rows of that ledger (`LedgerPass.offer`: the copy's
    lines are some of its lines, each a row): what daimon's full read of the
    copy would keep, without that read (in memory only, like every fold of the pass)."""
    from daimon_tui.store.daimon_api.public import Health, jsonl
    from daimon_tui.store.judging import kept_fold, kept_fold_build
    from daimon_tui.store.judging.kept_fold_ledger import stat_key

    if len(data) < kept_fold.KEEP_MIN_BYTES or not data.endswith(b"\n"):
        return  # daimon's own read answers a small copy (the kept fold is not asked)
    kept_fold_build.build(kept_fold.KEPT, os.path.abspath(dst), data, jsonl.Read(Health.OK, rows),
                          stat_key(os.stat(dst)), persist=False)


def _heap_held() -> Generator[None, None, None]:
    """Each `send` freezes the heap (`gc.freeze`: a full collection no longer
    walks it), `close` gives it back to the collector. The pass holds ~300k
    objects of the store's read through all its moments (a full collection
    walked them ~0.15 s, three times a pass on the heavy store). Only where
    the collector runs and nothing else froze (a report): in the app the
    collector is off and `ui.heap` freezes and collects at rest."""
    if not gc.isenabled() or gc.get_freeze_count():
        while True:
            yield
    try:
        while True:
            gc.freeze()
            yield
    finally:
        gc.unfreeze()


def health_points(project: ProjectRef, *, limit: int = SESSIONS_CHARTED,
                  now: float | None = None) -> Iterator[HealthReport]:
    """The report as it fills: first every charted point with no number yet
    (from daimon's listing alone, then with the listing's notes), then again
    after each point is read (oldest first, then now); the last is the whole
    report, where a session that could not be read is left out (a note says
    why). `now`: the moment stale marks are judged at; None: the clock."""
    from daimon_tui.store import paths
    from daimon_tui.store.judging import kept_fold
    from daimon_tui.store.read.asof import ledger_pass
    from daimon_tui.store.read.asof_moments import status_rows_read

    refused = paths.refusals(project.slug)
    if refused:  # the one rule: nothing is read through a link out of the store (each named)
        yield HealthReport(project=project, diagnostics=tuple(
            Diagnostic(level="error", source="daimon-tui", message=m) for m in refused))
        return
    # one read of the real events ledger: daimon's, for the listing's fold (when none is kept), handed to
    # the pass too (its copies are cut from those rows, the first copy's fold made from them)
    ledgers = ledger_pass(_fold_of_copy, kept_fold.appended)  # a copy that grew: its kept bytes are not hashed again
    events = paths.checkpoint_root() / project.slug / "events.jsonl"

    def take(data: bytes, read: Any, st: os.stat_result) -> None:
        taken = ledgers.offer(events, data, read.rows, st)
        if taken is not None:  # the sessions' witness rows and the forget times, from the same rows
            status_rows_read(events.parent, st, *taken)

    with kept_fold.hand_over(events, take):
        yield from _points(project, limit, now, ledgers)


def _points(project: ProjectRef, limit: int, now: float | None, ledgers: LedgerPass) -> Iterator[HealthReport]:
    """`health_points` once the store may be read, each ledger read once through `ledgers`."""
    from daimon_tui.store.daimon_api.mode import Unavailable
    from daimon_tui.store.judging import kept_fold
    from daimon_tui.store.read.asof import as_of, parse_time
    from daimon_tui.store.read.history import listed, sessions
    from daimon_tui.store.read.reader import load_briefing

    light = listed(project)
    if light is not None:  # the columns at once, before the listing opens and judges every session
        yield HealthReport(project=project, retained=len(light), sessions=(
            *(SessionHealth(session_id=sid, created=made) for sid, made in reversed(light[:limit])),
            SessionHealth(session_id=NOW)))
    # the kept numbers (and the kept listing) of the sessions the columns name
    kept = _kept(project, dict(light[:limit])) if light is not None else None
    listing = kept.listing if kept is not None else None
    read_now = listing is None
    if listing is None:  # daimon's listing, each session opened and judged: for its notes
        whole = sessions(project)
        listing = tuple((row.session_id, row.created) for row in whole.rows), whole.diagnostics
    listed_rows, listed_notes = listing
    notes = list(listed_notes)
    rows = list(reversed(listed_rows[:limit]))
    points = [SessionHealth(session_id=sid, created=made) for sid, made in rows]
    points.append(SessionHealth(session_id=NOW))
    unread: set[str] = set()

    def report() -> HealthReport:
        shown = tuple(p for p in points if p.session_id not in unread)
        return HealthReport(project=project, sessions=shown, retained=len(listed_rows), diagnostics=tuple(notes))

    yield report()
    receipts, receipt_notes = _failing_by_session(project)
    notes.extend(receipt_notes)
    if kept is None or dict(light[:limit] if light else ()) != dict(rows):
        kept = _kept(project, dict(rows))  # the listing charts other sessions than the columns named
    if read_now:
        kept.keep_listing(listing)
    # one copy of the store for the whole pass, oldest first: each ledger is read once,
    # and each moment's copy grows by the rows since the last (its kept fold folds those alone)
    passing = Path(tempfile.mkdtemp(prefix="daimon-tui-health-"))
    holding = _heap_held()
    try:
        for n, (sid, made) in enumerate(rows):
            holding.send(None)  # what the pass holds now lives through every later moment
            counts = kept.get(sid)
            if counts is None:
                moment = kept.moments.get(sid)  # what `as_of` works out from the session id
                try:
                    # daimon's reader over the store as it stood then; the copy's kept fold is never written
                    with (kept_fold.in_memory_only(),
                          as_of(project, sid, into=passing, ledgers=ledgers,
                                moment=parse_time(moment) if moment else None) as cut):
                        briefing = load_briefing(cut.project, now=cut.timestamp, split=False)
                except Unavailable as exc:  # safe mode: no session can be read as of then
                    notes.append(Diagnostic(level="info", message=str(exc)))
                    unread.update(r for r, _made in rows[n:])
                    break
                except Exception as exc:
                    notes.append(Diagnostic(message=f"session {sid} could not be read as of then "
                                                    f"({type(exc).__name__})"))
                    unread.add(sid)
                    continue
                counts = briefing_counts(briefing)
                kept.put(sid, counts)
            # a session's receipt counts from its own session on
            counts["failing_receipts"] = sum(
                1 for other, (created, failed) in receipts.items()
                if failed and (other == sid or (created or "") <= (made or "")))
            points[n] = SessionHealth(session_id=sid, created=made, counts=counts)
            yield report()
    finally:
        holding.close()
        shutil.rmtree(passing, ignore_errors=True)
        kept_fold.forget_under(str(passing))
    kept.save()
    points[-1] = _now(project, receipts, notes, now)
    yield report()


def health(project: ProjectRef, *, limit: int = SESSIONS_CHARTED, now: float | None = None) -> HealthReport:
    """Numbers for the newest `limit` retained sessions, oldest first, then
    now: the last report of `health_points`."""
    *_filling, whole = health_points(project, limit=limit, now=now)
    return whole
