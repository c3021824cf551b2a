"""The receipt audit's report, as values: each session's receipt verdict and
the items resting on it, daimon's rejections, each ledger's health, and the
exit code they give. Read by `store/read/audit.py`; shown by the audit screen
and `daimon-tui audit`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Literal

from daimon_tui.domain.badges import mark_label
from daimon_tui.domain.receipt_check import FAILURE_STATES, ReceiptState
from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.records import Record

DEGRADED_MARK = mark_label("unverified-verbatim")
STALE_MARK = mark_label("stale")

# daimon's cheap answer -> the native states that are consistent with it.
# daimon's `missing` also covers an unreadable sidecar; its `match` is only a
# hash match, so every native verdict past the hash step agrees with it.
DAIMON_AGREES: Mapping[str, frozenset[str]] = {
    "unsigned": frozenset({"unsigned"}),
    "missing": frozenset({"missing", "unreadable"}),
    "mismatch": frozenset({"mismatch"}),
    "match": frozenset(
        {"match", "signature-valid", "signature-invalid", "key-missing", "not-bound", "unreadable"}
    ),
}

# The report is records, not pydantic models: a fresh `daimon-tui audit` stays
# within `daimon brief`'s time, which pydantic's import alone would exceed.
# `json_computed`: the properties the JSON report lists after the fields.
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class AffectedItem(Record):
    """An item of the latest checkpoint whose standing rests on a receipt."""

    item_id: str | None
    kind: str
    text: str
    how: Literal["degrades", "stale", "verbatim", "carried"]

    json_computed = ("describe",)

    @property
    def describe(self) -> str:
        if self.how == "degrades":
            return f"label degrades to {DEGRADED_MARK}"
        if self.how == "stale":
            return f"daimon shows it as {STALE_MARK} (carried past its staleness budget), not as verbatim"
        if self.how == "verbatim":
            return "verbatim label rests on this receipt"
        return "carried from this session"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReceiptRow(Record):
    session_id: str
    created: str | None = None
    latest: bool = False
    state: ReceiptState
    cause: str
    daimon_state: str | None = None
    daimon_detail: str | None = None
    file_mtime: float | None = None
    sidecar_mtime: float | None = None
    affects: tuple[AffectedItem, ...] = ()
    forget_hint: str | None = None
    refused: bool = False

    json_computed = ("failed", "agrees", "since", "since_iso")

    @property
    def failed(self) -> bool:
        return self.state in FAILURE_STATES

    @property
    def agrees(self) -> bool:
        """Whether our verdict is consistent with daimon's cheap one (True
        when daimon was not asked)."""
        if self.daimon_state is None:
            return True
        return self.state in DAIMON_AGREES.get(self.daimon_state, frozenset({self.state}))

    @property
    def since(self) -> float | None:
        """When the failure became visible on disk: a changed file dates from
        its own mtime, a bad sidecar from the sidecar's."""
        if not self.failed:
            return None
        if self.state in {"mismatch", "missing"}:
            return self.file_mtime
        return self.sidecar_mtime or self.file_mtime

    @property
    def since_iso(self) -> str | None:
        since = self.since
        return None if since is None else datetime.fromtimestamp(since, UTC).strftime("%Y-%m-%d %H:%MZ")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Rejection(Record):
    ts: str | None
    item_ref: str | None
    check: str | None
    reason: str | None
    explanation: str
    cure: bool = False
    retained: str = "not retained"

    json_computed = ("is_retained",)

    @property
    def is_retained(self) -> bool:
        return self.retained not in {"not retained", "forgotten"}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class LedgerRow(Record):
    name: str
    state: str
    detail: str = ""
    unscannable: str = ""
    hint: str | None = None

    json_computed = ("command", "failed")

    @property
    def command(self) -> str | None:
        """The command daimon suggests (`daimon ledger repair events`, ...)."""
        if self.hint and "run: " in self.hint:
            return self.hint.split("run: ", 1)[1].strip()
        return None

    @property
    def failed(self) -> bool:
        return self.state == "unreadable"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class AuditReport(Record):
    project: ProjectRef
    receipts_enabled: bool = False
    latest_session: str | None = None
    receipts: tuple[ReceiptRow, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    ledgers: tuple[LedgerRow, ...] = ()
    notes: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    json_computed = ("receipt_failures", "ledger_failures", "exit_code")

    @property
    def receipt_failures(self) -> int:
        return sum(1 for row in self.receipts if row.failed)

    @property
    def ledger_failures(self) -> int:
        return sum(1 for row in self.ledgers if row.failed)

    @property
    def exit_code(self) -> int:
        return 1 if self.receipt_failures or self.ledger_failures else 0
