"""The briefing painted before daimon's full read, and the read that confirms it.

First paint reads only what the first screen needs: the latest pointer (through
daimon's own `view.open` → `store.read_latest_result(route=OWN, admit=ANY)`) and
the trust ledger, folded by daimon's trust index (`daimon_api.judging`), so a quarantine hides
at once. daimon's own briefing code then runs over that light snapshot (via
`snapshot_share.substitute`): marks, order and badges are daimon's. What the
light snapshot cannot know (resolutions, corroboration, staleness, the
machine-wide forget set) comes from the verdict cache of the last confirmed
read, moved on by the events rows appended since that read (daimon's fold
of them); every row is marked provisional until `confirm` answers. The
header's furniture is in the first frame too, so nothing moves when daimon
confirms: the standing rulings (daimon's `rulings_read` of the refutations
ledger, in the light snapshot) and the handoff (daimon's `active_handoff`
over the rows that spell it).

Safety: item text always comes from the live pointer, so a forget (which scrubs
the checkpoint and rewrites latest) never brings text back from the cache; an id
the cache knows as forgotten or withheld stays hidden, whatever its fingerprint.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from daimon_tui.models import Badge, Briefing, Diagnostic, Handoff, Item, ProjectRef, Section, WithheldItem
from daimon_tui.store.child.swaps import install_swaps
from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import Health, ReadPosture, jsonl, store, view
from daimon_tui.store.daimon_api.public import briefing as daimon_briefing
from daimon_tui.store.judging import kept_fold, kept_layout_save, snapshot_share, verdict_cache
from daimon_tui.store.judging.verdict_cache import Cached, Verdict
from daimon_tui.store.read import daimon_brief, reader

_STATE_WORDS = {"resolved", "superseded", "forgotten", "visible"}


def light_snapshot(project: ProjectRef, cached: Cached | None) -> view.Snapshot:
    """daimon's `Snapshot` with only the trust ledger folded (fresh) and the ids
    the cache knows as forgotten; resolutions and corroborations left empty.
    Raises `Unavailable` in safe mode (the confirming read answers alone)."""
    bucket = daimon_reading.bucket_dir(project.target)
    read = jsonl.read(bucket / "trust.jsonl") if bucket is not None else jsonl.Read(Health.ABSENT, [])
    ids, items, health, detail = daimon_judging.trust_index(project.target, read)
    empty = view.Snapshot.empty()
    return dataclasses.replace(
        empty,
        rulings=_rulings(project, bucket),
        quarantined=frozenset(ids),
        quarantine_ids=daimon_judging.frozen(ids),
        quarantine_items=daimon_judging.frozen(items),
        forgotten_ids=cached.forgotten_ids() if cached else frozenset(),
        health=daimon_judging.frozen({**empty.health, "trust.jsonl": health}),
        details=daimon_judging.frozen({"trust.jsonl": detail} if detail else {}),
        closed=view.posture("trust.jsonl", health) is ReadPosture.CLOSED,
    )


def _rulings(project: ProjectRef, bucket: Any) -> Any:
    """The standing rulings as daimon's snapshot reads them (its own
    `rulings_read` of the small refutations ledger), so the first frame
    already holds them where the confirmed one does; None if that fails."""
    if bucket is None:
        return None
    try:
        return daimon_briefing.rulings_read(project.target, read=jsonl.read(bucket / "refutations.jsonl"))
    except Exception:  # the confirming read says what failed
        return None


def first_handoff(project: ProjectRef) -> Handoff | None:
    """daimon's baton (`store.active_handoff`) over the events rows that spell
    `handoff` (`ledger_lines`: a byte search, daimon's classifier), which hold
    every baton row: the whole ledger's answer without its fold. Never memoized."""
    from daimon_tui.store.read import ledger_lines

    try:
        read = daimon_brief.baton_rows(project.target)
        if read is None or read.health is not Health.OK:
            return None
        with ledger_lines.events_as(read):
            return daimon_brief.as_handoff(store.active_handoff(project.target))
    except Exception:  # fail-open, as daimon reads a baton
        return None


def _badges(item: Item, verdict: Verdict) -> tuple[Badge, ...]:
    """The item's badges with the corroboration count daimon last judged."""
    kept = [b for b in item.badges if b.kind != "corroborated"]
    count = verdict.corroboration
    if count:
        at = 1 if kept and kept[0].kind == "carried" else 0
        kept.insert(at, Badge(kind="corroborated", count=count))
    return tuple(kept)


def _with_verdict(item: Item, verdict: Verdict | None) -> Item:
    update: dict = {"provisional": True}
    if verdict is not None:
        state = verdict.state if verdict.state in _STATE_WORDS else "visible"
        update.update(
            state=state,
            badges=_badges(item, verdict),
            closing_status=verdict.closing_status if state != "visible" else None,
            closing_ts=verdict.closing_ts if state != "visible" else None,
            closing_source=verdict.closing_source if state != "visible" else None,
            closing_note=None,
        )
        if verdict.mark == "stale" and verdict.stale_days is not None:
            update.update(mark="stale", stale_days=verdict.stale_days)
    return item.model_copy(update=update)


def apply_cache(briefing: Briefing, cached: Cached | None) -> Briefing:
    """Every item marked provisional, with the cached verdict where there is one.
    An id the cache saw withheld stays withheld (never shown on a stale "visible")."""
    withheld_ids = {w.id: w for w in (cached.withheld if cached else ()) if w.id}
    verdicts = cached.items if cached else {}
    sections: list[Section] = []
    resolved: list[Item] = []
    withheld: list[WithheldItem] = list(briefing.withheld)
    seen = {w.id for w in withheld}
    for section in briefing.sections:
        kept = []
        for item in (*section.items,):
            if item.id in withheld_ids:
                if item.id not in seen:
                    withheld.append(withheld_ids[item.id])
                    seen.add(item.id)
                continue
            judged = _with_verdict(item, verdicts.get(item.id or ""))
            if judged.state == "forgotten":
                continue
            (kept if judged.state == "visible" else resolved).append(judged)
        if kept:
            sections.append(section.model_copy(update={"items": tuple(kept)}))
    for item in briefing.resolved:
        judged = _with_verdict(item, verdicts.get(item.id or ""))
        if judged.state != "forgotten" and item.id not in withheld_ids:
            resolved.append(judged)
    state = briefing.state
    if state == "briefing" and not sections and not briefing.topic:
        state = "empty"
    return briefing.model_copy(update={
        "sections": tuple(sections),
        "resolved": tuple(resolved),
        "withheld": tuple(withheld),
        "state": state,
        "provisional": True,
    })


def provisional_briefing(project: ProjectRef, now: float | None = None) -> Briefing:
    """The briefing from the latest pointer, the trust ledger and the verdict
    cache, every row provisional. Reads no events ledger."""
    now = time.time() if now is None else now
    cached = verdict_cache.load(project.slug)
    snap = light_snapshot(project, cached)
    with snapshot_share.substitute(snap):
        # daimon's budget waits for the confirming read (it needs the whole fold).
        painted = reader.load_briefing(project, now, budgeted=False)
    if painted.state != "unavailable":
        # the baton leads the header: in the first frame, so nothing moves when daimon confirms
        painted = painted.model_copy(update={"handoff": first_handoff(project)})
    return appended_events(project, apply_cache(painted, cached), cached)


def appended_events(project: ProjectRef, briefing: Briefing, cached: Cached | None) -> Briefing:
    """The cached verdicts moved on by the events appended since they were
    judged (the kept verdicts cover the ledger up to their mark): those rows
    judged by daimon's line classifier and folded by daimon
    (`live.apply_events`, `store.fold_resolutions`), still provisional."""
    data = verdict_cache.appended_since(project, cached.events if cached else None)
    if not data:
        return briefing
    from daimon_tui.store.judging import live
    from daimon_tui.store.read import ledger_lines

    lines = [line for line in data.decode("utf-8", "surrogateescape").split("\n") if line.strip()]
    rows = ledger_lines.judged(lines).rows
    change = live.apply_events(briefing, rows) if rows else None
    return change.briefing if change is not None else briefing


def confirm(project: ProjectRef, now: float | None = None) -> Briefing:
    """daimon's fresh judgement (`reader.load_briefing`) in this process (the
    judging child's, or the app's if the child fails), its snapshot shared
    with every later read of the same files, and its verdicts persisted (no text)."""
    install_swaps()  # in the child already (`judge_child`); in the app when the child failed
    # Fingerprint before the read: a write during it leaves a fingerprint that
    # no longer matches, so the next paint treats these verdicts as stale.
    digest = verdict_cache.fingerprint(project)
    events = verdict_cache.events_mark(project)
    seen = kept_layout_save.watched(project)
    confirmed = reader.load_briefing(project, now, world_check=True)  # `d`: daimon's lines as its brief runs here
    verdict_cache.save(confirmed, digest, events)
    kept_layout_save.save(confirmed, seen)  # a later open's first frame, before daimon imports
    if kept_fold.untrusted():
        return confirmed.model_copy(update={"kept_unchecked": True})
    return confirmed


async def confirm_async(project: ProjectRef, now: float | None = None,
                        shown: Callable[[Briefing], None] | None = None) -> Briefing:
    """daimon's fresh judgement, read by the judging child (the app stays small
    and keeps the GIL); if the child fails, read here and say so in a note.

    "confirmed by daimon" only over a kept fold that agrees with daimon's full
    fold: an answer read over one from our cache not yet checked this run is
    passed to `shown` still provisional, then the child checks the fold (after
    the reads a person waits on); one found wrong is discarded and the
    briefing confirmed again by a child that never held it, with a note."""
    # Here, not at the top: the judging child confirms (`confirm`) without the app's side of the
    # pipe, and its kept early answer without pydantic (`early_answer`).
    from daimon_tui.store.child import judge_service

    briefing, failure = await judge_service.read("briefing", project, now)
    notes: list[Diagnostic] = []
    if briefing.kept_unchecked:
        if shown is not None:
            shown(briefing.model_copy(update={"provisional": True}))
        try:
            checked, _check_failure = await judge_service.read("fold-check", project)
        except Exception as error:  # never called confirmed on a fold nobody could check
            note = Diagnostic(level="warning", source="daimon-tui",
                              message=f"the kept fold could not be checked ({type(error).__name__}): not confirmed")
            return briefing.model_copy(update={"provisional": True, "notes": (*briefing.notes, note)})
        if checked.discarded:
            judge_service.service().close()
            briefing, failure = await judge_service.read("briefing", project, now)
            notes.append(Diagnostic(level="warning", source="daimon-tui", message="; ".join(checked.discarded)
                                    + "; the briefing was confirmed again from daimon's full read"))
        briefing = briefing.model_copy(update={"kept_unchecked": False})
    if failure is not None:
        notes.append(Diagnostic(level="warning", source="daimon-tui",
                                message=f"confirmed in the app's own process: the judging child failed ({failure})"))
    if not notes:
        return briefing
    return briefing.model_copy(update={"notes": (*briefing.notes, *notes)})
