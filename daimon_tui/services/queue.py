"""The triage queue: everything waiting on the person, in order
(`store.read.queue`), and one decision on an entry, applied with daimon's own
write modules and logged, intent first (`store.write.decisions`). A decision
comes only from a person at the terminal: the queue view's confirmed key.

`QueueEntry` and `TriageQueue` are the model's (`models.queue`), and so is a decision's
`Verdict` (`models.writes`). The log's reads are `services.action_log`'s."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from daimon_tui.models import ProjectRef
from daimon_tui.models.queue import QueueEntry, TriageQueue
from daimon_tui.models.writes import Verdict
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.read.queue import build_queue, reclassify
from daimon_tui.store.write import decisions

__all__ = [
    "decide",
    "decision_preview",
    "read_queue",
    "with_world_findings",
]


async def read_queue(project: ProjectRef, now: float | None) -> TriageQueue:
    """Everything waiting on the person, ordered (a briefing read and daimon's ledgers)."""
    return await asyncio.to_thread(build_queue, project, now)


def with_world_findings(queue: TriageQueue, contradicted: Mapping[str, str], *, keep: frozenset[str]) -> TriageQueue:
    """The queue with the items a world-check contradicts moved to their lane;
    the entries in `keep` (already seen) stay where they were. No read."""
    return reclassify(queue, contradicted, keep=keep)


def decision_preview(entry: QueueEntry, verb: str) -> tuple[str, ...]:
    """What deciding `entry` with `verb` will write, in words, for the confirmation."""
    return decisions.preview(entry, verb)


async def decide(entry: QueueEntry, verb: str, project: ProjectRef, *, log: ActionLog, evidence: str = "") -> Verdict:
    """Apply one confirmed decision, re-read daimon, log it (intent first). Never raises."""
    return await asyncio.to_thread(decisions.decide, entry, verb, project, log=log, evidence=evidence)
