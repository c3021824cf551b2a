"""What the action log holds, as values: an action's entry, the daimon
records it names, a line as read, the chain's report, what undo would take.

The log itself (our own append-only, hash-chained file, written ahead of each
write) is `store/action_log.py`; the rules over these values (`verbs`) need
none of its I/O.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Literal

from daimon_tui.models.records import Record

GENESIS = "0" * 64
LogOutcome = Literal["applied", "refused", "failed", "not-applied", "world-check", "intent"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LoggedRecord(Record):
    """One record written (or attempted) in daimon's ledgers: references only.
    `status` is a lifecycle word from the app's own vocabulary, never free text."""

    item_id: str
    op: str
    outcome: LogOutcome
    reason: str = ""
    ledger: str | None = None
    ref: str | None = None
    status: str | None = None
    ts: str | None = None
    undid: str | None = None
    # on an intent: `note_digest` of the note the write carries, so recovery
    # tells this write's row from another's on the same item (never the note)
    note: str | None = None


def note_digest(item_id: str, note: str) -> str:
    """A salted hash of a write's note: enough to match daimon's row, no
    text (and not comparable across items)."""
    return hashlib.sha256(f"daimon-tui-note\0{item_id}\0{note}".encode("utf-8", "surrogatepass")).hexdigest()[:24]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ActionEntry(Record):
    action_id: str
    time: str
    user: str
    project: str
    verb: str
    item_ids: tuple[str, ...] = ()
    outcome: LogOutcome
    reason: str = ""
    records: tuple[LoggedRecord, ...] = ()
    undoes: str | None = None
    # on an intent: the process that will write it (`writer_process`), so a
    # start-up recovery settles only intents whose writer is gone
    writer: str | None = None
    prev: str = GENESIS


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LogLine(Record):
    """One line as read: the entry when it parsed, else `problem`."""

    number: int
    entry: ActionEntry | None = None
    problem: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ChainReport(Record):
    ok: bool
    lines: int = 0
    broken_at: int | None = None
    torn_at: int | None = None
    bad_lines: tuple[int, ...] = ()
    unreadable: str | None = None
    head_problem: str | None = None
    unanchored: bool = False

    @property
    def message(self) -> str:
        if self.ok:
            return f"chain intact ({self.lines} line(s))"
        if self.unreadable:
            return self.unreadable
        parts = []
        if self.head_problem:
            parts.append(self.head_problem)
        if self.broken_at is not None:
            parts.append(f"chain broken at line {self.broken_at}: it does not carry the previous line's hash")
        if self.torn_at is not None:
            parts.append(f"torn last line {self.torn_at} (an interrupted write)")
        if self.bad_lines:
            parts.append("unreadable line(s) " + ", ".join(map(str, self.bad_lines)))
        return "; ".join(parts)


def line_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class UndoChoice(Record):
    """What `z` would undo, and the newer actions it would step over."""

    entry: ActionEntry | None = None
    skipped: tuple[ActionEntry, ...] = ()
