"""The person's verdicts on the triage queue, through daimon's own functions.

Ledger verdicts (amendments, relations, quarantine candidates, rulings and
refutations) call daimon's write modules on `channel="ui"`; item verdicts on
agent claims and supersede candidates go through `store.writer` (events on
`source="ui"`). Each one: preflight (kill switch, `jsonl.require_writable`),
write inside `jsonl.surface_refusals()`, RE-READ daimon's record and say
whether it moved, then log ids and codes (never text) to the action log.

A ruling ratify carries the content binding of the text the person was
shown; daimon's fold ignores a ratify whose binding no longer matches, so the
re-read reports "not activated" instead of "done".

Write-ahead like every verb: the intent is in the action log before daimon is
written; a log that cannot take it refuses the verdict.
"""

from __future__ import annotations

from collections.abc import Callable

from daimon_tui.domain import verbs as curation
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord
from daimon_tui.models import ProjectRef
from daimon_tui.models.queue import QueueEntry, RulingBinding
from daimon_tui.models.writes import Verdict, VerdictOutcome, WrittenRow
from daimon_tui.store.action_log import ActionLog, ActionLogError
from daimon_tui.store.daimon_api.public import (
    Writer,
    amendments,
    config,
    jsonl,
    refutations,
    relations,
    requests,
    store,
    trust,
)
from daimon_tui.store.write import writer
from daimon_tui.store.write.rows_written import Tail

AMENDMENTS = "amendments.jsonl"
RELATIONS = "relations.jsonl"
TRUST = "trust.jsonl"
REFUTATIONS = "refutations.jsonl"
EVENTS = "events.jsonl"
REQUESTS = "requests.jsonl"

LEDGER_OF = {
    "amend-ratify": AMENDMENTS,
    "amend-reject": AMENDMENTS,
    "relation-confirm": RELATIONS,
    "relation-reject": RELATIONS,
    "trust-confirm": TRUST,
    "trust-dismiss": TRUST,
    "ruling-ratify": REFUTATIONS,
    "ruling-reject": REFUTATIONS,
    "refutation-ratify": REFUTATIONS,
    "refutation-reject": REFUTATIONS,
    "claim-confirm": EVENTS,
    "claim-reopen": EVENTS,
    "supersede-confirm": EVENTS,
    "supersede-reject": EVENTS,
    "request-accept": REQUESTS,
    "request-reject": REQUESTS,
}

# What each verdict writes and does, for the preview before confirming.
PREVIEW = {
    "amend-ratify": (
        "amendments.jsonl: ratified {ref}, channel ui",
        "the amendment renders as settled (↷ amended) under its loop",
        "an item with a rendered amendment loses its corroboration badge",
    ),
    "amend-reject": (
        "amendments.jsonl: rejected {ref}, channel ui",
        "the unconfirmed amendment stops rendering",
    ),
    "relation-confirm": (
        "relations.jsonl: confirmed {ref}, channel ui",
        "the edge shows in the items' history; the briefing does not change",
    ),
    "relation-reject": ("relations.jsonl: rejected {ref}, channel ui", "the proposal is closed"),
    "trust-confirm": (
        "trust.jsonl: confirmed {ref}, channel ui",
        "the quarantine becomes active: every item of this kind with this value is withheld, "
        "including future captures; a release brings them back",
    ),
    "trust-dismiss": ("trust.jsonl: dismissed {ref}, channel ui", "nothing is withheld"),
    "ruling-ratify": (
        "refutations.jsonl: ratified {ref}, channel ui, bound to the text shown",
        "the ruling is injected as a standing ruling into every future briefing",
        "if the text changed since it was shown, daimon ignores the ratify (not activated)",
    ),
    "ruling-reject": (
        "refutations.jsonl: overturned {ref} (reason rejected), channel ui",
        "a rejected ruling cannot be revived",
    ),
    "refutation-ratify": (
        "refutations.jsonl: ratified {ref}, channel ui, bound to the text shown",
        "the refutation becomes active",
    ),
    "refutation-reject": ("refutations.jsonl: overturned {ref} (reason rejected), channel ui",),
    "claim-confirm": (
        "events.jsonl: resolution {ref} status 'resolved', source ui",
        curation.RESOLVED_EFFECT,
        "corroboration is reset and will not come back on reopen",
    ),
    "claim-reopen": (
        "events.jsonl: reopened {ref} with your evidence, source ui",
        "the agent's claim is settled: the item stays live and counts as verified now",
    ),
    "supersede-confirm": (
        "events.jsonl: resolution {ref} status 'superseded-by:{substitute}', source ui",
        "the item is withheld as superseded by {substitute}",
    ),
    "supersede-reject": (
        "events.jsonl: reopened {ref} note 'candidate rejected', source ui",
        "the item stays live; daimon never suggests this supersession again",
    ),
    "request-accept": (
        "requests.jsonl: accepted {ref}, channel ui",
        "the sender sees the request accepted; this project owes the work or the answer",
    ),
    "request-reject": (
        "requests.jsonl: rejected {ref}, channel ui",
        "a rejection is final for this record; the sender can only open a new request",
    ),
}


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def preview(entry: QueueEntry, verb: str) -> tuple[str, ...]:
    lines = PREVIEW.get(verb, ())
    return tuple(line.format(ref=entry.ref, substitute=entry.substitute_id or "?") for line in lines)


def _preflight(project: ProjectRef, ledger: str) -> None:
    if config.is_disabled():
        raise _Refused("disabled", "daimon is disabled (DAIMON_DISABLE): nothing is written")
    path = store.ledger_file(project.target, ledger)
    if path is None:
        raise _Refused("unknown-project", "daimon does not know this project")
    jsonl.require_writable(path, Writer.HUMAN)


_LEDGER_ERRORS = (
    amendments.AmendmentError,
    relations.RelationError,
    trust.TrustError,
    refutations.RefutationError,
    requests.RequestError,
)


def _ledger_write(
    verb: str,
    ref: str,
    project: ProjectRef,
    state: Callable[[], str | None],
    act: Callable[[], object],
    want: tuple[str, ...],
) -> tuple[VerdictOutcome, str, str, str | None, str | None, tuple[WrittenRow, ...]]:
    ledger = LEDGER_OF[verb]
    try:
        with jsonl.surface_refusals():
            _preflight(project, ledger)
            before = state()
            tail = Tail(store.ledger_file(project.target, ledger), ledger)
            act()
        after = state()
    except _Refused as exc:
        return "refused", exc.code, str(exc), None, None, ()
    except jsonl.Refused as exc:
        return "refused", "ledger-unwritable", str(exc), None, None, ()
    except _LEDGER_ERRORS as exc:
        return "refused", "daimon-refused", str(exc), None, None, ()
    except Exception as exc:
        return "failed", "exception", f"the write failed ({type(exc).__name__})", None, None, ()
    rows = tuple(WrittenRow(ledger=r.ledger, ref=r.ref, status=curation.logged_status(verb, r.word), ts=r.ts)
                 for r in tail.rows(lambda row: row.ref == ref and row.source == "ui"))
    if after in want:
        return "applied", "", "", before, after, rows
    return "not-applied", "state-unchanged", f"daimon still says {after}", before, after, rows


def _state(getter: Callable[..., dict | None], ref: str, project: ProjectRef) -> Callable[[], str | None]:
    def read() -> str | None:
        record = getter(ref, project_dir=project.target)
        return str(record.get("state")) if isinstance(record, dict) else None

    return read


def _request_get(ref: str, project_dir: str | None = None) -> dict | None:
    """A request addressed to this project, folded from every sender's bucket
    (`requests.get` folds only this bucket's own file)."""
    return requests.recipient_join(project_dir).get(ref)


def _ruling_state(ref: str, project: ProjectRef, binding: RulingBinding) -> Callable[[], str | None]:
    """`active`, or `pending` while an accepted revision is still pending."""

    def read() -> str | None:
        record = refutations.get(ref, project_dir=project.target)
        if not isinstance(record, dict):
            return None
        if binding.pending_revision and record.get("revision_proposed"):
            return "pending-revision"
        return str(record.get("state"))

    return read


# Plain ledger verdicts: (record getter, daimon's verb on the ui channel, the
# state daimon must report afterwards for the verdict to count as applied).
_PLAIN_VERDICTS: dict[str, tuple[Callable[..., dict | None], Callable[..., object], tuple[str, ...]]] = {
    "amend-ratify": (amendments.get, amendments.ratify, ("ratified",)),
    "amend-reject": (amendments.get, amendments.reject, ("rejected",)),
    "relation-confirm": (relations.get, relations.confirm, ("confirmed",)),
    "relation-reject": (relations.get, relations.reject, ("rejected",)),
    "trust-confirm": (trust.get, trust.confirm, ("active",)),
    "trust-dismiss": (trust.get, trust.dismiss, ("dismissed",)),
    "ruling-reject": (refutations.get, refutations.retire, ("overturned",)),
    "refutation-reject": (refutations.get, refutations.overturn, ("overturned",)),
    "request-accept": (_request_get, requests.accept, ("accepted",)),
    "request-reject": (_request_get, requests.reject, ("rejected",)),
}


def _ledger_verdict(entry: QueueEntry, verb: str, project: ProjectRef) -> Verdict:
    ref = entry.ref
    target = project.target
    if verb in _PLAIN_VERDICTS:
        getter, act, want = _PLAIN_VERDICTS[verb]
        got = _ledger_write(
            verb, ref, project, _state(getter, ref, project),
            lambda: act(ref, channel="ui", project_dir=target), want,
        )
    elif verb in ("ruling-ratify", "refutation-ratify"):
        binding = entry.record.binding if entry.record and entry.record.binding else RulingBinding()
        if entry.record is not None and entry.record.withheld:
            got = (
                "refused",
                "withheld-text",
                "this record has withheld text; a person signs the whole text or nothing",
                None,
                None,
                (),
            )
        else:
            got = _ledger_write(
                verb,
                ref,
                project,
                _ruling_state(ref, project, binding),
                lambda: refutations.ratify(
                    ref,
                    channel="ui",
                    verdict_key=binding.verdict_key,
                    check_sha256=binding.check_sha256,
                    policy_sha256=binding.policy_sha256,
                    project_dir=target,
                ),
                ("active",),
            )
            if got[0] == "not-applied":
                got = (
                    "not-applied",
                    "not-activated",
                    "not activated: the text changed between display and confirm; review the current text",
                    got[3],
                    got[4],
                    got[5],
                )
    else:
        raise ValueError(verb)
    outcome, code, message, before, after, rows = got
    return Verdict(
        key=entry.key,
        verb=verb,
        ref=ref,
        outcome=outcome,
        code=code,
        message=message,
        ledger=LEDGER_OF[verb],
        before=before,
        after=after,
        rows=rows,
    )


def _from_write(entry: QueueEntry, verb: str, result: curation.WriteResult) -> Verdict:
    return Verdict(
        key=entry.key,
        verb=verb,
        ref=entry.ref,
        outcome=result.outcome,
        code=result.code,
        message=result.message,
        ledger=result.ledger or EVENTS,
        before=result.before,
        after=result.after,
        rows=result.rows,
    )


def _event_verdict(
    entry: QueueEntry, verb: str, project: ProjectRef, evidence: str, timing: writer.Timing
) -> Verdict:
    ref = entry.ref
    if verb == "claim-confirm":
        return _from_write(entry, verb, writer.resolve(ref, "resolved", project=project, timing=timing))
    if verb == "claim-reopen":
        # daimon's reject path for an agent claim is `reverify`, and its gate
        # wants evidence: rejecting a claim vouches the item is still open.
        return _from_write(entry, verb, writer.reverify(ref, evidence, project=project, timing=timing))
    if verb == "supersede-confirm":
        if not entry.substitute_id:
            return Verdict(
                key=entry.key,
                verb=verb,
                ref=ref,
                outcome="refused",
                code="no-substitute",
                message="no substitute id on this candidate",
                ledger=EVENTS,
            )
        return _from_write(
            entry,
            verb,
            writer.resolve(ref, f"{curation.SUPERSEDED_PREFIX}{entry.substitute_id}", project=project, timing=timing),
        )
    if verb == "supersede-reject":
        # the serializer-candidate exception of daimon's reverify gate: no evidence needed
        return _from_write(entry, verb, writer.reverify(ref, "", project=project, timing=timing))
    raise ValueError(verb)


def _ids(entry: QueueEntry) -> tuple[str, ...]:
    ids = tuple(dict.fromkeys((entry.ref, *(entry.record.item_ids if entry.record else ()))))
    return tuple(i for i in ids if i)


def _intend(log: ActionLog, project: ProjectRef, entry: QueueEntry, verb: str) -> ActionEntry:
    planned = LoggedRecord(item_id=entry.ref, op=verb, outcome="intent", ledger=LEDGER_OF[verb], ref=entry.ref)
    return log.intend(project=project.slug, verb=verb, item_ids=_ids(entry), planned=(planned,))


def _log(log: ActionLog, project: ProjectRef, entry: QueueEntry, verdict: Verdict,
         intent: ActionEntry | None = None) -> str | None:
    # one record per row daimon appended, with daimon's word and time
    records = tuple(
        LoggedRecord(item_id=entry.ref, op=verdict.verb, outcome=verdict.outcome, reason=verdict.code,
                     ledger=row.ledger, ref=row.ref, status=row.status, ts=row.ts)
        for row in verdict.rows
    ) or (LoggedRecord(item_id=entry.ref, op=verdict.verb, outcome=verdict.outcome, reason=verdict.code,
                       ledger=verdict.ledger, ref=entry.ref),)
    try:
        if intent is not None:
            logged = log.settle(intent, verdict.outcome, reason=verdict.code, records=records)
        else:
            logged = log.record(project=project.slug, verb=verdict.verb, outcome=verdict.outcome,
                                item_ids=_ids(entry), reason=verdict.code, records=records)
    except OSError:
        # the intent (if any) stays pending: the next start settles it
        return intent.action_id if intent is not None else None
    return logged.action_id

def decide(
    entry: QueueEntry,
    verb: str,
    project: ProjectRef,
    *,
    log: ActionLog | None = None,
    evidence: str = "",
    timing: writer.Timing = writer.DEFAULT_TIMING,
) -> Verdict:
    """Apply one verdict to a queue entry, re-read daimon, log it. Never raises."""
    log = log or ActionLog()
    intent = None
    if verb in entry.verbs and verb in LEDGER_OF:
        try:
            intent = _intend(log, project, entry, verb)
        except ActionLogError as exc:
            return Verdict(key=entry.key, verb=verb, ref=entry.ref, outcome="refused", code="log-unwritable",
                           message=f"nothing was written to daimon: {exc}", ledger=LEDGER_OF[verb])
    if verb not in entry.verbs or verb not in LEDGER_OF:
        verdict = Verdict(
            key=entry.key,
            verb=verb,
            ref=entry.ref,
            outcome="refused",
            code="verb-does-not-fit",
            message=f"{verb} does not apply to a {entry.kind} entry",
        )
    elif LEDGER_OF[verb] == EVENTS:
        verdict = _event_verdict(entry, verb, project, evidence, timing)
    else:
        verdict = _ledger_verdict(entry, verb, project)
    action_id = _log(log, project, entry, verdict, intent)
    return verdict.model_copy(update={"action_id": action_id})
