"""History of a project through daimon's own readers: corroboration witnesses,
an item's lifecycle, the retained sessions, diffs between two sessions.

Everything is read (`view.item_events`, `view.lineage`, `view.sessions`,
`view.open_sessions`, `store.fold_corroborations`, `cli.history.changes`);
nothing here writes. The "as of" copy lives in `store.asof`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from daimon_briefing import schema, store, view
from daimon_briefing.cli import history as daimon_history

from daimon_tui.models import Diagnostic, Frozen, ProjectRef, SessionSummary
from daimon_tui.store.daimon_api import reading as daimon_reading

DemotionKind = Literal["resolution", "supersession", "supersede-candidate", "tombstone"]


class Demotion(Frozen):
    """A lifecycle row on the bare id that resets corroboration (daimon's demotion rule)."""

    kind: DemotionKind
    ts: str | None
    status: str | None
    source: str | None
    note: str | None = None


class Witness(Frozen):
    """One corroboration row: `session_id` observed the item at `ts`."""

    session_id: str
    ts: str | None
    source: str | None
    counts: bool
    reset_by: Demotion | None = None
    session_retained: bool = False
    quote: str | None = None


class WitnessReport(Frozen):
    """Every witness of an item and both of daimon's counts.

    `counted` is daimon's `why` count (witnesses recorded after the latest
    demotion); `badge` is daimon's badge number, 1 (the item itself) +
    `counted`, printed only when it reaches `badge_min`."""

    item_id: str
    witnesses: tuple[Witness, ...] = ()
    demotions: tuple[Demotion, ...] = ()
    latest_demotion_ts: str | None = None
    counted: int = 0
    badge: int = 1
    badge_min: int = 2
    item_quote: str | None = None
    introspection_origin: bool = False
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def badge_shown(self) -> bool:
        return self.badge >= self.badge_min


class TimelineEvent(Frozen):
    ts: str | None
    kind: str | None
    status: str | None
    source: str | None
    note: str | None
    decides: bool = False


class SessionHold(Frozen):
    """One retained pointer generation holding the item (daimon's lineage)."""

    ref: str
    session_id: str | None
    created: str | None
    stated: bool
    carried_from: str | None = None
    trust: str | None = None
    withheld: bool = False


class Timeline(Frozen):
    item_id: str
    events: tuple[TimelineEvent, ...] = ()
    sessions: tuple[SessionHold, ...] = ()
    lifecycle: str = "active"
    decided_by: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()


class SessionListing(Frozen):
    rows: tuple[SessionSummary, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


class DiffRow(Frozen):
    """daimon's own change row (`cli.history.changes`), key for key."""

    change: str
    item_id: str
    kind: str
    trust: str | None = None
    previous_trust: str | None = None
    text: str | None = None
    detail: str | None = None
    where: str | None = None


class DiffReport(Frozen):
    older: str
    newer: str
    rows: tuple[DiffRow, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def _failed(what: str, exc: Exception) -> Diagnostic:
    return Diagnostic(level="error", message=f"{what} ({type(exc).__name__})")


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _demotion_kind(event: view.Event) -> DemotionKind | None:
    status = (event.status or "").strip().lower()
    # daimon's demotion rule reads a raw row; the judged event is close enough
    # for the predicate, and a tombstone's judged status is the bare word `forgotten`.
    if not daimon_reading.demotes({"status": event.status or "", "ts": event.ts}, status):
        return None
    if event.tombstone:
        return "tombstone"
    if status.startswith("superseded-by:"):
        return "supersession"
    if status.startswith("supersede-candidate"):
        return "supersede-candidate"
    return "resolution"


def _find_item(checkpoint: Mapping | None, item_id: str) -> Mapping | None:
    for _field, item in schema.iter_items(checkpoint or {}):
        if isinstance(item, Mapping) and item.get("id") == item_id:
            return item
    return None


def witnesses(project: ProjectRef, item_id: str) -> WitnessReport:
    """Every corroboration witness of `item_id`, counted or reset, and why."""
    p = project.target
    try:
        snap = view.snapshot(p)
        rows = view.item_events(p, store.corroboration_ref(item_id), snap=snap)
        lifecycle = view.item_events(p, item_id, snap=snap)
        opened = view.open(p, live=False)
    except Exception as exc:
        return WitnessReport(
            item_id=item_id,
            diagnostics=(_failed("events could not be read", exc),),
        )
    demotions = tuple(
        Demotion(kind=kind, ts=e.ts, status=e.status, source=e.source, note=e.note)
        for e in lifecycle
        if (kind := _demotion_kind(e)) is not None
    )
    entry = snap.corroborations.get(item_id) or {}
    latest = entry.get("latest_demotion_ts")
    item = _find_item(opened.checkpoint, item_id) or {}
    # daimon's own effective origins: the fold, minus an introspection origin.
    origins = store.corroboration_origins_for(item, dict(entry)) if entry else set()
    observers = []
    for e in rows:
        status = e.status or ""
        prefix = "corroborated-by:"
        if status.lower().startswith(prefix):
            observers.append((status[len(prefix) :].strip(), e))
    sessions = view.open_sessions(p, sorted({sid for sid, _ in observers}), live=False, snap=snap)
    out = []
    for sid, e in observers:
        counts = sid in origins and (latest is None or (e.ts or "") > latest)
        reset_by = None
        if not counts:
            # The first demotion at or after the witness is what reset it.
            reset_by = next((d for d in demotions if (d.ts or "") >= (e.ts or "")), None)
        held = sessions.get(sid)
        own = _find_item(held.checkpoint if held else None, item_id)
        out.append(
            Witness(
                session_id=sid,
                ts=e.ts,
                source=e.source,
                counts=counts,
                reset_by=reset_by,
                session_retained=held is not None,
                quote=_str(own.get("quote")) if own else None,
            )
        )
    counted = len(origins)
    origin = str(item.get("origin_session") or "")
    return WitnessReport(
        item_id=item_id,
        witnesses=tuple(out),
        demotions=demotions,
        latest_demotion_ts=latest,
        counted=counted,
        badge=1 + counted,
        badge_min=_badge_min(),
        item_quote=_str(item.get("quote")),
        introspection_origin=origin.startswith(store.ORIGIN_SESSION_INTROSPECTION_PREFIX),
    )


def _badge_min() -> int:
    from daimon_briefing import briefing

    return int(briefing.CORROBORATION_MIN)


def timeline(project: ProjectRef, item_id: str) -> Timeline:
    """Every lifecycle event of the item in daimon's fold order, the retained
    generations that hold it, and the record that decides its state now."""
    try:
        lin = view.lineage(project.target, item_id)
    except Exception as exc:
        return Timeline(
            item_id=item_id,
            diagnostics=(_failed("lineage could not be read", exc),),
        )
    latest = lin.latest
    # The fold's winner is the last row equal to daimon's judged latest event.
    decider = max((i for i, e in enumerate(lin.events) if e == latest), default=-1)
    events = tuple(
        TimelineEvent(
            ts=e.ts, kind=e.kind, status=e.status, source=e.source, note=e.note, decides=i == decider
        )
        for i, e in enumerate(lin.events)
    )
    holds = []
    for a in lin.appearances:
        withheld = isinstance(a.verdict, view.Withheld)
        holds.append(
            SessionHold(
                ref=a.ref,
                session_id=a.session_id,
                created=_str(a.created),
                stated=not withheld and not a.carried_from,
                carried_from=a.carried_from,
                trust=a.trust,
                withheld=withheld,
            )
        )
    verdict = lin.verdict
    if isinstance(verdict, view.Withheld) and verdict.reason == "quarantine":
        decided = f"quarantine {verdict.quarantine_id or '(a teammate’s)'} in trust.jsonl"
    elif isinstance(verdict, view.Withheld) and verdict.reason in ("forgotten", "closed"):
        decided = f"withheld: {verdict.reason}"
    elif latest is not None:
        status, when = latest.status or "(no status)", latest.ts or "(unstamped)"
        decided = f"{status} at {when} via {latest.source or 'unknown'}"
    else:
        decided = "no lifecycle event: active as captured"
    notes = tuple(Diagnostic(message=f"pointer {ref} is unreadable") for ref in lin.unreadable)
    return Timeline(
        item_id=item_id,
        events=events,
        sessions=tuple(holds),
        lifecycle=lin.lifecycle,
        decided_by=decided,
        diagnostics=notes,
    )


def _counts(checkpoint: Mapping | None, withheld: int) -> dict[str, int]:
    counts = {"verbatim": 0, "inferred": 0, "untagged": 0}
    for fld, item in schema.iter_items(checkpoint or {}):
        if fld.singleton or not isinstance(item, Mapping):
            continue
        trust = item.get("trust")
        key = "verbatim" if trust == "verbatim" else ("inferred" if trust else "untagged")
        counts[key] += 1
    if withheld:
        counts["withheld"] = withheld
    return counts


def sessions(project: ProjectRef) -> SessionListing:
    """The project's retained session files, newest first, with item counts by
    trust class. A file that cannot be opened is a diagnostic."""
    p = project.target
    try:
        listed = view.sessions(p)
        snap = view.snapshot(p)
        opened = view.open_sessions(p, [r.session_id for r in listed.rows], live=False, snap=snap)
    except Exception as exc:
        return SessionListing(diagnostics=(_failed("sessions could not be read", exc),))
    rows, notes = [], []
    for r in listed.rows:
        held = opened.get(r.session_id)
        if held is None:
            notes.append(Diagnostic(message=f"session {r.session_id} could not be opened"))
            counts: dict[str, int] = {}
        else:
            counts = _counts(held.checkpoint, len(held.withheld))
        rows.append(
            SessionSummary(session_id=r.session_id, created=_str(r.created), topic=r.topic, counts=counts)
        )
    if listed.unreadable:
        notes.append(Diagnostic(message=f"{listed.unreadable} session file(s) could not be parsed"))
    notes.extend(Diagnostic(level="info", message=str(n)) for n in listed.notes)
    return SessionListing(rows=tuple(rows), diagnostics=tuple(notes))


def diff(project: ProjectRef, older_sid: str, newer_sid: str) -> DiffReport:
    """daimon's own change rows between two session files of the project."""
    p = project.target
    try:
        snap = view.snapshot(p)
        opened = view.open_sessions(p, [older_sid, newer_sid], live=False, snap=snap)
        missing = [sid for sid in (older_sid, newer_sid) if sid not in opened]
        if missing:
            return DiffReport(
                older=older_sid,
                newer=newer_sid,
                diagnostics=tuple(
                    Diagnostic(message=f"session {sid} is not a readable session of this project")
                    for sid in missing
                ),
            )
        rows = daimon_history.changes(opened[older_sid], opened[newer_sid], snap)
    except Exception as exc:
        return DiffReport(
            older=older_sid,
            newer=newer_sid,
            diagnostics=(_failed("diff could not be computed", exc),),
        )
    return DiffReport(older=older_sid, newer=newer_sid, rows=tuple(DiffRow(**row) for row in rows))


# The "as of" copy is its own module; re-exported here with the other history reads.
from daimon_tui.store.read.asof import AsOfStore, as_of  # noqa: E402

__all__ = [
    "AsOfStore",
    "Demotion",
    "DiffReport",
    "DiffRow",
    "SessionListing",
    "Timeline",
    "TimelineEvent",
    "Witness",
    "WitnessReport",
    "as_of",
    "diff",
    "sessions",
    "timeline",
    "witnesses",
]
