"""The curation verbs' pure planning (their registry: `verb_registry`; undo: `undo_plan`).

A plan says, before anything is written, exactly what will land in which of
daimon's ledgers, on which channel, and what it will do beyond the obvious
("corroboration ×3 is reset and will not come back on reopen"). Planning is
pure: the store layer gathers `ItemFacts` (what daimon says about each item
now) and a `StoreGuard` (kill switch, ledger health), and the functions here
turn them into a `Plan` with per-item refusals that mirror daimon's CLI gates.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Literal

from daimon_tui.domain.action_entries import LoggedRecord
from daimon_tui.domain.verb_registry import VerbName, verb
from daimon_tui.models.records import Record
from daimon_tui.models.writes import WrittenRow

# What one write does to daimon. A verb plans one op per item.
Op = Literal["resolve", "reopen", "reverify", "quarantine", "release", "forget", "unforget"]
Lifecycle = Literal["active", "resolved", "superseded", "forgotten", "quarantined", "closed", "absent"]

RESOLVE_STATUSES: tuple[str, ...] = ("resolved", "done", "merged", "gone", "missing")
EVENTS = "events.jsonl"
TRUST = "trust.jsonl"
# Sources daimon itself counts as a person's verdict (store.HUMAN_EVENT_SOURCES).
HUMAN_SOURCES = frozenset({"cli", "cli-tty", "ui"})


# ---- inputs the person types (typed modal results) -------------------------


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ResolveInput(Record):
    """`status` is what the person chose; `per_item` holds each marked item's
    own status where it differs (from its own world-check), and
    `world_confirmed` the items whose claim the world-check confirmed."""

    status: str = "resolved"
    note: str = ""
    per_item: dict[str, str] = dataclasses.field(default_factory=dict)
    world_confirmed: frozenset[str] = frozenset()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RetractInput(Record):
    reason: str
    evidence: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReverifyInput(Record):
    evidence: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ForgetInput(Record):
    typed_id: str
    reason: str = ""


VerbInput = ResolveInput | RetractInput | ReverifyInput | ForgetInput | None


# ---- what the store layer tells us -------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class StoreGuard(Record):
    """Whether daimon will take a write at all: the kill switch and the health
    word of each ledger (`ok`, `absent`, `degraded`, `transient`, `unreadable`)."""

    disabled: bool = False
    ledgers: dict[str, str] = dataclasses.field(default_factory=dict)
    # verb -> why it is off (safe mode: it needs a private daimon call)
    verbs_off: dict[str, str] = dataclasses.field(default_factory=dict)

    def refusal(self, ledger: str) -> str | None:
        if self.disabled:
            return "daimon is disabled (DAIMON_DISABLE): nothing is written"
        state = self.ledgers.get(ledger, "absent")
        if state in ("transient", "unreadable"):
            stem = ledger.removesuffix(".jsonl")
            return f"{ledger} is {state}; daimon refuses a person's write. Run: daimon ledger repair {stem}"
        return None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LatestEvent(Record):
    status: str
    source: str
    ts: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ForgetReach(Record):
    """What a forget would remove, as the CLI's dry run computes it (ids only)."""

    siblings: tuple[str, ...] = ()
    ledger_records: tuple[str, ...] = ()
    active_rulings: tuple[str, ...] = ()
    quarantines: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ItemFacts(Record):
    """daimon's current judgement of one item, as far as a plan needs it.
    `text` is for display in the preview only; it never reaches the log."""

    item_id: str
    kind: str = "unknown"
    text: str | None = None
    in_live: bool = False
    lifecycle: Lifecycle = "absent"
    latest: LatestEvent | None = None
    quarantine_id: str | None = None
    teammate_quarantine: bool = False
    corroboration: int = 0
    anchor_live: bool = False
    serializer_candidate: bool = False
    substitute_id: str | None = None
    substitute_live: bool = False
    copies: int = 0
    forgotten_key: bool = False
    reach: ForgetReach | None = None
    # daimon's own refusal of `text` as a quarantine value (`trust.value_key`:
    # redacted, whitespace folded, too short), asked by the store; None: accepted.
    value_refused: str | None = None
    # daimon's corroboration badge floor (`briefing.CORROBORATION_MIN`), from the store.
    badge_min: int = 2
    # For an undo's reopen (`MARKS` words): the mark the item would show now had the undone resolve never
    # been written, and the one it comes back with (daimon counts the reopen as its newest verification).
    mark_without_resolve: str | None = None
    mark_after_reopen: str | None = None


_SUPERSEDED_BY = re.compile(r"^superseded-by:[a-z]-[0-9a-f]{6,40}(?:-[0-9]+)?$")


def safe_status(status: str | None) -> str | None:
    """A status as the action log may hold it: the app's own vocabulary or a
    `superseded-by:<id>`; any other (free, possibly textual) status is kept
    out of the log and reads as `resolved`."""
    if status is None:
        return None
    word = status.strip().lower()
    if word in RESOLVE_STATUSES or word.startswith("reopen") or _SUPERSEDED_BY.match(word):
        return word
    return "resolved"


# The action log's `status` is daimon's own word for the row it wrote: a
# resolution's status (a free-text one reads as `resolved`), `reopened`, a
# forget's `forgotten:<key hash>`, a lift's `reopened:unforget`, and for
# trust.jsonl the record's `event` (`proposed`, `confirmed`, `released`...).
_FORGOTTEN = re.compile(r"^forgotten:[0-9a-f]{8,64}$")
_EVENT_WORD = re.compile(r"^[a-z][a-z-]{0,30}$")
LIFT_STATUS = "reopened:unforget"
# The row a capture appends for each session that restates an item (`corroborated-by:<session>`), and a
# person's supersession (`superseded-by:<id>`): daimon's words (tests/store/test_mirrored_rules.py).
WITNESS_PREFIX = "corroborated-by:"
SUPERSEDED_PREFIX = "superseded-by:"


def logged_status(op: str, status: str | None = None) -> str | None:
    """The status word the action log holds for one row daimon wrote for `op`:
    daimon's own word when it is one of its closed words, never free text."""
    word = (status or "").strip()
    if op in ("quarantine", "release"):
        return word if _EVENT_WORD.match(word) else None
    if op == "forget":
        return word.lower() if _FORGOTTEN.match(word.lower()) else None
    if op == "unforget":
        return LIFT_STATUS if word.lower() == LIFT_STATUS else None
    if op in ("reopen", "reverify"):
        return "reopened"
    if op == "resolve":
        return safe_status(status) or "resolved"
    # a queue verdict's ledger row: its `event` word (`ratified`, `dismissed`...)
    return word if _EVENT_WORD.match(word) else None


def log_status_allowed(op: str, status: str | None) -> bool:
    """Whether `status` is a word the log may hold for `op` (tests and the Log view)."""
    if status is None:
        return False
    if op == "resolve":
        return safe_status(status) == status and not status.startswith("reopen")
    return logged_status(op, status) == status


# ---- the plan -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PlannedWrite(Record):
    item_id: str
    op: Op
    ledger: str
    channel: str = "ui"
    record: str
    status: str | None = None
    note: str = ""
    quarantine_id: str | None = None
    reason: str = ""
    evidence: tuple[str, ...] = ()
    kind: str | None = None
    undoes: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Refusal(Record):
    item_id: str
    code: str
    reason: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Plan(Record):
    verb: VerbName
    project: str
    writes: tuple[PlannedWrite, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    effects: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    items: tuple[ItemFacts, ...] = ()
    undoes: str | None = None
    irreversible: bool = False
    confirm_id: str | None = None
    # an undo that steps over newer actions it cannot undo: the confirm says so
    steps_over: tuple[str, ...] = ()
    # an undo that brings items back with a higher trust label than they would show now: one line each
    trust_raised: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return bool(self.writes)

    @property
    def title(self) -> str:
        return verb(self.verb).title


def refuse(facts: ItemFacts, code: str, reason: str) -> Refusal:
    return Refusal(item_id=facts.item_id, code=code, reason=reason)


def common_refusal(facts: ItemFacts, guard: StoreGuard, ledger: str) -> Refusal | None:
    blocked = guard.refusal(ledger)
    if blocked:
        return refuse(facts, "disabled" if guard.disabled else "ledger-unwritable", blocked)
    if facts.lifecycle == "closed":
        return refuse(facts, "closed", "the trust ledger cannot be read, so no item can be judged; "
                                        "run: daimon trust repair")
    if facts.teammate_quarantine:
        return refuse(facts, "teammate-quarantine", "a teammate quarantined this value; they release it")
    return None


def _corroboration_effect(items: list[ItemFacts], why: str) -> list[str]:
    out = []
    for facts in items:
        if facts.corroboration >= facts.badge_min:
            out.append(f"{facts.item_id}: corroboration ×{facts.corroboration} is reset {why} "
                       "and will not come back on reopen")
    return out


# What daimon does with a resolved item (`view.live`, carry's `resolved` set,
# `recall`'s status label): it leaves the briefing and carry; recall keeps it.
RESOLVED_EFFECT = ("the item leaves the briefing and is not carried into new sessions; "
                   "`daimon recall` still lists it, tagged [resolved], until restored")


def plan_resolve(project: str, items: list[ItemFacts], guard: StoreGuard, data: ResolveInput) -> Plan:
    writes, refusals = [], []
    chosen = data.status.strip() or "resolved"
    for facts in items:
        status = (data.per_item.get(facts.item_id) or chosen).strip() or "resolved"
        refused = common_refusal(facts, guard, EVENTS)
        if refused is None and status.casefold().startswith("forgotten:"):
            refused = refuse(facts, "tombstone-status", "a forgotten: status is a tombstone; use forget")
        if refused is None and not facts.in_live:
            refused = refuse(facts, "no-match", "no item with this id in the live checkpoint")
        if refused is None and facts.lifecycle == "forgotten":
            refused = refuse(facts, "forgotten", "the item is forgotten")
        if refused:
            refusals.append(refused)
            continue
        writes.append(PlannedWrite(
            item_id=facts.item_id, op="resolve", ledger=EVENTS, status=status, note=data.note,
            record=f"events.jsonl resolution {facts.item_id} status {status!r}, source ui"))
    ok = [f for f in items if f.item_id in {w.item_id for w in writes}]
    effects = [
        RESOLVED_EFFECT,
        *_corroboration_effect(ok, "by the resolution"),
        "the resolution time becomes the item's last-verified time",
        "mark and badges: the row leaves the briefing; under withheld (h) it reads resolved with its status",
    ]
    warnings = [f"{w.item_id}: the world-check CONFIRMED its claim; resolving says the world changed"
                for w in writes if w.item_id in data.world_confirmed]
    warnings += [f"{f.item_id} is already {f.lifecycle}; another resolution is appended"
                 for f in ok if f.lifecycle in ("resolved", "superseded")]
    return Plan(verb="resolve", project=project, writes=tuple(writes), refusals=tuple(refusals),
                effects=tuple(effects), warnings=tuple(warnings), items=tuple(items))


def plan_retract(project: str, items: list[ItemFacts], guard: StoreGuard, data: RetractInput) -> Plan:
    writes, refusals = [], []
    for facts in items:
        refused = common_refusal(facts, guard, TRUST)
        if refused is None and "retract" in guard.verbs_off:
            refused = refuse(facts, "safe-mode", guard.verbs_off["retract"])
        if refused is None and facts.lifecycle == "quarantined":
            refused = refuse(facts, "already-retracted", f"already quarantined ({facts.quarantine_id})")
        if refused is None and (facts.text is None or facts.lifecycle in ("forgotten", "absent")):
            refused = refuse(facts, "no-match", "no readable item with this id")
        if refused is None and facts.value_refused:
            refused = refuse(facts, "text-too-short", f"daimon refuses it: {facts.value_refused}")
        if refused is None and not data.reason.strip():
            refused = refuse(facts, "reason-required", "a retraction needs a reason")
        if refused is None and not data.evidence:
            refused = refuse(facts, "evidence-required", "a retraction needs at least one evidence source")
        if refused:
            refusals.append(refused)
            continue
        writes.append(PlannedWrite(
            item_id=facts.item_id, op="quarantine", ledger=TRUST, kind=facts.kind,
            reason=data.reason, evidence=data.evidence,
            record=f"trust.jsonl quarantined ({facts.kind}), channel ui, active immediately"))
    effects = [
        "retract hides every item with this text, including future captures "
        "(same kind, any session, any id)",
        *[f"{f.item_id}: {f.copies} cop{'y' if f.copies == 1 else 'ies'} of this value held now"
          for f in items if f.copies > 1 and f.item_id in {w.item_id for w in writes}],
        "corroboration is kept: a release brings the item back as it was",
        "a release does not erase the quarantine: its record stays in trust.jsonl (and the team's copy), "
        "marked released",
        "mark and badges: the rows leave the briefing; under withheld (h) they read quarantined, without text",
    ]
    return Plan(verb="retract", project=project, writes=tuple(writes), refusals=tuple(refusals),
                effects=tuple(effects), items=tuple(items))


def restore_write(facts: ItemFacts, guard: StoreGuard, note: str = "") -> PlannedWrite | Refusal:
    """What `restore` would write for one item, or why it must not."""
    if facts.lifecycle == "quarantined":
        refused = common_refusal(facts, guard, TRUST)
        if refused:
            return refused
        if not facts.quarantine_id:
            return refuse(facts, "teammate-quarantine", "a teammate quarantined this value; they release it")
        return PlannedWrite(item_id=facts.item_id, op="release", ledger=TRUST,
                            quarantine_id=facts.quarantine_id,
                            record=f"trust.jsonl released {facts.quarantine_id}, channel ui")
    refused = common_refusal(facts, guard, EVENTS)
    if refused:
        return refused
    if facts.lifecycle == "forgotten":
        if not facts.forgotten_key:
            return refuse(facts, "already-lifted", "nothing in this project withholds that value")
        return PlannedWrite(item_id=facts.item_id, op="unforget", ledger=EVENTS, note=note,
                            record="events.jsonl lift rows (reopened:unforget) on every ref of the key, "
                                   "source ui")
    if facts.lifecycle not in ("resolved", "superseded"):
        return refuse(facts, "nothing-to-restore", f"the item is {facts.lifecycle}; nothing to restore")
    latest = facts.latest
    if latest is None or latest.source not in HUMAN_SOURCES:
        source = latest.source if latest else "unknown"
        return refuse(facts, "machine-verdict",
                       f"the closing record was written by {source!r}, not a person; "
                       "restore undoes only a human verdict (use reverify with evidence)")
    if facts.lifecycle == "superseded" and facts.substitute_live:
        return refuse(facts, "live-substitute",
                       f"superseded by {facts.substitute_id}, which is live; restoring would put two "
                       "contradictory items back in circulation")
    return PlannedWrite(item_id=facts.item_id, op="reopen", ledger=EVENTS, status="reopened", note=note,
                        undoes=latest.status,
                        record=f"events.jsonl reopened {facts.item_id} (undoes {latest.status!r}), source ui")


def plan_restore(project: str, items: list[ItemFacts], guard: StoreGuard) -> Plan:
    writes, refusals = [], []
    for facts in items:
        got = restore_write(facts, guard)
        (writes if isinstance(got, PlannedWrite) else refusals).append(got)
    ops = {w.op for w in writes}
    facts_of = {f.item_id: f for f in items}
    effects = []
    if "reopen" in ops:
        effects.append("the item shows in the briefing again; its stale mark resets (a reopen counts as "
                       "verified now)")
        effects.append("corroboration lost at the resolution does not come back")
        effects.append("mark and badges: the stored trust mark returns, not ? unverified; no ×N badge")
    if "release" in ops:
        effects.append("every item with this value shows again, corroboration intact")
        effects.append("mark and badges: as before the retraction")
        effects.append("the quarantine is not erased: its record, reason and evidence stay in trust.jsonl, "
                       "marked released")
    if "unforget" in ops:
        effects.append("the content does NOT come back: it was removed from every surface; the lift "
                       "only lets a future capture admit the value again")
    # seed 003: a restore must not rewrite what was believed when, and a reopen
    # claims a verification nobody made
    warnings = []
    for w in writes:
        latest = facts_of[w.item_id].latest
        if w.op == "reopen" and latest is not None:
            warnings.append(f"{w.item_id}: withheld since {latest.ts} ({safe_status(latest.status)}); the reopen "
                            "is appended, so that interval stays in daimon's record")
            warnings.append(f"{w.item_id}: the reopen makes it read as verified now, though nothing re-checked "
                            "the world; use reverify with evidence if you did check")
    return Plan(verb="restore", project=project, writes=tuple(writes), refusals=tuple(refusals),
                effects=tuple(effects), warnings=tuple(warnings), items=tuple(items))


def plan_reverify(project: str, items: list[ItemFacts], guard: StoreGuard, data: ReverifyInput) -> Plan:
    """daimon's evidence gate (`cli/lifecycle.py` `_cmd_reverify`): exact id in
    the live body; a quarantined one needs evidence; else an anchor that checks
    live, typed evidence, or rejecting a serializer supersede candidate."""
    writes, refusals = [], []
    evidence = data.evidence.strip()
    for facts in items:
        refused = common_refusal(facts, guard, EVENTS)
        if refused is None and not facts.in_live:
            refused = refuse(facts, "no-match", f"no item found with id {facts.item_id!r}")
        note = None
        if refused is None:
            if facts.lifecycle == "quarantined":
                note = f"evidence: {evidence}" if evidence else None
            elif facts.anchor_live:
                note = "reverified: anchor live" + (f"; {evidence}" if evidence else "")
            elif evidence:
                note = f"evidence: {evidence}"
            elif facts.serializer_candidate:
                note = "candidate rejected"
            if note is None:
                refused = refuse(facts, "evidence-required",
                                  "re-stamping without evidence would mark an unchecked claim verified; "
                                  "supply evidence, or fix the anchored code and retry")
        if refused:
            refusals.append(refused)
            continue
        writes.append(PlannedWrite(item_id=facts.item_id, op="reverify", ledger=EVENTS, status="reopened",
                                   note=note or "", evidence=(evidence,) if evidence else (),
                                   record=f"events.jsonl reopened {facts.item_id}, source ui"))
    effects = ["the item is live again and its stale mark clears (the reopen is its newest verification)",
               "the stored trust class is not changed; lost corroboration does not come back",
               "a human reopen silences future supersede re-detection for this id",
               "mark and badges: ? unverified clears; the stored trust mark is unchanged"]
    return Plan(verb="reverify", project=project, writes=tuple(writes), refusals=tuple(refusals),
                effects=tuple(effects), items=tuple(items))


def plan_forget(project: str, facts: ItemFacts, guard: StoreGuard, data: ForgetInput | None = None) -> Plan:
    """Forget one item. Without `data` (or with a wrong typed id) the plan is a
    preview whose write is still held back by `confirm_id`."""
    refused = common_refusal(facts, guard, EVENTS)
    if refused is None and (facts.lifecycle in ("forgotten", "absent")
                            or (facts.text is None and facts.lifecycle != "quarantined")):
        refused = refuse(facts, "no-match", "no item with this id holds a value to forget")
    if refused is None and data is not None and data.typed_id.strip() != facts.item_id:
        refused = refuse(facts, "typed-id-mismatch", "the typed id does not match; nothing is removed")
    reach = facts.reach or ForgetReach()
    effects = ["irreversible: the value is removed from the live checkpoint, every retained session "
               "file, prev-N copies, team copies, caches and logs",
               "the value is suppressed from every future capture; unforget lifts the suppression only"]
    if reach.siblings:
        effects.append("also removed — ids holding the same value: " + ", ".join(reach.siblings))
    if reach.ledger_records:
        effects.append("also removed — ledger records reached by value or id: "
                       + ", ".join(reach.ledger_records))
    if reach.quarantines:
        effects.append(f"prose redacted in quarantine(s) {', '.join(reach.quarantines)}; "
                       "records kept, the quarantine still withholds")
    effects.append("mark and badges: the row disappears; withheld (h) lists only its id, kind and when")
    effects.append("relation edges touching these ids are deleted; older session receipts will read "
                   "mismatch (a forget scrub, not tampering)")
    warnings = []
    if reach.active_rulings:
        warnings.append("WARNING — this removes ACTIVE ruling(s): " + ", ".join(reach.active_rulings))
    warnings.append("the tombstone row is written by daimon's forget step with source \"cli\" "
                    "(daimon 0.61 has no ui channel for it); this app's log records it was you")
    write = PlannedWrite(item_id=facts.item_id, op="forget", ledger=EVENTS, channel="cli",
                         note=data.reason if data else "",
                         record=f"events.jsonl tombstone forgotten:<key> on {facts.item_id} "
                                f"and {len(reach.siblings)} sibling(s), then daimon's forget run")
    return Plan(verb="forget", project=project, writes=() if refused else (write,),
                refusals=(refused,) if refused else (), effects=tuple(effects), warnings=tuple(warnings),
                items=(facts,), irreversible=True, confirm_id=facts.item_id)


# ---- what a write did -------------------------------------------------------------

WriteOutcome = Literal["applied", "not-applied", "refused", "failed"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WriteResult(Record):
    """One write and daimon's verdict re-read afterwards. `outcome` is
    `applied` only when daimon's own judgement changed as intended;
    `not-applied` means the write returned but daimon's state did not move.
    `rows` are the rows daimon appended for it, one log record each."""

    item_id: str
    op: Op
    outcome: WriteOutcome
    code: str = ""
    message: str = ""
    ledger: str | None = None
    ref: str | None = None
    status: str | None = None
    ts: str | None = None
    before: str | None = None
    after: str | None = None
    undid: str | None = None
    rows: tuple[WrittenRow, ...] = ()


def logged_records(result: WriteResult) -> tuple[LoggedRecord, ...]:
    """The action log's records for one write: one per row daimon appended,
    with daimon's word and time; a write that appended nothing (refused,
    failed) is one record without a status. Ids, codes and daimon
    references only: never text, note or evidence."""
    undid = safe_status(result.undid)
    if not result.rows:
        return (LoggedRecord(item_id=result.item_id, op=result.op, outcome=result.outcome, reason=result.code,
                             ledger=result.ledger, ref=result.ref, ts=result.ts, undid=undid),)
    return tuple(LoggedRecord(item_id=result.item_id, op=result.op, outcome=result.outcome, reason=result.code,
                              ledger=row.ledger, ref=row.ref, status=logged_status(result.op, row.status),
                              ts=row.ts, undid=undid)
                 for row in result.rows)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Outcome(Record):
    """What a verb did, for the screen that ran it."""

    verb: VerbName
    status: Literal["applied", "partial", "refused", "failed", "not-applied", "cancelled"]
    results: tuple[WriteResult, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    action_id: str | None = None
    message: str = ""


def summarize(verb_name: VerbName, results: tuple[WriteResult, ...], refusals: tuple[Refusal, ...]) -> str:
    applied = [r for r in results if r.outcome == "applied"]
    failed = [r for r in results if r.outcome != "applied"]
    if not results and refusals:
        return "refused: " + "; ".join(
            f"{r.item_id}: {r.reason}" if r.item_id else r.reason for r in refusals)
    parts = []
    if applied:
        parts.append(f"{verb(verb_name).title.lower()}: daimon now says "
                     + ", ".join(f"{r.item_id} {r.after}" for r in applied))
    for r in failed:
        parts.append(f"{r.item_id}: {r.outcome} — {r.message}")
    for r in refusals:
        parts.append(f"{r.item_id}: refused — {r.reason}")
    return "; ".join(parts)


def outcome_status(results: tuple[WriteResult, ...], refusals: tuple[Refusal, ...]) -> str:
    if not results:
        return "refused"
    outcomes = {r.outcome for r in results}
    if outcomes == {"applied"}:
        return "partial" if refusals else "applied"
    if "applied" in outcomes:
        return "partial"
    if "failed" in outcomes:
        return "failed"
    if "refused" in outcomes:
        return "refused"
    return "not-applied"
