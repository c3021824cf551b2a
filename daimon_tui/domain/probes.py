"""What a probe of one claim answers: confirmed, contradicted or unknown,
with evidence a person can check by hand. The probing itself reads git and
files: `store/world/prober.py`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Finding:
    outcome: Outcome
    reason: str  # a short code: "ref-exists", "no-such-ref", "escapes-root", ...
    evidence: str  # one human-checkable sentence, already inert
