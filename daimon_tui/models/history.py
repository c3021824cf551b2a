"""An item's history and the project's sessions, as the history views hold them: corroboration witnesses,
the lifecycle timeline, the retained sessions, a diff between two (read by `store/read/history.py`), and
the store as it stood at a moment (`AsOfStore`, cut by `store/read/asof.py`)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Literal

from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SessionSummary(Record):
    session_id: str
    created: str | None = None
    topic: str | None = None
    counts: dict[str, int] = dataclasses.field(default_factory=dict)
    # daimon's tamper check of the session file (`view.receipt_state`):
    # unsigned, missing, match, or mismatch (changed after signing).
    receipt: str | None = None
    # The pointer that still holds it (`latest.json`, `prev-N.json`): what daimon reads.
    pointer: str | None = None


DemotionKind = Literal["resolution", "supersession", "supersede-candidate", "tombstone"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Demotion(Record):
    """A lifecycle row on the bare id that resets corroboration (daimon's demotion rule)."""

    kind: DemotionKind
    ts: str | None
    status: str | None
    source: str | None
    note: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Witness(Record):
    """One corroboration row: `session_id` observed the item at `ts`."""

    session_id: str
    ts: str | None
    source: str | None
    counts: bool
    reset_by: Demotion | None = None
    session_retained: bool = False
    quote: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WitnessReport(Record):
    """Every witness of an item and both of daimon's counts.

    `counted` is daimon's `why` count (witnesses recorded after the latest
    demotion); `badge` is daimon's badge number, 1 (the item itself) +
    `counted`, printed only when it reaches `badge_min`."""

    item_id: str
    witnesses: tuple[Witness, ...] = ()
    demotions: tuple[Demotion, ...] = ()
    latest_demotion_ts: str | None = None
    counted: int = 0
    badge: int = 1
    badge_min: int = 2
    item_quote: str | None = None
    introspection_origin: bool = False
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def badge_shown(self) -> bool:
        return self.badge >= self.badge_min


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TimelineEvent(Record):
    ts: str | None
    kind: str | None
    status: str | None
    source: str | None
    note: str | None
    decides: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SessionHold(Record):
    """One retained pointer generation holding the item (daimon's lineage)."""

    ref: str
    session_id: str | None
    created: str | None
    stated: bool
    carried_from: str | None = None
    trust: str | None = None
    withheld: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Timeline(Record):
    item_id: str
    events: tuple[TimelineEvent, ...] = ()
    sessions: tuple[SessionHold, ...] = ()
    lifecycle: str = "active"
    decided_by: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SessionListing(Record):
    rows: tuple[SessionSummary, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DiffRow(Record):
    """daimon's own change row (`cli.history.changes`), key for key."""

    change: str
    item_id: str
    kind: str
    trust: str | None = None
    previous_trust: str | None = None
    text: str | None = None
    detail: str | None = None
    where: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Generation(Record):
    """One retained pointer of the bucket in daimon's numbering: 0 is
    `latest.json`, N is `prev-N.json` (what `daimon diff --from/--to` take)."""

    index: int
    pointer: str
    session_id: str | None = None
    created: str | None = None
    readable: bool = True


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DiffReport(Record):
    older: str
    newer: str
    rows: tuple[DiffRow, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    older_generation: Generation | None = None
    newer_generation: Generation | None = None
    # A refused address, as daimon's `diff` refuses it: rc 1 unreadable, 2 bad address.
    refused: str | None = None
    refused_rc: int = 0
    skipped: tuple[Generation, ...] = ()


def parse_time(text: str) -> datetime:
    """An ISO-8601 moment (`2026-11-28T12:00:00Z`); a naive one is UTC."""
    moment = datetime.fromisoformat(text.strip())
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class AsOfStore(Record):
    """What the copy holds: the moment, the checkpoint then current, and what
    was left out. `project` is the ref to hand daimon's readers inside the
    `as_of` context."""

    project: ProjectRef
    when: str
    session_id: str | None = None
    label: str = ""
    sessions: tuple[str, ...] = ()
    rows_cut: int = 0
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def timestamp(self) -> float:
        return parse_time(self.when).timestamp()
