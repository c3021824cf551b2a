"""History of a project through daimon's own readers: corroboration witnesses,
an item's lifecycle, the retained sessions, diffs between two sessions.

Everything is read (`view.item_events`, `view.lineage`, `view.sessions`,
`view.open_sessions`, `store.fold_corroborations`, `cli.history.changes`);
nothing here writes. The "as of" copy lives in `store.asof`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any

from daimon_tui.domain import verbs
from daimon_tui.domain.withheld import withheld_ids, withheld_now
from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.history import (
    Demotion,
    DemotionKind,
    DiffReport,
    DiffRow,
    Generation,
    SessionHold,
    SessionListing,
    SessionSummary,
    Timeline,
    TimelineEvent,
    Witness,
    WitnessReport,
)
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import schema, store, view
from daimon_tui.store.daimon_api.public_cli import history as daimon_history

_REQUIRED = frozenset({"change", "item_id", "kind"})


def _failed(what: str, exc: Exception) -> Diagnostic:
    return Diagnostic(level="error", message=f"{what} ({type(exc).__name__})")


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _typed(value: Any, field: str, where: str, notes: list[Diagnostic]) -> str | None:
    """A text field as daimon read it; a value of another JSON type is shown as
    its JSON and named (daimon passes it through as it is)."""
    if value is None or isinstance(value, str):
        return value
    notes.append(Diagnostic(level="error", source="daimon-tui",
                            message=f"{where}: {field} is a {type(value).__name__}, not a string"))
    return json.dumps(value, ensure_ascii=False, default=str)


def _demotion_kind(event: view.Event) -> DemotionKind | None:
    status = (event.status or "").strip().lower()
    # daimon's demotion rule reads a raw row; the judged event is close enough
    # for the predicate, and a tombstone's judged status is the bare word `forgotten`.
    if not daimon_reading.demotes({"status": event.status or "", "ts": event.ts}, status):
        return None
    if event.tombstone:
        return "tombstone"
    if status.startswith(verbs.SUPERSEDED_PREFIX):
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
        prefix = verbs.WITNESS_PREFIX
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
    from daimon_tui.store.daimon_api.public import briefing

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
    typed: list[Diagnostic] = []
    events = tuple(
        TimelineEvent(
            **{name: _typed(getattr(e, name), name, "events.jsonl", typed)
               for name in ("ts", "kind", "status", "source", "note")},
            decides=i == decider,
        )
        for i, e in enumerate(lin.events)
    )
    holds = []
    for a in lin.appearances:
        withheld = isinstance(a.verdict, view.Withheld)
        where = str(a.pointer_file)
        holds.append(
            SessionHold(
                ref=str(a.ref),
                session_id=_typed(a.session_id, "session_id", where, typed),
                created=_str(a.created),
                stated=not withheld and not a.carried_from,
                carried_from=_typed(a.carried_from, "the item's carried_from", where, typed),
                trust=_typed(a.trust, "the item's trust", where, typed),
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
    notes += tuple({n.message: n for n in typed}.values())
    return Timeline(
        item_id=item_id,
        events=events,
        sessions=tuple(holds),
        lifecycle=lin.lifecycle,
        decided_by=decided,
        diagnostics=notes,
    )


def _counts(checkpoint: Mapping | None, judged_out: Iterable[Any], withheld: frozenset[str] | None) -> dict[str, int]:
    """The session file's items by trust class, and "withheld now": of its
    items (those daimon's judged copy left out too), how many today's
    briefing withholds (`withheld`; None: today's briefing could not be read)."""
    counts = {"verbatim": 0, "inferred": 0, "untagged": 0}
    ids = {str(getattr(w, "item_id", None) or "") for w in judged_out}
    for fld, item in schema.iter_items(checkpoint or {}):
        if fld.singleton or not isinstance(item, Mapping):
            continue
        trust = item.get("trust")
        key = "verbatim" if trust == "verbatim" else ("inferred" if trust else "untagged")
        counts[key] += 1
        ids.add(str(item.get("id") or ""))
    if withheld is not None:
        counts["withheld now"] = withheld_now(ids - {""}, withheld)
    return counts


def _withheld_today(project: ProjectRef) -> frozenset[str] | None:
    from daimon_tui.store.read.reader import load_briefing

    try:
        return withheld_ids(load_briefing(project, split=False))  # ids only: no budget split, no handoff
    except Exception:  # the counts by trust still stand; a note says the column is missing
        return None


def listed(project: ProjectRef) -> tuple[tuple[str, str | None], ...] | None:
    """(session id, created) of the sessions `sessions` lists, newest first,
    from daimon's listing alone (nothing opened or judged: Health's columns
    at once); None when it cannot be read (`sessions` says why)."""
    try:
        return tuple((r.session_id, _str(r.created)) for r in view.sessions(project.target).rows)
    except Exception:
        return None


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
    withheld = _withheld_today(project)
    if withheld is None:
        notes.append(Diagnostic(message="today's briefing could not be read: no \"withheld now\" count"))
    held_by = {g.session_id: g.pointer for g in reversed(generations(project)) if g.readable and g.session_id}
    for r in listed.rows:
        held = opened.get(r.session_id)
        receipt = None
        if held is None:
            notes.append(Diagnostic(message=f"session {r.session_id} could not be opened"))
            counts: dict[str, int] = {}
        else:
            counts = _counts(held.checkpoint, held.withheld, withheld)
            receipt = receipt_state(held.checkpoint)
            if receipt == "mismatch":
                notes.append(_edited_note(r.session_id, held_by.get(r.session_id)))
        rows.append(
            SessionSummary(
                session_id=r.session_id, created=_str(r.created), topic=r.topic, counts=counts, receipt=receipt,
                pointer=held_by.get(r.session_id),
            )
        )
    if listed.unreadable:
        notes.append(Diagnostic(message=f"{listed.unreadable} session file(s) could not be parsed"))
    notes.extend(Diagnostic(level="info", message=str(n)) for n in listed.notes)
    return SessionListing(rows=tuple(rows), diagnostics=tuple(notes))


def _generation(pointer: view.Pointer) -> Generation:
    index = 0 if pointer.ref == "latest" else int(pointer.ref.rsplit("-", 1)[1])
    meta = pointer.meta
    return Generation(
        index=index,
        pointer=f"{pointer.ref}.json",
        session_id=_str(meta.session_id) if meta else None,
        created=_str(meta.created) if meta else None,
        readable=pointer.readable,
    )


def generations(project: ProjectRef) -> tuple[Generation, ...]:
    """The bucket's pointer window, newest first, in daimon's numbering."""
    try:
        return tuple(_generation(p) for p in view.pointers(project.target))
    except Exception:
        return ()


def receipt_state(checkpoint: Mapping | None) -> str:
    """daimon's own tamper check of a session (`view.receipt_state`): `unsigned`,
    `missing`, `match` or `mismatch` (the session file changed after signing)."""
    try:
        return str(view.receipt_state(checkpoint)["state"])
    except Exception:
        return "missing"


def _edited_note(session_id: str, read_from: str | None) -> Diagnostic:
    where = (
        f"shown here as {read_from} holds it, the copy daimon's `diff` and `brief` read"
        if read_from
        else "the text shown is that edited file, not what was signed"
    )
    return Diagnostic(
        level="warning",
        message=f"session {session_id}: its file was changed after signing (the receipt no longer matches); {where}",
        repair="daimon audit",
    )


_DIFF_FIELDS = frozenset(f.name for f in dataclasses.fields(DiffRow))


def _changes(
    older: tuple[str, view.Opened, str | None], newer: tuple[str, view.Opened, str | None], snap: view.Snapshot,
) -> tuple[tuple[DiffRow, ...], tuple[Diagnostic, ...]]:
    rows = daimon_history.changes(older[1], newer[1], snap)
    # daimon's check reads the session's root file whichever copy names it.
    notes = [_edited_note(sid, read_from) for sid, opened, read_from in (older, newer)
             if receipt_state(opened.checkpoint) == "mismatch"]
    # A field of the wrong JSON type is shown as its JSON and named, never raised.
    typed: list[Diagnostic] = []
    where = f"session {older[0]} or {newer[0]}"
    shown = tuple(
        DiffRow(**{"change": "", "item_id": "", "kind": "",
                   **{key: _typed(value, key, where, typed) or ("" if key in _REQUIRED else None)
                      for key, value in row.items() if key in _DIFF_FIELDS}})
        for row in rows
    )
    notes.extend(typed)
    return shown, tuple({n.message: n for n in notes}.values())


def diff(project: ProjectRef, older_sid: str, newer_sid: str) -> DiffReport:
    """daimon's own change rows between two sessions of the project.

    A session still in the bucket's pointer window is read from its pointer,
    as `daimon diff` and `daimon brief` read it (a session file edited after
    signing does not change them); an older one from its session file. A
    session whose file fails its receipt is named either way."""
    p = project.target
    try:
        snap = view.snapshot(p)
        held: dict[str, tuple[view.Pointer, Generation]] = {}
        for pointer in view.pointers(p, snap=snap):
            gen = _generation(pointer)
            if pointer.readable and gen.session_id and gen.session_id not in held:
                held[gen.session_id] = (pointer, gen)
        files = view.open_sessions(p, [s for s in (older_sid, newer_sid) if s not in held], live=False, snap=snap)
        ends, missing = [], []
        for sid in (older_sid, newer_sid):
            if sid in held:
                ends.append((sid, held[sid][0].opened, held[sid][1].pointer))
            elif sid in files:
                ends.append((sid, files[sid], None))
            else:
                missing.append(sid)
        if missing:
            return DiffReport(
                older=older_sid,
                newer=newer_sid,
                diagnostics=tuple(
                    Diagnostic(message=f"session {sid} is not a readable session of this project") for sid in missing
                ),
            )
        rows, notes = _changes(ends[0], ends[1], snap)
    except Exception as exc:
        return DiffReport(older=older_sid, newer=newer_sid, diagnostics=(_failed("diff could not be computed", exc),))
    return DiffReport(
        older=older_sid,
        newer=newer_sid,
        rows=rows,
        diagnostics=notes,
        older_generation=held[older_sid][1] if older_sid in held else None,
        newer_generation=held[newer_sid][1] if newer_sid in held else None,
    )


def _refused(message: str, rc: int, skipped: tuple[Generation, ...] = ()) -> DiffReport:
    return DiffReport(older="", newer="", refused=message, refused_rc=rc, skipped=skipped)


def diff_generations(project: ProjectRef, older: int | None = None, newer: int | None = None) -> DiffReport:
    """`daimon diff [--from N] [--to M]`: the same endpoints, the same refusals
    and daimon's own change rows, read without its usage line (nothing is
    written). Without an address: the latest readable pair, a torn generation
    between them skipped and listed; a named torn generation is refused."""
    p = project.target
    try:
        snap = view.snapshot(p)
        pointers = view.pointers(p, snap=snap)
    except Exception as exc:
        return DiffReport(older="", newer="", diagnostics=(_failed("diff could not be computed", exc),),
                          refused="the checkpoints could not be read", refused_rc=1)
    gens = [(_generation(ptr), ptr) for ptr in pointers]
    skipped = tuple(g for g, _ in gens if not g.readable)
    readable = [(g, ptr) for g, ptr in gens if g.readable]
    if older is None and newer is None:
        if len(readable) < 2:
            if not readable:
                return _refused("no checkpoints in this project yet — nothing to compare", 1, skipped)
            return DiffReport(older="", newer="", skipped=skipped)
        pair = [readable[1], readable[0]]
    else:
        frm, to = (1 if older is None else older), (0 if newer is None else newer)
        if frm <= to:
            return _refused("--from must be older than --to: generation 0 is the latest checkpoint and a "
                            "larger number is further back", 2, skipped)
        by_index = {g.index: (g, ptr) for g, ptr in gens}
        pair = []
        for index in (frm, to):
            if index not in by_index:
                return _refused(f"no checkpoint {index} generations back in this project (retained: {len(gens)})",
                                2, skipped)
            if not by_index[index][0].readable:
                return _refused(f"{by_index[index][0].pointer} is unreadable, so generation {index} "
                                "cannot be compared", 1, skipped)
            pair.append(by_index[index])
        if not readable:
            return _refused("no checkpoints in this project yet — nothing to compare", 1, skipped)
    (old_gen, old_ptr), (new_gen, new_ptr) = pair
    try:
        rows, notes = _changes(
            (old_gen.session_id or "", old_ptr.opened, old_gen.pointer),
            (new_gen.session_id or "", new_ptr.opened, new_gen.pointer),
            snap,
        )
    except Exception as exc:
        return DiffReport(older="", newer="", diagnostics=(_failed("diff could not be computed", exc),),
                          refused="the diff could not be computed", refused_rc=1)
    return DiffReport(
        older=old_gen.session_id or old_gen.pointer,
        newer=new_gen.session_id or new_gen.pointer,
        rows=rows,
        diagnostics=notes,
        older_generation=old_gen,
        newer_generation=new_gen,
        skipped=skipped,
    )


# The "as of" copy is its own module; re-exported here with the other history reads.
from daimon_tui.store.read.asof import as_of  # noqa: E402

__all__ = [
    "Demotion",
    "DiffReport",
    "DiffRow",
    "Generation",
    "SessionListing",
    "Timeline",
    "TimelineEvent",
    "Witness",
    "WitnessReport",
    "as_of",
    "diff",
    "diff_generations",
    "generations",
    "receipt_state",
    "sessions",
    "timeline",
    "witnesses",
]
