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
from typing import Any

from daimon_tui.models import (
    Badge,
    Briefing,
    Diagnostic,
    Handoff,
    Item,
    ProjectRef,
    ProjectSummary,
    Section,
    WithheldItem,
)
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import rendering
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import briefing, schema, store, view
from daimon_tui.store.read import checkpoint_shape, daimon_brief
from daimon_tui.store.read.forgotten import forgotten_items
from daimon_tui.store.read.locate import project_exists as project_exists  # named here too, for
from daimon_tui.store.read.locate import resolve_project as resolve_project  # the briefing's readers
from daimon_tui.store.read.marks import line_mark, stored_mark
from daimon_tui.store.read.store_notes import store_notes

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



def field_text(value: Any) -> str | None:
    """A field as daimon holds it, as text: a string as is, anything else as JSON."""
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
                name=field_text(entry.name) or str(entry.slug),
                session_id=field_text(entry.session_id),
                created=field_text(entry.created),
                git_branch=field_text(entry.git_branch),
                topic=field_text(getattr(peek, "topic", None)),
                visible_items=getattr(peek, "visible_items", None),
                readable=bool(entry.readable),
                closed=bool(entry.closed),
                mtime=float(entry.mtime or 0.0),
            )
        )
    rows.sort(key=lambda row: (row.created or "", row.mtime), reverse=True)
    return tuple(rows), notes


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
        badges.append(Badge(kind="carried", detail=field_text(item.get("carried_from"))))
    if item.get("foreign_verbatim_claim"):
        badges.append(Badge(kind="foreign-verbatim"))
    if briefing.corroboration_badge(item):
        badges.append(Badge(kind="corroborated", count=int(item["_corroborated"])))
    worldcheck = item.get("_worldcheck")
    if item.get("_worldcheck_confirmed") and not worldcheck:
        badges.append(Badge(kind="world-checked"))
    if isinstance(worldcheck, dict) and worldcheck.get("note"):
        badges.append(Badge(kind="world-contradicted", detail=field_text(worldcheck.get("note"))))
    if item.get("_supersede_candidate"):
        badges.append(Badge(kind="supersede-candidate", detail=field_text(item.get("_supersede_candidate"))))
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
        id=field_text(raw.get("id")),
        kind=field.kind,
        section=section,
        field=f"{field.section}.{field.key}",
        text=str(raw.get("text") or "").strip(),
        quote=field_text(raw.get("quote")) or None,
        because=field_text(raw.get("because")) or None,
        trust=field_text(raw.get("trust")) or None,
        mark=line_mark(line) or ("stale" if is_stale else stored),
        stored_mark=stored,
        badges=_badges(raw),
        state=state,  # type: ignore[arg-type]
        stale_days=float(stale) if is_stale else None,
        origin_session=field_text(raw.get("origin_session")),
        origin_author=field_text(raw.get("origin_author")),
        first_seen=field_text(raw.get("first_seen")),
        carried_from=field_text(raw.get("carried_from")),
        quote_verified=raw.get("quote_verified") if isinstance(raw.get("quote_verified"), bool) else None,
        external_state=bool(raw.get("external_state")),
        anchored_to=field_text(raw.get("anchored_to")),
        briefable=field.briefable,
        line=first,
        closing_status=field_text(event.get("status")) if event else None,
        closing_ts=field_text(event.get("ts")) if event else None,
        closing_source=field_text(event.get("source")) if event else None,
        closing_note=field_text(event.get("note")) if event else None,
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
                origin_session=field_text(receipt.get("origin_session")),
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
    detail = f"{field_text(row.get('check'))} at {field_text(row.get('ts'))}"
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
        first, *under = allotted.lines.get(key, item.line).split("\n")
        return item.model_copy(update={"briefed": True, "briefed_line": first, "briefed_under": tuple(under)})
    return item.model_copy(update={"briefed": False}) if key in allotted.dropped else item


def load_briefing(project: ProjectRef, now: float | None = None, *, session_id: str | None = None,
                  budgeted: bool = True, split: bool = True, world_check: bool = False) -> Briefing:
    """The briefing as daimon judges it now, every item with its mark, badges and state,
    and whether `daimon brief` prints it within its byte budget (our allocator,
    held equal to daimon's quadratic one, decides at any size; off in safe
    mode). `budgeted=False`: neither the split nor the handoff (the first
    paint's light read). `split=False`: the recorded verdicts still, but
    neither the split nor the handoff (Health counts items, marks and badges,
    which neither changes).
    With `session_id`, that retained session's checkpoint instead of the latest,
    judged the same way (read-only History view; nothing is budgeted there).
    `world_check` (with the split): the lines daimon prints as its brief runs
    here, with its world-check when daimon's settings turn it on (the split and
    the lines from that render; the items' own badges stay the stored ones)."""
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
        baton = daimon_brief.handoff(project.target) if budgeted and split else None
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
    if budgeted and split and session_id is None:
        checked, said = _world_checked(project, now) if world_check else (None, None)
        notes += (said,) if said else ()
        try:
            as_run = checked if checked is not None else annotated
            allotted = daimon_brief.budget(project, as_run, baton, now, live=checked is not None)
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
        session_id=field_text(checkpoint.get("session_id")),
        created=field_text(checkpoint.get("created")),
        format_version=field_text(checkpoint.get("format_version")),
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


def _world_checked(project: ProjectRef, now: float) -> tuple[briefing.Annotated | None, Diagnostic | None]:
    """daimon's brief-time world-check, run as its brief runs it here, or a note
    saying the rows as daimon prints them are without it."""
    try:
        checked = daimon_brief.world_checked(project, now)
    except Exception as exc:  # safe mode, or daimon's world-check failed: the rows are still daimon's, without it
        checked = f"without daimon's world-check (DAIMON_WORLDCHECK is on): it could not be run ({exc!s:.120})"
    if isinstance(checked, str):
        return None, Diagnostic(level="info", source="daimon-tui", message=f"Rows as daimon prints them (d): {checked}")
    return checked, None


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
