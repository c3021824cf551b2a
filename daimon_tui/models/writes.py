"""What a write did, as the app is told it and keeps it: each row daimon
appended (`WrittenRow`), a queue decision's verdict (`Verdict`), and an
interrupted action settled at start-up (`Recovered`). The writes themselves
are the store's (`store/write/`); these values cross the child's pipe and the
layers above it."""

from __future__ import annotations

import dataclasses
from typing import Literal

from daimon_tui.models.records import Record

VerdictOutcome = Literal["applied", "not-applied", "refused", "failed"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WrittenRow(Record):
    """One row daimon appended for a write: its ledger, the ref it is
    addressed to, daimon's word (already a log-safe word) and daimon's `ts`."""

    ledger: str
    ref: str
    status: str | None = None
    ts: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Verdict(Record):
    """A decision on a queue entry and daimon's answer to it, re-read afterwards."""

    key: str
    verb: str
    ref: str
    outcome: VerdictOutcome
    code: str = ""
    message: str = ""
    ledger: str | None = None
    before: str | None = None
    after: str | None = None
    action_id: str | None = None
    # the rows daimon appended for the verdict, one log record each
    rows: tuple[WrittenRow, ...] = ()

    @property
    def applied(self) -> bool:
        return self.outcome == "applied"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Recovered(Record):
    """One interrupted action and what daimon's ledgers say became of it."""

    action_id: str
    verb: str
    landed: tuple[str, ...] = ()
    not_landed: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    logged: bool = True
    log_problem: str = ""

    @property
    def message(self) -> str:
        parts = [f"An interrupted {self.verb} ({self.action_id}) from an earlier run:"]
        if self.landed:
            parts.append(f"landed in daimon's ledger for {', '.join(self.landed)}")
        if self.not_landed:
            parts.append(("and " if self.landed else "") + f"did not land for {', '.join(self.not_landed)}")
        if self.unknown:
            parts.append(f"cannot be told from daimon's ledgers for {', '.join(self.unknown)} (see the queue)")
        parts.append("; recorded in the action log." if self.logged
                     else f"; NOT recorded: {self.log_problem}")
        return " ".join(parts).replace(" ;", ";")
