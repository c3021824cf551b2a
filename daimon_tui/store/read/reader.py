"""Read a project's briefing through daimon's own read model.

Marks, badges, order and judged state all come from daimon's code
(`briefing.prepare`, `briefing.build`, its item mark,
`briefing.corroboration_badge`, `view.closing_event`), so what we show is what
`daimon brief` would say. Nothing here writes; nothing raises for data health.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from daimon_briefing import api, briefing, schema, store, view

from daimon_tui.records import (
    Axis,
    Badge,
    Briefing,
    Diagnostic,
    Handoff,
    Inspection,
    Item,
    ProjectRef,
    ProjectSummary,
    Section,
    WithheldItem,
)
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import rendering
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.read import checkpoint_shape, daimon_brief
from daimon_tui.store.read.forgotten import forgotten_items
from daimon_tui.store.read.locate import project_exists as project_exists  # named here too, for
from daimon_tui.store.read.locate import resolve_project as resolve_project  # the briefing's readers
from daimon_tui.store.read.marks import line_mark, stored_mark

# The format versions this reader was tested against; anything else is read
# (daimon reads it) but flagged, because its fields may mean something new.
KNOWN_FORMATS = frozenset({"D-018", "D-019"})

SECTION_TITLES = {
    "decisions": "Decisions made",
    "external": "VERIFY BEFORE TRUSTING",
    "open_loops": "Open loops",
    "beliefs": "Beliefs held",
    "uncertainties": "Was uncertain about",
    "contradictions": "Contradictions flagged",
}



def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _note(line: str) -> Diagnostic:
    """daimon's own ledger-health note; the repair command is the part after `run:`."""
    repair = None
    if "run: " in line:
        repair = line.split("run: ", 1)[1].strip().rstrip(".")
    level = "error" if ("unreadable" in line or "closed" in line) else "warning"
    return Diagnostic(level=level, source="daimon", message=line, repair=repair)


# ---- projects ---------------------------------------------------------------


def list_projects() -> tuple[tuple[ProjectSummary, ...], tuple[Diagnostic, ...]]:
    """Every bucket daimon lists, newest first, with daimon's listing notes."""
    try:
        refused = _refused_buckets()
        listed = view.projects(None) if not refused else ()
        notes = tuple(_note(n) for n in view.projects_notes(None, listed)) if not refused else ()
    except Exception:  # one broken bucket must not hide the others
        refused, listed, notes = _refused_buckets(), (), ()
    if refused or not listed:
        listed, more = _list_one_by_one(refused)
        notes += more
    rows = []
    for entry in listed:
        peek = getattr(entry, "peek", None)
        rows.append(
            ProjectSummary(
                slug=str(entry.slug),
                name=_text(entry.name) or str(entry.slug),
                session_id=_text(entry.session_id),
                created=_text(entry.created),
                git_branch=_text(entry.git_branch),
                topic=_text(getattr(peek, "topic", None)),
                visible_items=getattr(peek, "visible_items", None),
                readable=bool(entry.readable),
                closed=bool(entry.closed),
                mtime=float(entry.mtime or 0.0),
            )
        )
    rows.sort(key=lambda row: (row.created or "", row.mtime), reverse=True)
    return tuple(rows), notes


# ---- the files behind the briefing ---------------------------------------------
# daimon reads a torn, empty or non-object `latest.json` as "no checkpoint", and
# skips list fields of the wrong type in silence. A person needs to know which
# file is broken; nothing here repairs or rewrites anything.


def _plural(count: int, word: str, words: str) -> str:
    return f"{count} {word if count == 1 else words}"


# An item's fields daimon stores as text (besides `text`, counted above).
_TEXT_FIELDS = ("id", "trust", "quote", "because", "carried_from", "origin_session", "origin_author",
                "first_seen", "anchored_to")


def _shape_notes(checkpoint: Mapping, where: str) -> tuple[Diagnostic, ...]:
    """Item fields daimon skips because they hold the wrong type."""
    out: list[Diagnostic] = []
    for section in ("working_context", "epistemic_snapshot"):
        block = checkpoint.get(section)
        if block is not None and not isinstance(block, Mapping):
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {section} is a "
                                  f"{type(block).__name__}, not an object; its items are not shown"))
    for field, value in schema.iter_fields(dict(checkpoint)):
        name = f"{field.section}.{field.key}"
        if value is None:
            continue
        if field.singleton:
            if not isinstance(value, Mapping):
                out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} is a "
                                      f"{type(value).__name__}, not an item"))
            continue
        if not isinstance(value, list):
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} is a "
                                  f"{type(value).__name__}, not a list; nothing in it is shown"))
            continue
        strings_ok = field.key == "contradictions_flagged"
        odd = sum(1 for v in value if not (isinstance(v, Mapping) or (strings_ok and isinstance(v, str))))
        untexted = sum(1 for v in value if isinstance(v, Mapping) and not isinstance(v.get("text"), str))
        if odd:
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                  f"{_plural(odd, 'entry', 'entries')} that are not items; they are skipped"))
        if untexted:
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                  f"{_plural(untexted, 'item', 'items')} whose text is not a string"))
        for key in _TEXT_FIELDS:
            odd_typed = sum(1 for v in value if isinstance(v, Mapping) and v.get(key) is not None
                            and not isinstance(v.get(key), str))
            if odd_typed:
                out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                      f"{_plural(odd_typed, 'item', 'items')} whose {key} is not a string"))
    sid = checkpoint.get("session_id")
    if sid is not None and not isinstance(sid, str):
        out.append(Diagnostic(level="error", source="daimon-tui",
                              message=f"{where}: session_id is a {type(sid).__name__}, not a string"))
    return tuple(out)


def _read_pointer(path: Path) -> tuple[Mapping | None, str | None]:
    """`latest.json` parsed by us (read-only), or why it cannot be."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({type(exc).__name__})"
    if not raw.strip():
        return None, "is empty"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"is not valid UTF-8 (byte {exc.start})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"is torn or not JSON ({str(exc)[:80]})"
    if not isinstance(data, dict):
        return None, f"holds a JSON {type(data).__name__}, not a checkpoint"
    return data, None


def store_notes(project: ProjectRef, checkpoint: Mapping | None) -> tuple[tuple[Diagnostic, ...], bool]:
    """Diagnostics about the files behind this project's briefing, and whether
    reading must be refused (a symlink leads outside the store). Never raises."""
    try:
        return _store_notes(project, checkpoint)
    except Exception as exc:  # a diagnostic pass never breaks the read
        failed = f"the store's files could not be checked ({type(exc).__name__})"
        return (Diagnostic(source="daimon-tui", message=failed),), False


def _store_notes(project: ProjectRef, checkpoint: Mapping | None) -> tuple[tuple[Diagnostic, ...], bool]:
    root = paths.checkpoint_root()
    bucket = paths.bucket_dir(project.slug)
    if bucket is None or not bucket.is_dir():
        return (), False
    # the one rule every reader follows (`paths.refusals`): a link out of the store, a FIFO
    notes = [Diagnostic(level="error", source="daimon-tui", message=m) for m in paths.refusals(project.slug)]
    if notes:
        return tuple(notes), True
    _root, why = paths.root_for_slug(project.slug)
    if why:
        notes.append(Diagnostic(source="daimon-tui", message=f"refused the bucket root: {why}"))
    latest = bucket / "latest.json"
    problem = paths.file_problem(latest, root)
    parsed = checkpoint
    if problem is None and checkpoint is None and latest.exists():
        parsed, problem = _read_pointer(latest)
    if problem:
        notes.append(Diagnostic(level="error", source="daimon-tui", message=f"{latest} {problem}: daimon "
                                "reads no checkpoint for this project until the next capture rewrites it"))
    if isinstance(parsed, Mapping):
        notes.extend(_shape_notes(parsed, str(latest)))
        sid = parsed.get("session_id")
        session_file = paths.contained(root, sid, ".json")
        if isinstance(sid, str) and session_file is None:
            notes.append(Diagnostic(level="error", source="daimon-tui", message=f"{latest} names session "
                                    f"{sid!r:.80}, which is not a safe file name: refused"))
        elif session_file is not None and not session_file.is_file():
            notes.append(Diagnostic(source="daimon-tui", message=f"{session_file} is missing: {latest} "
                                    f"points to session {sid}, whose own file (and receipt) is gone"))
    return tuple(notes), False


def _refused_buckets() -> frozenset[str]:
    """Buckets holding a symlink that leads outside the store: never opened."""
    try:
        root = paths.checkpoint_root()
        return frozenset(
            child.name for child in root.iterdir()
            if child.is_dir() and (not paths.inside(root, child) or any(paths.escaping_links(child, root))
                                   or any(paths.special_files(child)))
        )
    except OSError:
        return frozenset()


def _list_one_by_one(refused: frozenset[str]) -> tuple[tuple[Any, ...], tuple[Diagnostic, ...]]:
    """The slow listing: each bucket on its own, so a bucket daimon cannot
    list (or that we refuse) becomes a diagnostic and the others still show."""
    listed: list[Any] = []
    notes: list[Diagnostic] = []
    try:
        names = view.buckets(None)
    except Exception:
        names = ()
    root = paths.checkpoint_root()
    for slug in sorted({*names, *refused}):
        if slug in refused:
            notes.append(Diagnostic(level="error", source="daimon-tui",
                                    message=f"{root / slug} holds a symlink leading outside the store "
                                    "or a file that is not a regular file: refused"))
            continue
        try:
            listed.extend(view.projects(slug, own_only=True))
        except Exception as exc:
            where = root / slug / "latest.json"
            notes.append(Diagnostic(level="error", source="daimon-tui",
                                    message=f"{where} could not be listed ({type(exc).__name__})"))
    return tuple(listed), tuple(notes)


# ---- the briefing -------------------------------------------------------------


def _badges(item: Mapping) -> tuple[Badge, ...]:
    """daimon's badges for one stamped item, in the order of its rendered line."""
    badges: list[Badge] = []
    if item.get("carried_from"):
        badges.append(Badge(kind="carried", detail=_text(item.get("carried_from"))))
    if item.get("foreign_verbatim_claim"):
        badges.append(Badge(kind="foreign-verbatim"))
    if briefing.corroboration_badge(item):
        badges.append(Badge(kind="corroborated", count=int(item["_corroborated"])))
    worldcheck = item.get("_worldcheck")
    if item.get("_worldcheck_confirmed") and not worldcheck:
        badges.append(Badge(kind="world-checked"))
    if isinstance(worldcheck, dict) and worldcheck.get("note"):
        badges.append(Badge(kind="world-contradicted", detail=_text(worldcheck.get("note"))))
    if item.get("_supersede_candidate"):
        badges.append(Badge(kind="supersede-candidate", detail=_text(item.get("_supersede_candidate"))))
    if item.get("_agent_claim"):
        badges.append(Badge(kind="agent-claim"))
    if item.get("_amend"):
        badges.append(Badge(kind="amended"))
    noted = briefing.noted_suffix(item).strip()
    if noted:
        badges.append(Badge(kind="noted", detail=noted))
    return tuple(badges)


def _item(section: str, raw: Mapping, degraded: bool, snap: Any) -> Item:
    field = rendering.section_field(section)
    stored = stored_mark(raw, degraded)
    stale = raw.get("_stale_carried_days")
    is_stale = isinstance(stale, (int, float)) and not isinstance(stale, bool)
    line = rendering.line(dict(raw), degraded, field.briefable)
    first, *extra = line.split("\n")
    event = view.closing_event(dict(raw), snap)
    word = view.lifecycle_word(event) if event else "active"
    state = {"resolved": "resolved", "superseded": "superseded", "forgotten": "forgotten"}.get(word, "visible")
    return Item(
        id=_text(raw.get("id")),
        kind=field.kind,
        section=section,
        field=f"{field.section}.{field.key}",
        text=str(raw.get("text") or "").strip(),
        quote=_text(raw.get("quote")) or None,
        because=_text(raw.get("because")) or None,
        trust=_text(raw.get("trust")) or None,
        mark=line_mark(line) or ("stale" if is_stale else stored),
        stored_mark=stored,
        badges=_badges(raw),
        state=state,  # type: ignore[arg-type]
        stale_days=float(stale) if is_stale else None,
        origin_session=_text(raw.get("origin_session")),
        origin_author=_text(raw.get("origin_author")),
        first_seen=_text(raw.get("first_seen")),
        carried_from=_text(raw.get("carried_from")),
        quote_verified=raw.get("quote_verified") if isinstance(raw.get("quote_verified"), bool) else None,
        external_state=bool(raw.get("external_state")),
        anchored_to=_text(raw.get("anchored_to")),
        briefable=field.briefable,
        line=first,
        closing_status=_text(event.get("status")) if event else None,
        closing_ts=_text(event.get("ts")) if event else None,
        closing_source=_text(event.get("source")) if event else None,
        closing_note=_text(event.get("note")) if event else None,
        extra_lines=tuple(extra),
    )


def _withheld(entries: Iterable[Any]) -> tuple[WithheldItem, ...]:
    states = {"quarantine": "quarantined", "forgotten": "forgotten", "closed": "closed"}
    out = []
    for entry in entries:
        receipt = entry.receipt if isinstance(entry.receipt, Mapping) else {}
        out.append(
            WithheldItem(
                id=entry.item_id,
                kind=str(entry.kind),
                state=states.get(str(entry.reason), "withheld"),  # type: ignore[arg-type]
                quarantine_id=entry.quarantine_id,
                origin_session=_text(receipt.get("origin_session")),
            )
        )
    return tuple(out)


def _format_note(checkpoint: Mapping) -> tuple[Diagnostic, ...]:
    version = checkpoint.get("format_version")
    if version is None or str(version) in KNOWN_FORMATS:
        return ()
    # daimon's own ordering of format stamps says which side of ours it is.
    order = [schema.compare_format_versions(str(version), known) for known in KNOWN_FORMATS]
    if all(o is not None and o < 0 for o in order):
        where = "older than"
    elif all(o is not None and o > 0 for o in order):
        where = "newer than"
    else:
        where = "not one"
    return (
        Diagnostic(
            level="warning",
            source="daimon-tui",
            message=f"checkpoint format {version!s:.40} is {where} the formats this app knows "
            f"({', '.join(sorted(KNOWN_FORMATS))}); items are shown as daimon reads them",
        ),
    )


def _recorded_world(project: ProjectRef) -> dict[str, Mapping]:
    """daimon's own recorded world-check verdicts (its CLI brief appends them
    to verification.jsonl when its world-checks are on), one per item as
    daimon folds them: an outstanding contradiction on any claim wins."""
    try:
        return {str(ref): row for ref, row in store.latest_invalidation_verdicts(project_dir=project.target).items()}
    except Exception:  # a ledger daimon cannot fold shows no verdict, as in daimon
        return {}


def _with_recorded(item: Item, row: Mapping | None) -> Item:
    if row is None:
        return item
    kind = "recorded-contradicted" if row.get("verdict") == "contradicted" else "recorded-confirmed"
    detail = f"{_text(row.get('check'))} at {_text(row.get('ts'))}"
    return item.model_copy(update={"badges": (*item.badges, Badge(kind=kind, detail=detail))})


def _handoff_then(project: ProjectRef, session_id: str) -> Handoff | None:
    from daimon_tui.store.read import asof  # a copy of the store: only a history view pays for it

    return asof.handoff_at(project, session_id)


def _briefed(item: Item, section: str, raw: Mapping, allotted: daimon_brief.Budget | None) -> Item:
    """The item with daimon's verdict on printing it, and its exact printed line."""
    if allotted is None:
        return item
    key = daimon_brief.item_key(section, raw)
    if key in allotted.kept:
        printed = allotted.lines.get(key, item.line).split("\n")[0]
        return item.model_copy(update={"briefed": True, "briefed_line": printed})
    return item.model_copy(update={"briefed": False}) if key in allotted.dropped else item


def load_briefing(project: ProjectRef, now: float | None = None, *, session_id: str | None = None,
                  budgeted: bool = True) -> Briefing:
    """The briefing as daimon judges it now, every item with its mark, badges and state,
    and whether `daimon brief` prints it within its byte budget (our allocator,
    held equal to daimon's quadratic one, decides at any size; off in safe
    mode). `budgeted=False`: neither the split nor the handoff (the first
    paint's light read).
    With `session_id`, that retained session's checkpoint instead of the latest,
    judged the same way (read-only History view; nothing is budgeted there)."""
    now = time.time() if now is None else now
    files, refused = store_notes(project, None)
    if refused:
        return Briefing(project=project, state="unavailable", notes=files, now=now)
    try:
        opened = None
        if session_id is not None:
            # A session still in the pointer window is read as daimon reads it
            # (its pointer copy, what `daimon diff` and `brief` show), not from
            # its session file, which a hand edit may have changed.
            opened = next((p.opened for p in view.pointers(project.target)
                           if p.readable and p.meta is not None and p.meta.session_id == session_id), None)
            opened = opened or view.open_sessions(project.target, [session_id], live=False).get(session_id)
            if opened is None:
                missing = f"session {session_id!s:.80} is not a retained session of this project"
                return Briefing(project=project, state="unavailable", notes=(Diagnostic(message=missing),), now=now)
        annotated = briefing.prepare(project.target, now, live=False, route=store.Route.OWN, opened=opened)
    except Exception as exc:
        failed = f"daimon could not read this project ({type(exc).__name__}: {exc})"
        return Briefing(
            project=project,
            state="unavailable",
            notes=(Diagnostic(level="error", message=failed), *files),
            now=now,
        )
    snap = annotated.snapshot
    if annotated.checkpoint is not None:
        files, _refused = store_notes(project, annotated.checkpoint)
    notes = tuple(_note(line) for line in annotated.notes) + files
    try:
        # daimon's whole block: its header, each ruling's text (a compact line
        # for a code-enforced one) and its over-cap note.
        rulings = tuple(briefing.ruling_lines(project.target, snap=snap))
    except Exception as exc:
        rulings = ()
        notes += (Diagnostic(message=f"standing rulings could not be read ({type(exc).__name__})"),)
    withheld = _withheld(annotated.withheld)
    withheld += forgotten_items(snap.forgotten_ids, snap.resolutions,
                                frozenset(w.id for w in withheld if w.id))
    checkpoint = annotated.checkpoint
    # The baton as daimon reads it for this store (in an as-of copy: as it
    # stood then); for a retained session, the one that held when it was written.
    # The first paint (nothing budgeted) reads no events ledger: the baton comes with the confirming read.
    if session_id is not None:
        baton = _handoff_then(project, session_id)
    else:
        baton = daimon_brief.handoff(project.target) if budgeted else None
    framing = {"handoff": baton, "greeting": briefing.GREETING, "order": briefing.SECTION_ORDER}
    if checkpoint is None:
        state = "closed" if snap.closed else "no-checkpoint"
        return Briefing(project=project, state=state, rulings=rulings, withheld=withheld, notes=notes, now=now,
                        **framing)
    degraded = briefing.receipt_degraded(checkpoint)
    built, shape = checkpoint_shape.build(checkpoint, now, _checkpoint_file(project, session_id))
    notes += tuple(n for n in shape if n.message not in {m.message for m in notes})
    allotted = None
    recorded: dict[str, Mapping] = {}
    if budgeted and session_id is None:
        recorded = _recorded_world(project)
        try:
            allotted = daimon_brief.budget(project, annotated, baton, now)
        except Unavailable as exc:  # safe mode: the split is off, the briefing still shows
            notes += (Diagnostic(level="info", source="daimon-tui", message=str(exc)),)
        except Exception as exc:  # the split is extra; the briefing still shows
            notes += (Diagnostic(message=f"daimon's budget could not be computed ({type(exc).__name__})"),)
    sections: list[Section] = []
    resolved: list[Item] = []
    topic = None
    if built is not None:
        for key in briefing.SECTION_ORDER:
            if key == "active_topic":
                active = built.get("active_topic")
                topic = str(active.get("text") or "").strip() if isinstance(active, Mapping) else None
                continue
            live_items = []
            for raw in built.get(key) or ():
                if not isinstance(raw, Mapping):
                    raw = {"text": str(raw)}  # contradictions may be bare strings
                try:
                    item = _with_recorded(_item(key, raw, degraded, snap), recorded.get(str(raw.get("id"))))
                except Unavailable as exc:  # safe mode, its render's contract broken: said once, not per item
                    if str(exc) not in {n.message for n in notes}:
                        notes += (Diagnostic(level="error", source="daimon-tui", message=str(exc)),)
                    continue
                except Exception as exc:  # one malformed item; the others show
                    notes += (_unreadable_item(project, session_id, key, raw, exc),)
                    continue
                if item.state == "visible":
                    live_items.append(_briefed(item, key, raw, allotted))
                else:
                    resolved.append(item)
            if live_items:
                sections.append(Section(key=key, title=SECTION_TITLES[key], items=tuple(live_items),
                                        header=briefing.SECTION_HEADERS[key],
                                        note=allotted.notes.get(key) if allotted else None))
    state = "briefing" if sections or topic else ("closed" if snap.closed else "empty")
    return Briefing(
        project=project,
        state=state,
        session_id=_text(checkpoint.get("session_id")),
        created=_text(checkpoint.get("created")),
        format_version=_text(checkpoint.get("format_version")),
        rulings=rulings,
        topic=topic,
        **framing,
        sections=tuple(sections),
        resolved=tuple(resolved),
        withheld=withheld,
        degraded=degraded,
        notes=notes + _format_note(checkpoint),
        now=now,
    )


def _checkpoint_file(project: ProjectRef, session_id: str | None) -> str:
    """The file a briefing's checkpoint was read from, for notes that name it."""
    if session_id is not None:
        return str(paths.checkpoint_root() / f"{session_id}.json")
    bucket = paths.bucket_dir(project.slug)
    return str(bucket / "latest.json") if bucket is not None else f"{project.slug}/latest.json"


def _unreadable_item(project: ProjectRef, session_id: str | None, section: str, raw: Mapping,
                     exc: Exception) -> Diagnostic:
    ident = raw.get("id")
    label = f" {ident[:40]}" if isinstance(ident, str) else ""
    return Diagnostic(level="error", source="daimon-tui", message=(
        f"{_checkpoint_file(project, session_id)}: an item{label} of {SECTION_TITLES[section]} has a field of "
        f"the wrong type ({type(exc).__name__}: {str(exc)[:80]}); it is not shown"))


# ---- the trust inspector -------------------------------------------------------

AXIS_MEANINGS = {
    # `why`'s capture axis reads the item's capture receipt (`quote_provenance`)
    # and nothing else; the checkpoint's `quote_verified` stamp is its own fact.
    "capture": {
        "verified": "the capture receipt says the quote was found in the transcript",
        "not-verified": "the capture receipt says the quote was not found in the transcript",
        "unknown": "no capture receipt recorded for this quote",
    },
    "provenance": {
        "bound": "the item is bound to the session that first stated it",
        "legacy-inferred": "an old item: its origin is inferred, not recorded",
        "legacy-unbound": "an old item with no recorded origin",
    },
    "locator": {
        "resolved": "the source transcript was found on this machine",
        "absent-local": "the source transcript is not on this machine",
        "remote-author": "a teammate's session: the transcript is theirs",
        "ambiguous": "more than one transcript could be the source",
        "unreadable": "the source transcript exists but cannot be read",
        "unsupported": "this host's transcripts cannot be located",
    },
    "bytes": {
        "unchanged": "the transcript still hashes as it did at capture",
        "changed": "the transcript changed since capture",
        "unknown": "the transcript was not hashed",
    },
    "current_support": {
        "message-id-match": "the quote is still in the cited messages",
        "transcript-scan-match": "the quote is still somewhere in the transcript",
        "not-reproduced": "the quote is no longer found",
        "not-checked": "not re-checked now",
        "withheld": "withheld: daimon shows no evidence for it",
    },
    "verifier_comparison": {
        "same-version": "checked by the verifier version daimon runs now",
        "different-version": "checked by another verifier version",
        "unknown": "no verifier version recorded",
    },
    "lifecycle": {
        "active": "live in the briefing",
        "resolved": "closed by a resolution",
        "superseded": "replaced by a newer item",
        "forgotten": "removed by forget",
    },
}


def inspect(project: ProjectRef, item_id: str, now: float | None = None) -> Inspection:
    """daimon's trust inspector (`why`) for one item, each axis with its meaning."""
    item_id = item_id if isinstance(item_id, str) else ""
    if not item_id or store_notes(project, None)[1]:
        return Inspection(item_id=item_id, found=False)
    try:
        result = api.why(project.target, item_id, now=now)
    except Exception as exc:
        return Inspection(item_id=item_id, found=False, lines=(f"why failed: {type(exc).__name__}",))
    if not isinstance(result, Mapping):
        return Inspection(item_id=item_id, found=False)
    try:
        return _inspection(item_id, result)
    except Exception as exc:  # an answer holding a field of an unexpected type
        return Inspection(item_id=item_id, found=False, lines=(
            f"why's answer could not be read ({type(exc).__name__}: {str(exc)[:120]}); "
            f"daimon's files: {paths.bucket_dir(project.slug) or project.slug}",))


def _inspection(item_id: str, result: Mapping) -> Inspection:
    axes_raw = result.get("axes") if isinstance(result.get("axes"), Mapping) else {}
    axes = tuple(
        Axis(
            name=str(name),
            value=str(value),
            meaning=AXIS_MEANINGS.get(str(name), {}).get(str(value), ""),
        )
        for name, value in axes_raw.items()
    )
    corroboration = result.get("corroboration") if isinstance(result.get("corroboration"), Mapping) else {}
    refs = corroboration.get("references") or ()
    lifecycle = result.get("lifecycle_event") if isinstance(result.get("lifecycle_event"), Mapping) else {}
    item = result.get("item") if isinstance(result.get("item"), Mapping) else {}
    occurrences = item.get("occurrences")
    try:
        lines = tuple(api.why_lines(result))
    except Exception:
        lines = ()
    return Inspection(
        item_id=item_id,
        found=True,
        withheld=axes_raw.get("current_support") == "withheld",
        axes=axes,
        corroboration_count=int(corroboration.get("count") or 0),
        corroboration_refs=tuple(str(r.get("session_id", r)) if isinstance(r, Mapping) else str(r) for r in refs),
        lifecycle_status=_text(lifecycle.get("status")),
        lifecycle_ts=_text(lifecycle.get("timestamp")),
        lifecycle_source=_text(lifecycle.get("source")),
        occurrences=occurrences if isinstance(occurrences, int) and not isinstance(occurrences, bool) else 0,
        origin_session=_text(item.get("origin_session")),
        lines=lines,
    )
