"""A verb's writes, carried out by the judging child.

daimon's write checks the item before and after the append (`lineage`), and
each check needs the folded snapshot. The child already holds it (it just
built the preview), so the write there costs the append and a fold of the
appended row, where in the app's process it cost a fold of the whole kept
state first, with the GIL shared with Textual. The write itself is still
`writer.apply_plan`, unchanged: the `ui` source, daimon's kill switch, locks
and write gate, the re-read verdict.

The app's side keeps the write-ahead rule: the caller logs the intent
(fsynced) before `apply`, and settles it after. If the child does not answer,
whether each write landed is daimon's ledgers' to say (as on a restart,
`recovery.landed`): a write that landed is reported from daimon's record, one
that did not is carried out in this process (its gate re-checked on daimon's
state now), and one that cannot be told is a failure, never a success.

A child that hangs (a fold that never ends, a stopped process) is given
`WRITE_WAIT_S` from the moment the write is asked, queue included: then it
is ended and the write settled from daimon's ledgers as above; `told` is
called with what happened, for the person.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from daimon_tui.domain import verbs
from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord
from daimon_tui.models import ProjectRef
from daimon_tui.models.records import Record
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.child import judge_service
from daimon_tui.store.write import recovery, writer


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Written(Record):
    """What `writer.apply_plan` answered, one result per planned write."""

    results: tuple[verbs.WriteResult, ...]


def write(project: ProjectRef, plan: dict, typed_id: str = "", approved_rulings: list[str] | None = None) -> Written:
    """`writer.apply_plan` from the request's JSON (the child's side)."""
    return Written(results=writer.apply_plan(verbs.Plan.model_validate(plan), project=project, typed_id=typed_id,
                                             approved_rulings=tuple(approved_rulings or ())))


# How long a confirmed write waits for the judging child (queued behind a
# read included) before it is settled from daimon's ledgers instead.
WRITE_WAIT_S = 60.0


async def apply(plan: verbs.Plan, *, project: ProjectRef, intent: ActionEntry, typed_id: str = "",
                approved_rulings: tuple[str, ...] = (), told: Callable[[str], None] | None = None,
                log: ActionLog | None = None) -> tuple[verbs.WriteResult, ...]:
    """The plan's writes by the judging child, after `intent` is logged in
    `log` (whose other actions' rows are never taken for this one's)."""
    service = judge_service.service()
    try:
        written = await asyncio.wait_for(
            service.call("write", project, plan.model_dump(mode="json"), typed_id, list(approved_rulings),
                         model=Written), WRITE_WAIT_S)
    except (judge_service.JudgeFailed, TimeoutError) as failure:
        why = str(failure)
        if isinstance(failure, TimeoutError):
            why = f"no answer within {WRITE_WAIT_S:.0f} s"
            await asyncio.to_thread(service.close)  # a hung child holds nothing the app still waits on
        results = await asyncio.to_thread(_here, plan, project, intent, typed_id, approved_rulings, why, log)
        if told is not None:
            told(_story(why, results))
        return results
    return written.results


def _story(why: str, results: tuple[verbs.WriteResult, ...]) -> str:
    """What became of each write once the child failed, from daimon's ledgers."""
    parts = []
    for result in results:
        if result.code == "recovered":
            parts.append(f"{result.item_id}: daimon's ledger holds the write (at {result.ts})")
        elif result.outcome == "failed" and result.code == "write-unknown":
            parts.append(f"{result.item_id}: daimon's ledgers cannot tell whether it landed")
        else:
            parts.append(f"{result.item_id}: it had not landed; written by the app itself: {result.outcome}")
    return f"The judging child failed ({why}); settled from daimon's ledgers: " + "; ".join(parts)


def _here(plan: verbs.Plan, project: ProjectRef, intent: ActionEntry, typed_id: str, approved_rulings: tuple[str, ...],
          failure: str, log: ActionLog | None = None) -> tuple[verbs.WriteResult, ...]:
    """After the child failed: each write as daimon's ledgers tell it, the
    ones that did not land written here."""
    results = []
    taken = recovery.taken_by_others(log, intent.action_id) if log is not None else frozenset()
    matched = len(intent.records) == len(plan.writes)
    for planned, record in zip(plan.writes, intent.records if matched else (None,) * len(plan.writes),
                               strict=True):
        try:
            if record is None:
                raise recovery.Unknown("the intent does not name this write")
            found = recovery.landed(project, record, intent.time, taken)
        except Exception:  # daimon's ledgers cannot vouch either way
            results.append(_failed(planned, f"the judging child failed ({failure}) and daimon's ledgers cannot "
                                            "tell whether the write landed"))
            continue
        if found is not None:
            results.append(_landed(planned, found))
        else:
            results.append(writer.apply_write(planned, project=project, typed_id=typed_id,
                                              approved_rulings=approved_rulings))
    return tuple(results)


def _landed(planned: verbs.PlannedWrite, found: LoggedRecord) -> verbs.WriteResult:
    return verbs.WriteResult(item_id=planned.item_id, op=planned.op, outcome="applied", code="recovered",
                             ledger=found.ledger,
                             ref=found.ref, status=verbs.safe_status(planned.status) if planned.status else None,
                             ts=found.ts)


def _failed(planned: verbs.PlannedWrite, message: str) -> verbs.WriteResult:
    return verbs.WriteResult(item_id=planned.item_id, op=planned.op, outcome="failed", code="write-unknown",
                             message=message[:300], ledger=planned.ledger)
