"""Gather what daimon says about items now, and turn it into verb plans.

Reads only (daimon's `view`, `api`, and the same non-writing reads the CLI's
`forget --dry-run` makes). The gating logic itself is pure and lives in
`domain.verbs`; this module supplies its facts.
"""

from __future__ import annotations

import time
from pathlib import Path

from daimon_tui.domain import undo_plan, verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.models import ProjectRef
from daimon_tui.store.daimon_api import mode
from daimon_tui.store.daimon_api import writing as daimon_writing
from daimon_tui.store.daimon_api.public import (
    amendments,
    anchor,
    api,
    config,
    forget,
    normalize,
    refutations,
    requests,
    schema,
    store,
    trust,
    view,
)
from daimon_tui.store.daimon_api.registry import VERBS_NEEDING_PRIVATE


def store_guard(project: ProjectRef) -> verbs.StoreGuard:
    try:
        health = dict(api.ledger_health(project.target))
    except Exception:  # an unreadable bucket: every ledger is unproven
        health = {verbs.EVENTS: "unreadable", verbs.TRUST: "unreadable"}
    off = {verb: why for verb in VERBS_NEEDING_PRIVATE if (why := mode.verb_refusal(verb))}
    return verbs.StoreGuard(disabled=config.is_disabled(), ledgers=health, verbs_off=off)


def verb_off(verb: str) -> str | None:
    """Why `verb` is off in this mode (it needs a private daimon call), or None."""
    return mode.verb_refusal(verb)


def retract_input_refusal(reason: str, evidence: tuple[str, ...]) -> str | None:
    """daimon's own rules for a quarantine's reason and evidence (typed
    sources such as issue:42, at most 24), checked before the preview; the
    message daimon would give, or None (and None when retract is off: its
    plan refuses with the reason)."""
    if mode.verb_refusal("retract"):
        return None
    return daimon_writing.quarantine_input_refusal(reason, evidence)


def value_refusal(text: str) -> str | None:
    """daimon's own refusal of a text as a quarantine value (`trust.value_key`:
    redacted first, whitespace folded, then too short), or None."""
    try:
        trust.value_key(text)
    except trust.TrustError as exc:
        return str(exc)
    return None


def badge_min() -> int:
    from daimon_tui.store.daimon_api.public import briefing

    return int(briefing.CORROBORATION_MIN)


def _raw_item(project: ProjectRef, item_id: str) -> dict | None:
    """The raw copy of an item on any surface the project holds (a person may
    forget a value they quarantined; the view will not hand its text out)."""
    for _path, _section, _key, item in store.items_for_project(project.target):
        if item.get("id") == item_id:
            return item
    return None


def _anchor_live(project: ProjectRef, item: dict) -> bool:
    """daimon's anchor check, only for an anchor whose file stays inside the
    project (a path read from the store must not walk out of it)."""
    anchored = item.get("anchored_to")
    if not isinstance(anchored, dict) or not project.path:
        return False
    file = anchored.get("file")
    if not isinstance(file, str):
        return False
    root = Path(project.path).resolve()
    target = (root / file).resolve()
    if not target.is_relative_to(root):
        return False
    try:
        return anchor.check(anchored, str(root)) == "live"
    except Exception:
        return False


def _copies(project: ProjectRef, text: str) -> int:
    key = normalize.content_key(text)
    ids = {str(item.get("id") or "") for _p, _s, _k, item in store.items_for_project(project.target)
           if normalize.content_key(item.get("text") or "") == key}
    ids.discard("")
    return len(ids)


def forget_reach(project: ProjectRef, item_id: str, text: str) -> verbs.ForgetReach:
    """What `daimon forget --dry-run` would list (`cli/lifecycle.py` dry run):
    ids holding the value, ledger rows reached by value or by a doomed id,
    the active rulings reached, and the quarantines whose prose is redacted."""
    target = project.target
    key = normalize.content_key(text)
    siblings = set(forget.siblings(target, key, item_id))
    checkpoint = store.read_latest_body(project_dir=target, route=store.Route.OWN, admit=store.Admit.ANY)
    if isinstance(checkpoint, dict):
        for section, list_key in schema.ITEM_LISTS:
            for item in (checkpoint.get(section) or {}).get(list_key) or []:
                if isinstance(item, dict) and normalize.content_key(item.get("text") or "") == key:
                    siblings.add(str(item.get("id") or ""))
    doomed = siblings | {item_id}
    reached = {str(row.get("refutation_id") or "") for row in refutations.events(project_dir=target)
               if key in refutations.row_content_keys(row)}
    reached |= {str(row.get("amendment_id") or "") for row in amendments.events(project_dir=target)
                if key in amendments.row_content_keys(row) or str(row.get("item_id") or "") in doomed}
    reached |= {str(row.get("request_id") or "") for row in requests.events(project_dir=target)
                if key in requests.row_content_keys(row)}
    reached.discard("")
    reached.discard(item_id)
    rulings = refutations.active_rulings_reached({key}, item_ids={item_id}, project_dir=target)
    quarantines = trust.redact_content_key(key, project_dir=target, dry_run=True)
    return verbs.ForgetReach(
        siblings=tuple(sorted(doomed - {item_id, ""})),
        ledger_records=tuple(sorted(reached)),
        active_rulings=tuple(rulings),
        quarantines=tuple(sorted(str(q) for q in quarantines or ())),
    )


def item_facts(project: ProjectRef, item_id: str, *, with_reach: bool = False) -> verbs.ItemFacts:
    target = project.target
    lineage = view.lineage(target, item_id)
    verdict = lineage.verdict
    match = view.match(target, item_id, how="id")
    in_live = bool(match.hits) or match.exact is not None
    latest = lineage.latest
    latest_fact = (verbs.LatestEvent(status=str(latest.status or ""), source=str(latest.source or ""),
                                     ts=str(latest.ts or ""))
                   if latest is not None else None)
    fields: dict = {"item_id": item_id, "in_live": in_live, "latest": latest_fact, "badge_min": badge_min()}
    text = None
    if isinstance(verdict, view.Withheld):
        fields["kind"] = verdict.kind
        if verdict.reason == "closed":
            fields["lifecycle"] = "closed"
        elif verdict.reason == "forgotten":
            fields["lifecycle"] = "forgotten"
        else:
            fields["lifecycle"] = "quarantined"
            fields["quarantine_id"] = verdict.quarantine_id
            fields["teammate_quarantine"] = verdict.quarantine_id is None
            # the value stays withheld on screen too; only forget's reach needs it
            raw = _raw_item(project, item_id)
            if raw and with_reach:
                fields["reach"] = forget_reach(project, item_id, str(raw.get("text") or ""))
    elif isinstance(verdict, view.Found):
        text = str(verdict.item.get("text") or "")
        fields["kind"] = verdict.field.kind
        fields["lifecycle"] = lineage.lifecycle if lineage.lifecycle != "forgotten" else "forgotten"
        fields["anchor_live"] = _anchor_live(project, verdict.item)
    else:
        fields["lifecycle"] = "forgotten" if lineage.lifecycle == "forgotten" else "absent"
    if fields.get("lifecycle") == "forgotten":
        key = forget.key_of(target, item_id)
        fields["forgotten_key"] = bool(key) and key in store.project_standing(target)
    origins = (lineage.corroboration or {}).get("origins") or set()
    fields["corroboration"] = 1 + len(origins) if origins else 0
    if latest_fact is not None:
        status = latest_fact.status.lower()
        fields["serializer_candidate"] = (status.startswith("supersede-candidate")
                                          and latest_fact.source == "serializer")
        if status.startswith(verbs.SUPERSEDED_PREFIX):
            substitute = latest_fact.status.split(":", 1)[1].strip()
            fields["substitute_id"] = substitute
            fields["substitute_live"] = bool(substitute) and _is_live(project, substitute)
    if text is not None:
        fields["text"] = text
        fields["value_refused"] = value_refusal(text)
        fields["copies"] = _copies(project, text)
        if with_reach:
            fields["reach"] = forget_reach(project, item_id, text)
    return verbs.ItemFacts(**fields)


def _is_live(project: ProjectRef, item_id: str) -> bool:
    lineage = view.lineage(project.target, item_id)
    return isinstance(lineage.verdict, view.Found) and lineage.lifecycle == "active"


def build_plan(verb: verbs.VerbName, item_ids: tuple[str, ...], project: ProjectRef,
               data: verbs.VerbInput = None) -> verbs.Plan:
    """A plan for a verb over items, from daimon's state now (not undo)."""
    guard = store_guard(project)
    facts = [item_facts(project, i, with_reach=(verb == "forget")) for i in item_ids]
    if verb == "resolve":
        return verbs.plan_resolve(project.slug, facts, guard, data or verbs.ResolveInput())
    if verb == "retract":
        return _with_team(project, verbs.plan_retract(project.slug, facts, guard,
                                                      data if isinstance(data, verbs.RetractInput)
                                                      else verbs.RetractInput(reason="", evidence=())))
    if verb == "restore":
        return _with_team(project, verbs.plan_restore(project.slug, facts, guard))
    if verb == "reverify":
        return verbs.plan_reverify(project.slug, facts, guard,
                                   data if isinstance(data, verbs.ReverifyInput) else verbs.ReverifyInput())
    if verb == "forget":
        if len(facts) != 1:
            return verbs.Plan(verb="forget", project=project.slug, refusals=(verbs.Refusal(
                item_id="", code="one-at-a-time", reason="forget takes exactly one item"),))
        return verbs.plan_forget(project.slug, facts[0], guard,
                                 data if isinstance(data, verbs.ForgetInput) else None)
    raise ValueError(f"use build_undo_plan for {verb!r}")


def reopen_marks(project: ProjectRef, item_id: str, resolved_at: str | None, now: float | None = None) -> dict:
    """The marks an undone resolve decides (`ItemFacts.mark_without_resolve`,
    `mark_after_reopen`), by daimon's staleness rule (`briefing.listing_age_days`:
    a carried item's age runs from its newest verification, a resolution event
    counting as one): had the resolve never been written, the age runs from the
    event before it; after the reopen, from the reopen, now. Empty when the item
    cannot be read or is not carried (its mark does not move)."""
    from daimon_tui.store.daimon_api.public import briefing
    from daimon_tui.store.read.marks import shown_mark

    try:
        lineage = view.lineage(project.target, item_id)
        raw = lineage.verdict.item if isinstance(lineage.verdict, view.Found) else None
        if not isinstance(raw, dict) or not raw.get("carried_from"):
            return {}
        body = store.read_latest_body(project_dir=project.target, route=store.Route.OWN, admit=store.Admit.ANY)
        degraded = bool(briefing.receipt_degraded(body)) if isinstance(body, dict) else False
        stamps = sorted(str(e.ts) for e in lineage.events if e.ts)
        # a resolve logged without its time is the newest event (undo refuses a newer record)
        before = [ts for ts in stamps if ts < resolved_at] if resolved_at else stamps[:-1]
        prior = {item_id: {"ts": before[-1]}} if before else {}
        now = time.time() if now is None else now
        age = briefing.listing_age_days(raw, prior, now)
        clean = {k: v for k, v in raw.items() if k != "_stale_carried_days"}
        without = {**clean, "_stale_carried_days": age} if age is not None and age > config.stale_days() else clean
        return {"mark_without_resolve": shown_mark(without, degraded), "mark_after_reopen": shown_mark(clean, degraded)}
    except Exception:  # the preview still shows the undo; it only cannot name the mark
        return {}


def _with_team(project: ProjectRef, plan: verbs.Plan) -> verbs.Plan:
    """The plan with what daimon publishes to the team (quarantines, releases) among its effects."""
    from daimon_tui.store.read.team import team_effects

    said = team_effects(project, plan.writes)
    return plan.model_copy(update={"effects": (*plan.effects, *said)}) if said else plan


def done_records(entry: ActionEntry) -> list[undo_plan.DoneRecord]:
    """Every applied record; one that cannot be undone (a forget, a lift) shows as refused."""
    return [undo_plan.DoneRecord(item_id=record.item_id, op=record.op, status=record.status,
                             quarantine_id=record.ref if record.ledger == verbs.TRUST else None,
                             undid=record.undid, ts=record.ts)
            for record in entry.records if record.outcome == "applied"]


def build_undo_plan(project: ProjectRef, entry: ActionEntry | None,
                    skipped: tuple[ActionEntry, ...] = ()) -> verbs.Plan:
    if entry is None:
        return undo_plan.nothing_to_undo(project.slug, skipped)
    done = done_records(entry)
    guard = store_guard(project)
    facts = {record.item_id: item_facts(project, record.item_id) for record in done}
    for record in done:
        if record.op == "resolve":
            facts[record.item_id] = facts[record.item_id].model_copy(
                update=reopen_marks(project, record.item_id, record.ts))
    return _with_team(project, undo_plan.plan_undo(project.slug, entry, done, facts, guard, skipped))
