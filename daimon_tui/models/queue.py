"""The triage queue as the queue view holds it: its entries, each an item or a row of daimon's decide
queue (read by `store/read/queue.py`)."""

from __future__ import annotations

import dataclasses

from daimon_tui.models import Diagnostic, Item, ProjectRef
from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RulingBinding(Record):
    """What the person is shown and signs: daimon's content binding computed
    from the record as displayed (`cli/ruling.py`'s ceremony). A ratify carries
    these; daimon's fold ignores it when the text moved since."""

    verdict_key: str = ""
    check_sha256: str = ""
    policy_sha256: str = ""
    pending_revision: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DecideRecord(Record):
    """One row of daimon's decide queue (or a relation proposal), masked text only."""

    kind: str
    id: str
    headline: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    context: str = ""
    waiting_since: str | None = None
    blocking: bool = False
    item_ids: tuple[str, ...] = ()
    binding: RulingBinding | None = None
    withheld: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class QueueEntry(Record):
    key: str
    kind: str
    ref: str
    title: str
    why: str
    verbs: tuple[str, ...] = ()
    item: Item | None = None
    record: DecideRecord | None = None
    blocking: bool = False
    stale_days: float | None = None
    waiting_since: str | None = None
    seq: int = 0
    substitute_id: str | None = None
    prefill_status: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TriageQueue(Record):
    project: ProjectRef
    entries: tuple[QueueEntry, ...] = ()
    notes: tuple[Diagnostic, ...] = ()
    now: float = 0.0

    def find(self, key: str) -> QueueEntry | None:
        return next((e for e in self.entries if e.key == key), None)
