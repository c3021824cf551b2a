"""The only place that calls daimon's write modules.

Every write is a person's verdict on the `ui` channel/source with
`writer=Writer.HUMAN`, and follows one shape: re-check the gate on daimon's
state now (the same pure gate the preview used), refuse under the kill switch,
preflight the ledger with `jsonl.require_writable`, write inside
`jsonl.surface_refusals()` (a refusal raises instead of answering False), then
RE-READ daimon's own verdict and report whether it actually changed.

daimon folds `events.jsonl` by one-second `ts`, and a reopen wins a same-second
tie, so every event write on an id waits until the wall clock has passed the
second of that id's latest event (see `Timing`).
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from daimon_tui.domain import verbs
from daimon_tui.models import ProjectRef
from daimon_tui.models.writes import WrittenRow
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import Writer, config, forget, jsonl, normalize, store, trust, view
from daimon_tui.store.daimon_api.public import api as dapi
from daimon_tui.store.write import plans
from daimon_tui.store.write.rows_written import Row, Tail

_TS = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True, slots=True)
class Timing:
    """Clock and sleep used to land a record at a later second than the one
    before it. Injectable so tests can prove the wait without sleeping."""

    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    sleep: Callable[[float], None] = time.sleep
    max_wait: float = 2.0

    def wait_past(self, ts: str | None) -> float:
        """Sleep until the current second is strictly after `ts`. Returns the
        seconds waited (0 when already later or `ts` is not a stamp)."""
        if not ts:
            return 0.0
        try:
            stamped = datetime.strptime(ts, _TS).replace(tzinfo=UTC)
        except ValueError:
            return 0.0
        target = stamped + timedelta(seconds=1)
        waited = 0.0
        while waited < self.max_wait:
            delta = (target - self.now()).total_seconds()
            if delta <= 0:
                break
            step = min(delta + 0.02, self.max_wait - waited)
            self.sleep(step)
            waited += step
        return waited


DEFAULT_TIMING = Timing()


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _result(item_id: str, op: verbs.Op, outcome: verbs.WriteOutcome, **kw) -> verbs.WriteResult:
    return verbs.WriteResult(item_id=item_id, op=op, outcome=outcome, **kw)


def _ledger_path(project: ProjectRef, ledger: str):
    return store.ledger_file(project.target, ledger)


# (device, inode) of a ledger file, or None while it does not exist yet
Identity = tuple[int, int] | None


def _identity(path: Path) -> Identity:
    """The ledger file we are about to write, checked at this moment: inside
    the checkpoint dir once symlinks are resolved, and a regular file. A
    symlink swapped in after the preview is refused here, not followed."""
    if not paths.inside(paths.checkpoint_root(), path):
        raise _Refused("ledger-outside-store", f"{path} leads outside daimon's checkpoint dir; nothing written")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _Refused("ledger-unreadable", f"{path}: {exc.strerror or type(exc).__name__} "
                                            f"(errno {exc.errno}); nothing written") from exc
    if not stat.S_ISREG(st.st_mode):
        raise _Refused("ledger-not-a-file", f"{path} is not a regular file; nothing written")
    return st.st_dev, st.st_ino


def _torn_tail(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            if handle.seek(0, os.SEEK_END) == 0:
                return False
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) != b"\n"
    except OSError:
        return False  # absent or unreadable: require_writable judges it


def _preflight(project: ProjectRef, ledger: str) -> tuple[Path, Identity]:
    if config.is_disabled():
        raise _Refused("disabled", "daimon is disabled (DAIMON_DISABLE): nothing is written")
    path = _ledger_path(project, ledger)
    if path is None:
        raise _Refused("unknown-project", "daimon does not know this project")
    identity = _identity(path)
    if _torn_tail(path):
        # daimon's ledger health reports a torn line; a person's verdict is not
        # appended after it until `daimon ledger repair` has looked at it
        raise _Refused("ledger-torn", f"{path} ends in a torn line (an interrupted write); "
                                      "run `daimon ledger repair`; nothing written")
    jsonl.require_writable(path, Writer.HUMAN)
    return path, identity


def _still_same(path: Path, before: Identity) -> str | None:
    """Why the ledger written is not the file checked before the write, or None."""
    try:
        after = _identity(path)
    except _Refused as exc:
        return str(exc).replace("; nothing written", "")
    if after is None or (before is not None and after != before):
        return f"{path} was replaced while it was written"
    return None


def _guarded(item_id: str, op: verbs.Op, ledger: str, project: ProjectRef,
             write: Callable[[], verbs.WriteResult]) -> verbs.WriteResult:
    """Preflight, run `write` with refusals surfaced, and turn every refusal or
    exception into a result: nothing here raises to the caller."""
    try:
        with jsonl.surface_refusals():
            path, before = _preflight(project, ledger)
            result = write()
        swapped = _still_same(path, before)
        if swapped is not None:
            return _result(item_id, op, "failed", code="ledger-swapped", ledger=ledger,
                           message=f"{swapped}: the record may not be in daimon's ledger")
        return result
    except _Refused as exc:
        return _result(item_id, op, "refused", code=exc.code, message=str(exc), ledger=ledger)
    except jsonl.Refused as exc:
        return _result(item_id, op, "refused", code="ledger-unwritable", message=str(exc), ledger=ledger)
    except trust.TrustError as exc:
        return _result(item_id, op, "refused", code="daimon-refused", message=str(exc), ledger=ledger)
    except Exception as exc:  # report, never crash the app; the type names the cause
        return _result(item_id, op, "failed", code="exception", ledger=ledger,
                       message=f"the write failed ({type(exc).__name__})")


def _check(plan_or_write: verbs.PlannedWrite | verbs.Refusal | verbs.Plan) -> verbs.PlannedWrite:
    if isinstance(plan_or_write, verbs.Refusal):
        raise _Refused(plan_or_write.code, plan_or_write.reason)
    if isinstance(plan_or_write, verbs.Plan):
        if plan_or_write.refusals:
            refusal = plan_or_write.refusals[0]
            raise _Refused(refusal.code, refusal.reason)
        return plan_or_write.writes[0]
    return plan_or_write


def _facts(project: ProjectRef, item_id: str, **kw) -> verbs.ItemFacts:
    return plans.item_facts(project, item_id, **kw)


def _tail(project: ProjectRef, ledger: str) -> Tail:
    return Tail(_ledger_path(project, ledger), ledger)


def _rows(tail: Tail, op: verbs.Op, keep: Callable[[Row], bool]) -> tuple[WrittenRow, ...]:
    """The rows daimon appended for this write, each with daimon's word and time."""
    return tuple(WrittenRow(ledger=r.ledger, ref=r.ref, status=verbs.logged_status(op, r.word), ts=r.ts)
                 for r in tail.rows(keep))


def _ui_rows_of(item_id: str) -> Callable[[Row], bool]:
    return lambda row: row.ref == item_id and row.source == "ui"


def _latest_ts(project: ProjectRef, item_id: str) -> str | None:
    events = view.item_events(project.target, item_id)
    stamps = [e.ts for e in events if e.ts]
    return max(stamps) if stamps else None


@dataclass(frozen=True, slots=True)
class Appended:
    """What the app appended: enough to know its row in daimon's ledger."""

    status: str
    note: str
    since: str  # the second the append started: the row is stamped no earlier


def _append(project: ProjectRef, item_id: str, status: str, note: str, timing: Timing) -> Appended:
    timing.wait_past(_latest_ts(project, item_id))
    since = datetime.now(UTC).strftime(_TS)
    ok = store.append_event(item_id, status, note=note, source="ui", project_dir=project.target,
                            writer=Writer.HUMAN)
    if not ok:
        raise _Refused("not-written", f"event not written: {_why_not_written(project)}")
    return Appended(status, note, since)


def _why_not_written(project: ProjectRef) -> str:
    """daimon's append answers only False; name the cause, the file and the
    OS error where one can be found (it swallows the OSError itself)."""
    if config.is_disabled():
        return "daimon is disabled (DAIMON_DISABLE)"
    path = _ledger_path(project, verbs.EVENTS)
    if path is None:
        return "daimon does not know this project"
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o600))
        space = os.statvfs(path.parent)
    except OSError as exc:
        return f"{path}: {exc.strerror or type(exc).__name__} (errno {exc.errno})"
    if space.f_bavail == 0:
        return f"{path}: {os.strerror(errno.ENOSPC)} (errno {errno.ENOSPC})"
    return f"the append to {path} failed (daimon swallowed the OS error)"


def _lifecycle(project: ProjectRef, item_id: str) -> tuple[str, object]:
    lineage = view.lineage(project.target, item_id)
    return lineage.lifecycle, lineage.latest


def _is_ours(latest: object, wrote: Appended) -> bool:
    """daimon's latest record for the item is the row this write appended:
    the `ui` source, its status, stamped no earlier than the append, and its
    note (where daimon shows one): never an older `ui` row, nor another
    instance's row that landed meanwhile."""
    note = getattr(latest, "note", None)
    return (latest is not None and getattr(latest, "source", None) == "ui"
            and str(getattr(latest, "status", None) or "").lower() == wrote.status.lower()
            and str(getattr(latest, "ts", None) or "") >= wrote.since
            and (note is None or note == wrote.note))


def _event_verdict(project: ProjectRef, item_id: str, op: verbs.Op, wrote: Appended, before: str,
                   want: tuple[str, ...], tail: Tail, undid: str | None = None) -> verbs.WriteResult:
    status = wrote.status
    word, latest = _lifecycle(project, item_id)
    ours = _is_ours(latest, wrote)
    outcome = "applied" if ours and word in want else "not-applied"
    message = ""
    if outcome != "applied":
        message = (f"daimon's latest record for {item_id} is not this write's row; it judges {item_id} {word}"
                   if latest is not None and not ours else
                   f"daimon still judges {item_id} {word}; the record did not take effect")
    return _result(item_id, op, outcome, code="" if outcome == "applied" else "state-unchanged",
                   message=message, ledger=verbs.EVENTS, ref=item_id, status=verbs.safe_status(status),
                   ts=latest.ts if latest is not None else None, before=before, after=word,
                   undid=verbs.safe_status(undid) if undid else None,
                   rows=_rows(tail, op, _ui_rows_of(item_id)))


# ---- the verbs ------------------------------------------------------------------------


def resolve(item_id: str, status: str = "resolved", note: str = "", *, project: ProjectRef,
            timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id)
        _check(verbs.plan_resolve(project.slug, [facts], plans.store_guard(project),
                                  verbs.ResolveInput(status=status, note=note)))
        tail = _tail(project, verbs.EVENTS)
        wrote = _append(project, item_id, status, note, timing)
        return _event_verdict(project, item_id, "resolve", wrote, facts.lifecycle,
                              ("resolved", "superseded"), tail)

    return _guarded(item_id, "resolve", verbs.EVENTS, project, write)


def reopen(item_id: str, note: str = "", *, project: ProjectRef,
           timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """Restore a person's resolution (refuses a machine verdict and an item
    whose live substitute superseded it)."""
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id)
        planned = _check(verbs.restore_write(facts, plans.store_guard(project), note))
        if planned.op != "reopen":
            raise _Refused("wrong-restore", f"{item_id} is {facts.lifecycle}; it is not reopened by an event")
        tail = _tail(project, verbs.EVENTS)
        wrote = _append(project, item_id, "reopened", note, timing)
        return _event_verdict(project, item_id, "reopen", wrote, facts.lifecycle, ("active",), tail,
                              undid=planned.undoes)

    return _guarded(item_id, "reopen", verbs.EVENTS, project, write)


def reverify(item_id: str, evidence: str = "", *, project: ProjectRef,
             timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """daimon's evidence-gated reopen (`_cmd_reverify`), on the `ui` source."""
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id)
        planned = _check(verbs.plan_reverify(project.slug, [facts], plans.store_guard(project),
                                             verbs.ReverifyInput(evidence=evidence)))
        tail = _tail(project, verbs.EVENTS)
        wrote = _append(project, item_id, "reopened", planned.note, timing)
        return _event_verdict(project, item_id, "reverify", wrote, facts.lifecycle, ("active",), tail)

    return _guarded(item_id, "reverify", verbs.EVENTS, project, write)


def _quarantine_record_ts(project: ProjectRef, quarantine_id: str | None) -> str | None:
    if not quarantine_id:
        return None
    record = trust.get(quarantine_id, project_dir=project.target) or {}
    stamp = record.get("updated_at")
    return str(stamp) if stamp else None


def quarantine(item_id: str, reason: str, evidence: tuple[str, ...], *, project: ProjectRef,
               timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """Retract: daimon's human quarantine on `channel="ui"`, keyed by value."""
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id)
        _check(verbs.plan_retract(project.slug, [facts], plans.store_guard(project),
                                  verbs.RetractInput(reason=reason, evidence=tuple(evidence))))
        text = facts.text or ""
        prior = trust.make_id(facts.kind, store.project_slug(config.resolve_project_dir(project.target)),
                              trust.value_key(text))
        timing.wait_past(_quarantine_record_ts(project, prior))
        tail = _tail(project, verbs.TRUST)
        qid = str(trust.propose(text=text, kind=facts.kind, reason=reason, evidence=list(evidence),
                                channel="ui", item_id=item_id, project_dir=project.target))
        after = dapi.lookup(project.target, item_id)
        ok = isinstance(after, view.Withheld) and after.reason == "quarantine" and after.quarantine_id == qid
        return _result(item_id, "quarantine", "applied" if ok else "not-applied",
                       code="" if ok else "state-unchanged",
                       message="" if ok else f"daimon does not withhold {item_id} after the quarantine",
                       ledger=verbs.TRUST, ref=qid, ts=_quarantine_record_ts(project, qid),
                       before=facts.lifecycle, after="quarantined" if ok else _state_word(project, item_id),
                       rows=_rows(tail, "quarantine", lambda row: row.ref == qid))

    return _guarded(item_id, "quarantine", verbs.TRUST, project, write)


def release(item_id: str, *, project: ProjectRef, timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """Restore a retraction: release the item's own active quarantine."""
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id)
        planned = _check(verbs.restore_write(facts, plans.store_guard(project)))
        if planned.op != "release" or not planned.quarantine_id:
            raise _Refused("not-quarantined", f"{item_id} is {facts.lifecycle}, not quarantined")
        timing.wait_past(_quarantine_record_ts(project, planned.quarantine_id))
        tail = _tail(project, verbs.TRUST)
        trust.release(planned.quarantine_id, channel="ui", project_dir=project.target)
        record = trust.get(planned.quarantine_id, project_dir=project.target) or {}
        after = dapi.lookup(project.target, item_id)
        ok = record.get("state") == "released" and not (
            isinstance(after, view.Withheld) and after.reason == "quarantine")
        return _result(item_id, "release", "applied" if ok else "not-applied",
                       code="" if ok else "state-unchanged",
                       message="" if ok else f"daimon still withholds {item_id}",
                       ledger=verbs.TRUST, ref=planned.quarantine_id, ts=record.get("updated_at"),
                       before="quarantined", after=_state_word(project, item_id),
                       rows=_rows(tail, "release", lambda row: row.ref == planned.quarantine_id))

    return _guarded(item_id, "release", verbs.TRUST, project, write)


def _state_word(project: ProjectRef, item_id: str) -> str:
    return plans.item_facts(project, item_id).lifecycle


def forget_item(item_id: str, typed_id: str, reason: str = "", *, project: ProjectRef,
                approved_rulings: tuple[str, ...] = (), timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """daimon's forget run for one item, after the person typed its id. The
    tombstone carries `source:"cli"`: daimon 0.61's forget step has no channel
    parameter, and re-implementing it to say `ui` would drift from daimon."""
    def write() -> verbs.WriteResult:
        facts = _facts(project, item_id, with_reach=True)
        _check(verbs.plan_forget(project.slug, facts, plans.store_guard(project),
                                 verbs.ForgetInput(typed_id=typed_id, reason=reason)))
        raw = plans._raw_item(project, item_id)
        text = str((raw or {}).get("text") or facts.text or "")
        key = normalize.content_key(text)
        checkpoint = store.read_latest_body(project_dir=project.target, route=store.Route.OWN,
                                            admit=store.Admit.ANY)
        sid = str((checkpoint or {}).get("session_id") or "") if isinstance(checkpoint, dict) else ""
        if isinstance(checkpoint, dict) and not sid:
            raise _Refused("no-session-id", "the live checkpoint has no session_id; daimon cannot rewrite it")
        ids = forget.siblings(project.target, key, item_id)
        allowed = set(approved_rulings)

        def approve(rulings: list) -> str:
            missing = [r for r in rulings if r not in allowed]
            return "" if not missing else ("not removed: active ruling(s) not confirmed in the preview: "
                                           + ", ".join(missing))

        # a tombstone in the same second as a reopen on the id loses the tie
        timing.wait_past(_latest_ts(project, item_id))
        tail = _tail(project, verbs.EVENTS)
        outcome = forget.run(forget.Target(key, item_id, ids, project.target, text,
                                           checkpoint if isinstance(checkpoint, dict) else None, sid, reason),
                             approve_rulings=approve)
        if outcome.refusal:
            raise _Refused("ruling-gate", outcome.refusal)
        if outcome.refused:
            raise _Refused("not-written", "tombstone not written (project unknown or ledger unwritable)")
        after = dapi.lookup(project.target, item_id)
        why = dapi.why(project.target, item_id) or {}
        gone = (isinstance(after, view.Withheld) and after.reason == "forgotten"
                and (why.get("axes") or {}).get("lifecycle") == "forgotten")
        unreached = [u.name for u in outcome.unreached if u.plaintext]
        message = ("" if gone else "daimon does not judge the item forgotten") + (
            f"; surfaces not reached: {', '.join(unreached)} (run: daimon forget --resume)"
            if unreached else "")
        return _result(item_id, "forget", "applied" if gone else "not-applied",
                       code=("unreached-surfaces" if unreached else "") if gone else "state-unchanged",
                       message=message.strip("; "), ledger=verbs.EVENTS, ref=item_id, status=f"forgotten:{key}",
                       before=facts.lifecycle, after="forgotten" if gone else _state_word(project, item_id),
                       rows=_rows(tail, "forget",
                                  lambda row: (row.word or "").lower() == f"forgotten:{key}".lower()))

    return _guarded(item_id, "forget", verbs.EVENTS, project, write)


def unforget(item_id: str, reason: str = "", *, project: ProjectRef,
             timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """Lift a forget with `forget.lift(source="ui")`. The content does not
    come back: the value was removed from every surface; a future capture may
    admit it again."""
    def write() -> verbs.WriteResult:
        view.judge(store.project_slug(config.resolve_project_dir(project.target)))
        key = forget.key_of(project.target, item_id)
        if not key:
            raise _Refused("no-match", "no forgotten item with that id in this project")
        if key not in store.project_standing(project.target):
            raise _Refused("already-lifted", "already lifted: nothing in this project withholds that value")
        timing.wait_past(_latest_ts(project, item_id))
        tail = _tail(project, verbs.EVENTS)
        lifted = forget.lift(project.target, key, reason=reason, source="ui")
        if not lifted.written:
            raise _Refused("not-written", "lift not written (daimon disabled or ledger unwritable)")
        standing = key in store.project_standing(project.target)
        held = key in view.machine_sets()[0]
        ok = not standing and not held
        note = "the content does not come back: only a new capture can bring the value back"
        if held:
            note += "; still withheld by another project or a teammate's published tombstone"
        return _result(item_id, "unforget", "applied" if ok else "not-applied",
                       code="" if ok else "still-withheld", message=note, ledger=verbs.EVENTS, ref=item_id,
                       status=verbs.LIFT_STATUS, before="forgotten",
                       after="lifted" if ok else "forgotten",
                       rows=_rows(tail, "unforget",
                                  lambda row: row.word == verbs.LIFT_STATUS and row.ref in lifted.refs))

    return _guarded(item_id, "unforget", verbs.EVENTS, project, write)


def restore(item_id: str, note: str = "", *, project: ProjectRef,
            timing: Timing = DEFAULT_TIMING) -> verbs.WriteResult:
    """Whatever restore means for the item now: release, reopen or unforget."""
    facts = plans.item_facts(project, item_id)
    if facts.lifecycle == "quarantined":
        return release(item_id, project=project, timing=timing)
    if facts.lifecycle == "forgotten":
        return unforget(item_id, note, project=project, timing=timing)
    return reopen(item_id, note, project=project, timing=timing)


def apply_write(planned: verbs.PlannedWrite, *, project: ProjectRef, timing: Timing = DEFAULT_TIMING,
                typed_id: str = "", approved_rulings: tuple[str, ...] = ()) -> verbs.WriteResult:
    """Carry out one planned write. Each verb re-checks its gate on daimon's
    state now, so a plan that went stale between preview and confirm is
    refused, never half-applied."""
    item = planned.item_id
    if planned.op == "resolve":
        result = resolve(item, planned.status or "resolved", planned.note, project=project, timing=timing)
    elif planned.op == "reopen":
        result = reopen(item, planned.note, project=project, timing=timing)
    elif planned.op == "reverify":
        evidence = planned.evidence[0] if planned.evidence else ""
        result = reverify(item, evidence, project=project, timing=timing)
    elif planned.op == "quarantine":
        result = quarantine(item, planned.reason, planned.evidence, project=project, timing=timing)
    elif planned.op == "release":
        result = release(item, project=project, timing=timing)
    elif planned.op == "forget":
        result = forget_item(item, typed_id, planned.note, project=project,
                             approved_rulings=approved_rulings, timing=timing)
    else:
        result = unforget(item, planned.note, project=project, timing=timing)
    return result


def apply_plan(plan: verbs.Plan, *, project: ProjectRef, timing: Timing = DEFAULT_TIMING,
               typed_id: str = "", approved_rulings: tuple[str, ...] = ()) -> tuple[verbs.WriteResult, ...]:
    """One record per planned write (a batch writes one record per item)."""
    return tuple(apply_write(w, project=project, timing=timing, typed_id=typed_id,
                             approved_rulings=approved_rulings) for w in plan.writes)
