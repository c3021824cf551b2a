"""What `daimon brief` keeps and prints, decided by daimon's own renderer.

daimon's CLI brief (`cli.brief._render_briefing_body` → `render.render_brief`)
fits its plain output under one byte budget: the handoff, the format-version
note, the code-drift block and the withheld trailer are reserved first, then
`briefing.select` decides which items the body keeps. `budget()` makes that
decision with the inputs the CLI gives it, so "not briefed" is daimon's own
verdict: `brief_allocation` reaches `briefing.select`'s answer in n log n
(proved equal by test), daimon's own allocator where it cannot. `daimon_text()` is the CLI's plain output,
from daimon's own verb (`daimon_api.brief_verb`).

Neither writes: the CLI's side effects (its usage line, world-check rows,
surfaced stamps) stay out, and so do its live world probes (`gh`: network) and
its opt-in LLM briefing. `daimon_briefing.cli` is imported only here and only
when called (~70 ms beyond what the reader imports), never by the first paint.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from daimon_tui.models import Handoff, ProjectRef
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api import rendering
from daimon_tui.store.daimon_api.public import (
    Health,
    anchor,
    briefing,
    config,
    display,
    jsonl,
    requests,
    schema,
    store,
    view,
)
from daimon_tui.store.read import brief_allocation


@dataclass(frozen=True, slots=True)
class Route:
    """What the CLI's brief passes for this project: `daimon brief --project
    PATH` for a directory, `daimon brief --slug SLUG` for a bare bucket."""

    target: str
    drift_project: str | None
    worldcheck_project: str | None
    loops_pointer: bool


@dataclass(frozen=True, slots=True)
class Budget:
    """daimon's allocation: the keys (`item_key`) of the items it briefs and of
    those it leaves out, each section's own note ("  (10 of 16 shown; …)"),
    and the exact line daimon prints for each briefed item."""

    kept: frozenset[str]
    dropped: frozenset[str]
    notes: Mapping[str, str]
    lines: Mapping[str, str]


def route(project: ProjectRef) -> Route:
    from daimon_tui.store.daimon_api.public_cli import cli

    if project.path:
        return Route(project.path, project.path, project.path, cli.loops_lists_project(project.path))
    return Route(project.slug, None, None, False)


def item_key(section: str, item: Any) -> str:
    """An item's identity across two reads of one checkpoint: its id, else its
    section and text (daimon may shorten a long text for budget; the key keeps
    the part before its truncation marker)."""
    if isinstance(item, Mapping):
        ident = item.get("id")
        if isinstance(ident, str) and ident:
            return f"id:{ident}"
        text = str(item.get("text") or "")
    else:
        text = str(item)
    marker = rendering.truncation_marker()  # None in safe mode: no budgeted text is read
    return f"text:{section}:{(text.split(marker)[0] if marker else text).strip()}"


def _handoff_key(target: str) -> tuple | None:
    """What `store.active_handoff` is a function of: the events ledger (the
    baton) and the bucket's pointers (how many sessions consumed it)."""
    try:
        bucket = daimon_reading.bucket_dir(target)
        if bucket is None:
            return None
        stats = []
        for path in (bucket, bucket / "events.jsonl"):
            st = os.stat(path)
            stats.append((st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size))
    except (OSError, ValueError):
        return None
    return (str(config.checkpoint_dir()), str(bucket), tuple(stats))


# daimon reads the whole events ledger for the baton (seconds on a year of
# rows); a confirming read after an unrelated change need not read it again.
_handoffs: dict[tuple, Handoff | None] = {}
_handoffs_lock = threading.Lock()


def as_handoff(found: Mapping | None) -> Handoff | None:
    """`store.active_handoff`'s answer as our model."""
    return Handoff(ts=str(found["ts"]), note=str(found["note"])) if found else None


def baton_rows(target: str) -> jsonl.Read | None:
    """The bucket's events rows that spell `handoff` (`ledger_lines`: a byte
    search, daimon's classifier): every baton row; None when they cannot be
    found from bytes."""
    from daimon_tui.store.read import ledger_lines

    bucket = daimon_reading.bucket_dir(target)
    return ledger_lines.rows_spelling(bucket, "handoff") if bucket is not None else None


def active_handoff(target: str, daimons: Callable[[Any], dict | None] | None = None) -> dict | None:
    """daimon's `store.active_handoff` (or `daimons`, the same function taken
    before a swap), over the baton rows alone when each is a clean row: the
    whole ledger's answer without daimon's read of all its rows (~200,000 on
    a year of memory: ~250 MB at the judging child's peak and ~2 s per
    confirmation). Anything else: daimon's own full read."""
    from daimon_tui.store.read import ledger_lines

    daimons = daimons or store.active_handoff
    read = baton_rows(target)
    if read is None or read.health is not Health.OK:
        return daimons(target)
    with ledger_lines.events_as(read):
        return daimons(target)


def handoff(target: str) -> Handoff | None:
    """The baton daimon prints above everything (fail-open, as the CLI reads it)."""
    key = _handoff_key(target)
    with _handoffs_lock:
        if key is not None and key in _handoffs:
            return _handoffs[key]
    try:
        found = active_handoff(target)
    except Exception:
        return None
    baton = as_handoff(found)
    if key is not None:
        with _handoffs_lock:
            if len(_handoffs) > 8:
                _handoffs.clear()
            _handoffs[key] = baton
    return baton


def live_annotated(annotated: briefing.Annotated) -> briefing.Annotated:
    """`prepare(live=True)`'s result from a `live=False` one: the items a
    resolution closed dropped and counted, by daimon's own `view.live`."""
    checkpoint = annotated.checkpoint
    if not isinstance(checkpoint, dict):
        return annotated
    out = copy.deepcopy(checkpoint)
    suppressed = 0
    for field, value in schema.iter_fields(out):
        if field.singleton or not isinstance(value, list):
            continue
        kept = [i for i in value if not isinstance(i, dict) or view.live(i, annotated.snapshot)]
        suppressed += len(value) - len(kept)
        out[field.section][field.key] = kept
    return annotated._replace(checkpoint=out, suppressed=suppressed)


def _raw_handoff(found: Handoff | None) -> dict | None:
    return {"ts": found.ts, "note": found.note} if found else None


def _trailer(annotated: briefing.Annotated) -> list[str]:
    return rendering.withheld_trailer(annotated, None)


def _brief_notes(annotated: briefing.Annotated, where: Route) -> tuple:
    """The notes `daimon brief` carries. Its `prepare(worldcheck_project=…)`
    merges the request joins' notes in; we prepare without that argument (it
    would also run the live world probes), so the same merge is done here."""
    notes = annotated.notes
    if where.worldcheck_project:
        try:
            joined = (*requests.join(where.worldcheck_project).notes, *requests.sent(where.worldcheck_project).notes)
            notes = display.merge_notes(notes, joined)
        except Exception:  # fail-open, as in daimon
            pass
    return display.merge_notes(notes, ())


def _drift(checkpoint: Mapping, where: Route) -> list:
    try:
        return anchor.drifted(dict(checkpoint), where.drift_project) if where.drift_project else []
    except Exception:
        return []


@dataclass(frozen=True, slots=True)
class Allocation:
    """What `daimon brief` hands its allocator: the built sections, the byte
    budget and `briefing.select`'s keyword arguments."""

    built: dict
    budget: int | None
    options: dict[str, Any]


def allocation(project: ProjectRef, annotated: briefing.Annotated, found: Handoff | None,
               now: float | None = None, *, live: bool = False) -> Allocation | None:
    """The inputs `render.render_brief` gives `briefing.select`: the reserved
    bytes and protected panels, ranked and aged at `now`. `annotated` is
    `prepare(live=False)`'s (`live`: `prepare(live=True)`'s, as `world_checked`
    gives it); None when there is no body."""
    live = annotated if live else live_annotated(annotated)
    checkpoint = live.checkpoint
    built = briefing.build(checkpoint, now) if isinstance(checkpoint, dict) else None
    if built is None:
        return None
    where = route(project)
    trailer_text = "".join(f"{line}\n" for line in _trailer(live))
    header = rendering.header_reserve(_raw_handoff(found), checkpoint, _drift(checkpoint, where))
    reserved = len((header + trailer_text).encode("utf-8")) + 1
    notes = _brief_notes(live, where)
    rulings, decision_count, asks, verdicts, owed, cards = rendering.panel_lines(
        where.target, where.worldcheck_project, live.snapshot, notes)
    return Allocation(built, briefing.effective_budget(), dict(
        degraded=briefing.receipt_degraded(checkpoint), rulings=rulings, request_lines=asks, verdict_lines=verdicts,
        owed_lines=owed, decision_count=decision_count, reserved=reserved, loops_pointer=where.loops_pointer,
        notes=notes, cards=cards))


def budget(project: ProjectRef, annotated: briefing.Annotated, found: Handoff | None,
           now: float | None = None, *, live: bool = False) -> Budget | None:
    """Which items `daimon brief` would print at `now` (default: now): daimon's
    allocation of `allocation()`'s inputs, so an as-of view splits by that
    instant's ranking. None when there is no body. `live`: as `allocation`."""
    given = allocation(project, annotated, found, now, live=live)
    if given is None:
        return None
    selection = brief_allocation.select(given.built, given.budget, now, **given.options)
    kept, lines, section_notes = set(), {}, {}
    for section in briefing.SECTION_ORDER:
        if section == "active_topic":
            continue
        for item in selection.kept.get(section) or ():
            key = item_key(section, item)
            kept.add(key)
            lines[key] = rendering.selected_line(selection, section, item)
        note = briefing.section_note(selection, section)
        if note:
            section_notes[section] = note
    dropped = {item_key(s, i) for s, items in selection.dropped.items() for i in items}
    return Budget(frozenset(kept), frozenset(dropped - kept), section_notes, lines)


def world_checked(project: ProjectRef, now: float) -> briefing.Annotated | str | None:
    """`prepare` as `daimon brief --project PATH` runs it with daimon's world-check
    on (`DAIMON_WORLDCHECK`, e.g. in ~/.daimon/env): live, its claims probed and
    their stamps on the items (`[✓ world-checked]`, "⚠ state changed since
    capture", no `(noted …)` where it answered). Nothing is written (the CLI
    records the outcomes after printing; they are dropped here) and no program
    starts. None when daimon's brief runs no world-check (off, or a bare
    bucket); a sentence saying why the rows are without it when a program's
    answer (`gh`, the receipt signer) could change them."""
    where = route(project)
    if not where.worldcheck_project or not config.worldcheck_enabled():
        return None
    from daimon_tui.store.daimon_api import brief_verb

    with brief_verb.offline_world_check() as asked:
        annotated = briefing.prepare(where.target, now, route=store.Route.OWN,
                                     worldcheck_project=where.worldcheck_project)
    if asked:
        return (f"without daimon's world-check (DAIMON_WORLDCHECK is on): it would ask {brief_verb.asked_of(asked)}, "
                "a program this app never starts, and the answer may change daimon's rows")
    return annotated


def daimon_text(project: ProjectRef, *, by_slug: bool = False) -> str:
    """Byte for byte what `daimon brief --project PATH` (`--slug SLUG` with
    `by_slug`) prints, plain, for this project now, minus its side effects
    (daimon's own verb, `daimon_api.brief_verb`). Raises RuntimeError when daimon
    would call out or prints nothing but an error."""
    from daimon_tui.store.daimon_api import brief_verb

    by_path = bool(project.path) and not by_slug
    printed = brief_verb.brief(project.path) if by_path else brief_verb.brief(slug=project.slug)
    if printed.rc and not printed.out:
        raise RuntimeError(printed.err.strip().removeprefix("error: ") or f"daimon's brief exited {printed.rc}")
    return printed.out
