"""Everything that waits on the person, as one ordered list.

Sources, all read through daimon's own readers: the briefing model (carried
items in VERIFY BEFORE TRUSTING and open loops, agent "resolved" claims,
serializer supersede candidates, daimon's own world-check contradictions),
daimon's decide queue (`pending.queue_with_notes`, masked: amendments,
candidate rulings/refutations, quarantine candidates, requests), and relation
proposals (`view.relations`, which daimon's decide queue does not list), and
the open loops `daimon loops` lists (its own preparation, `briefing.prepare`).
One entry per item: an item that waits for several reasons sits in its most
urgent lane. Nothing here writes.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from daimon_tui.domain.queue_order import KIND_TITLES, order_key
from daimon_tui.models import Briefing, Diagnostic, Item, ProjectRef
from daimon_tui.models.queue import DecideRecord, QueueEntry, RulingBinding, TriageQueue
from daimon_tui.store.daimon_api.public import briefing, normalize, pending, refutations, schema, store, view
from daimon_tui.store.read.reader import load_briefing

# Verb names a queue entry can offer (the screen binds them to keys; the
# curation verbs `resolve`/`retract`/`reverify` run through the verb flow).
CURATION = ("resolve", "retract", "reverify")
LANE_VERBS: dict[str, tuple[str, ...]] = {
    "contradicted": ("resolve", "reverify", "retract"),
    "agent-claim": ("claim-confirm", "claim-reopen"),
    "supersede-candidate": ("supersede-confirm", "supersede-reject"),
    "amendment": ("amend-ratify", "amend-reject"),
    "ruling": ("ruling-ratify", "ruling-reject"),
    "refutation": ("refutation-ratify", "refutation-reject"),
    "trust": ("trust-confirm", "trust-dismiss"),
    "relation": ("relation-confirm", "relation-reject"),
    "request": ("request-accept", "request-reject"),
    "carried-external": CURATION,
    "carried-open-loop": CURATION,
    "carried-stale": CURATION,
    "open-loop": CURATION,
}


def _s(value: object) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


# ---- items from the briefing ------------------------------------------------------


def _contradiction(item: Item, contradicted: Mapping[str, str]) -> str | None:
    if item.id and item.id in contradicted:
        return contradicted[item.id]
    badge = next((b for b in item.badges if b.kind == "world-contradicted"), None)
    return (badge.detail or "contradicted") if badge else None


def prefill_status(evidence: str) -> str:
    """The resolve status a contradiction suggests (gone, missing, merged)."""
    low = evidence.lower()
    for word in ("merged", "gone", "missing"):
        if word in low:
            return word
    if "deleted" in low or "removed" in low or "no such" in low:
        return "gone"
    return "resolved"


def _item_entry(item: Item, seq: int, contradicted: Mapping[str, str]) -> QueueEntry | None:
    if not item.id:
        return None
    against = _contradiction(item, contradicted)
    fields: dict = {
        "ref": item.id,
        "item": item,
        "stale_days": item.stale_days,
        "seq": seq,
        "waiting_since": item.first_seen,
    }
    if against is not None:
        kind, why = "contradicted", f"a world-check contradicts it: {against}"
        fields["prefill_status"] = prefill_status(against)
    elif item.has_badge("agent-claim"):
        kind, why = "agent-claim", "the agent says this is resolved; nobody has confirmed it"
    elif item.has_badge("supersede-candidate"):
        new_id = next(b.detail for b in item.badges if b.kind == "supersede-candidate")
        kind, why = "supersede-candidate", f"daimon's serializer thinks {new_id} replaces it"
        fields["substitute_id"] = new_id
    elif item.carried_from and (item.section in ("external", "open_loops") or item.mark == "stale"):
        # every carried loop, and any other carried item daimon marks `? unverified`
        # (a decision, belief, uncertainty past the staleness budget)
        kind = {"external": "carried-external", "open_loops": "carried-open-loop"}.get(item.section,
                                                                                     "carried-stale")
        days = f", unverified for {item.stale_days:.0f}d" if item.stale_days is not None else ""
        why = f"carried from {item.carried_from}{days}: is it still true?"
    else:
        return None
    return QueueEntry(
        key=f"{kind}:{item.id}", kind=kind, title=KIND_TITLES[kind], why=why, verbs=LANE_VERBS[kind], **fields
    )


# ---- daimon's decide queue -------------------------------------------------------


def _ruling_binding(
    project: ProjectRef, record_id: str
) -> tuple[RulingBinding, tuple[tuple[str, str], ...], bool]:
    """The binding the CLI ceremony computes, from the record as stored, plus
    the masked full text shown with it and whether any field is withheld."""
    raw = refutations.get(record_id, project_dir=project.target) or {}
    pending_rev = raw.get("revision_proposed") if raw.get("state") == "active" else None
    source = pending_rev if isinstance(pending_rev, dict) else raw
    check = source.get("check") if isinstance(source.get("check"), dict) else {}
    policy = source.get("request_policy") if isinstance(source.get("request_policy"), dict) else {}
    verdict = _s(source.get("verdict"))
    binding = RulingBinding(
        verdict_key=normalize.content_key(verdict) if verdict else "",
        check_sha256=_s(check.get("sha256")),
        policy_sha256=_s(policy.get("sha256")),
        pending_revision=isinstance(pending_rev, dict),
    )
    withheld = bool(view.withheld_in(project.target, "refutations.jsonl", raw)) if raw else True
    shown = view.masked(project.target, "refutations.jsonl", [raw])[0] if raw else {}
    shown_source = (shown.get("revision_proposed") or shown) if binding.pending_revision else shown
    fields = [
        ("Governs", _s(shown.get("subject"))),
        ("Text", _s(shown_source.get("verdict"))),
        ("Scope", _s(shown.get("scope"))),
        ("Evidence", ", ".join(_s(e) for e in shown.get("evidence") or ())),
        ("Text by", _s(shown.get("text_authored_by"))),
    ]
    if check:
        fields.append(("Check", f"sha256 {binding.check_sha256[:12]}"))
    if policy:
        fields.append(("Policy", f"sha256 {binding.policy_sha256[:12]}"))
    return binding, tuple((k, v) for k, v in fields if v), withheld


def _decide_record(project: ProjectRef, row: Mapping) -> DecideRecord:
    kind = _s(row.get("kind"))
    rid = _s(row.get("id"))
    fields: list[tuple[str, str]] = []
    item_ids: tuple[str, ...] = ()
    binding = None
    withheld = False
    amend = row.get("amend") if isinstance(row.get("amend"), Mapping) else None
    if amend:
        item_ids = (_s(amend.get("loop_id")),)
        fields += [
            ("Loop", f"{_s(amend.get('loop_id'))}  {_s(amend.get('loop_text'))}"),
            ("Change", f"{_s(amend.get('state_from'))} → {_s(amend.get('state_to'))}"),
            ("Evidence", _s(amend.get("evidence"))),
            ("Found", _s(amend.get("found"))),
            ("Note", _s(amend.get("note"))),
        ]
    elif kind in ("ruling", "refutation"):
        binding, ruling_fields, withheld = _ruling_binding(project, rid)
        fields += ruling_fields
    else:
        fields.append(("Headline", _s(row.get("headline"))))
        for line in _s(row.get("detail")).splitlines():
            label, _, text = line.partition(": ")
            fields.append((label, text))
    return DecideRecord(
        kind=kind,
        id=rid,
        headline=_s(row.get("headline")),
        fields=tuple((k, v) for k, v in fields if v),
        context=_s(row.get("context")),
        waiting_since=_s(row.get("waiting_since")) or None,
        blocking=bool(row.get("blocking")),
        item_ids=item_ids,
        binding=binding,
        withheld=withheld,
    )


_DECIDE_WHY = {
    "amendment": "an agent's amendment passed the quote check; it renders as unconfirmed until you decide",
    "ruling": "an agent proposed a standing ruling; it governs nothing until you ratify its exact text",
    "refutation": "an agent proposed a refutation; it holds nothing until you ratify it",
    "trust": "an agent proposed a quarantine; it withholds nothing until you confirm it",
    "request": "an ask addressed to this project is waiting for an answer: accept it, or decline it (final)",
    "relation": "a machine proposed a relation between two items; only confirmed edges show in history",
}


def _decide_entries(project: ProjectRef) -> tuple[list[QueueEntry], list[Diagnostic]]:
    try:
        result, notes = pending.queue_with_notes(project_dir=project.target, masked=True)
    except Exception as exc:
        return [], [
            Diagnostic(
                level="error", message=f"daimon's decide queue could not be read ({type(exc).__name__})"
            )
        ]
    diagnostics = [Diagnostic(level="warning", message=_s(n)) for n in notes or ()]
    entries = []
    for seq, row in enumerate(result.get("rows") or ()):
        if not isinstance(row, Mapping):
            continue
        record = _decide_record(project, row)
        kind = record.kind if record.kind in LANE_VERBS else "request"
        verbs = LANE_VERBS[kind]
        if record.withheld:
            verbs = tuple(v for v in verbs if not v.endswith("ratify"))
        entries.append(
            QueueEntry(
                key=f"{kind}:{record.id}",
                kind=kind,
                ref=record.id,
                title=KIND_TITLES[kind],
                why=_DECIDE_WHY.get(kind, ""),
                verbs=verbs,
                record=record,
                blocking=record.blocking,
                waiting_since=record.waiting_since,
                seq=seq,
            )
        )
    return entries, diagnostics


def _relation_entries(project: ProjectRef) -> tuple[list[QueueEntry], list[Diagnostic]]:
    try:
        found = view.relations(project.target, states={"candidate"})
    except Exception as exc:
        return [], [Diagnostic(message=f"relation proposals could not be read ({type(exc).__name__})")]
    entries = []
    for seq, row in enumerate(found.rows):
        rid = _s(row.get("relation_id"))
        ends = [row.get("from") or {}, row.get("to") or {}]
        ids = tuple(_s(end.get("item_id")) for end in ends)
        fields = [("Type", _s(row.get("type")))]
        for label, end in zip(("From", "To"), ends, strict=True):
            item_id = _s(end.get("item_id"))
            fields.append(
                (
                    label,
                    f"{item_id} ({_s(end.get('session_id'))})  {found.texts.get(item_id, '[unresolved]')}",
                )
            )
        rails = ", ".join(_s(r) for p in row.get("proposals") or () for r in p.get("matched_by") or ())
        fields.append(("Matched by", rails))
        record = DecideRecord(
            kind="relation",
            id=rid,
            headline=f"{ids[0]} {_s(row.get('type'))} {ids[1]}",
            fields=tuple(fields),
            waiting_since=_s(row.get("created_at")) or None,
            item_ids=ids,
        )
        entries.append(
            QueueEntry(
                key=f"relation:{rid}",
                kind="relation",
                ref=rid,
                title=KIND_TITLES["relation"],
                why=_DECIDE_WHY["relation"],
                verbs=LANE_VERBS["relation"],
                record=record,
                waiting_since=record.waiting_since,
                seq=seq,
            )
        )
    return entries, []


def _loop_entries(
    project: ProjectRef, now: float, known: Briefing, queued: set[str]
) -> tuple[list[QueueEntry], list[Diagnostic]]:
    """The rows `daimon loops` lists (open, briefable items of the latest
    checkpoint, after daimon's own preparation: the view's withheld values and
    closed loops) that no other lane holds, in daimon's order."""
    try:
        annotated = briefing.prepare(project.target, now, route=store.Route.OWN)
    except Exception as exc:
        return [], [Diagnostic(message=f"the open loops could not be listed ({type(exc).__name__})")]
    checkpoint = annotated.checkpoint
    if not isinstance(checkpoint, dict):
        return [], []
    entries = []
    # daimon's own walker: a field or block of the wrong type yields nothing
    # (the briefing's notes name it), never a TypeError.
    for field, raw in schema.iter_items(checkpoint):
        if field.singleton or not field.briefable:
            continue
        if not isinstance(raw, Mapping) or not raw.get("id") or not _s(raw.get("text")).strip():
            continue
        item_id = _s(raw["id"])
        if item_id in queued:
            continue
        queued.add(item_id)
        origin = f"carried from {_s(raw['carried_from'])}" if raw.get("carried_from") else "latest session"
        entries.append(
            QueueEntry(
                key=f"open-loop:{item_id}",
                kind="open-loop",
                ref=item_id,
                title=KIND_TITLES["open-loop"],
                why=f"open {field.kind} ({origin}): resolve it, or leave it open",
                verbs=LANE_VERBS["open-loop"],
                item=known.find(item_id),
                seq=len(entries),
            )
        )
    return entries, []


def order(entries: list[QueueEntry]) -> tuple[QueueEntry, ...]:
    return tuple(
        sorted(
            entries,
            key=lambda e: order_key(
                kind=e.kind,
                blocking=e.blocking,
                stale_days=e.stale_days,
                waiting_since=e.waiting_since,
                seq=e.seq,
            ),
        )
    )


def entries_from(read: Briefing, contradicted: Mapping[str, str] | None = None) -> list[QueueEntry]:
    """The item lanes of a briefing already read."""
    out = []
    for seq, item in enumerate(read.items()):
        entry = _item_entry(item, seq, contradicted or {})
        if entry is not None:
            out.append(entry)
    return out


def reclassify(
    queue: TriageQueue, contradicted: Mapping[str, str], keep: frozenset[str] = frozenset()
) -> TriageQueue:
    """Move items a world-check contradicts into the contradicted lane and
    re-order; entries in `keep` (already seen) stay where they were."""
    moved = []
    for entry in queue.entries:
        if entry.item is not None and entry.key not in keep and entry.kind != "contradicted":
            again = _item_entry(entry.item, entry.seq, contradicted)
            moved.append(again or entry)
        else:
            moved.append(entry)
    seen = [e for e in queue.entries if e.key in keep]
    rest = order([e for e in moved if e.key not in keep])
    return queue.model_copy(update={"entries": (*seen, *rest)})


def build_queue(
    project: ProjectRef, now: float | None = None, contradicted: Mapping[str, str] | None = None
) -> TriageQueue:
    """Everything waiting on the person, ordered. `contradicted` maps item id
    to a world-check's evidence for items the world now contradicts."""
    now = time.time() if now is None else now
    read = load_briefing(project, now)
    notes = list(read.notes)
    entries = entries_from(read, contradicted)
    decide, decide_notes = _decide_entries(project)
    relations, relation_notes = _relation_entries(project)
    entries += decide + relations
    loops, loop_notes = _loop_entries(project, now, read, {e.ref for e in entries})
    entries += loops
    return TriageQueue(
        project=project,
        entries=order(entries),
        notes=tuple(notes + decide_notes + relation_notes + loop_notes),
        now=now,
    )
