"""Which daimon this is and which of our assumptions about it hold, as
values: what `daimon-tui doctor` prints and the safe-mode banner says.
Read by `services/health.py` from the adapters' mode."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractCheck:
    """One assumption of an adapter about daimon, and whether it holds."""

    id: str
    concern: str
    where: str
    assumption: str
    serves: str
    optional: bool
    holds: bool
    problem: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DaimonCheck:
    """The installed daimon and the mode the app runs in."""

    version: str | None
    tested: bool
    known_good: str
    safe: bool
    why: str | None  # None in full mode
    contracts: tuple[ContractCheck, ...]
    off: tuple[str, ...]  # what safe mode turns off (empty in full mode)
    public_equivalents: tuple[str, ...]  # what stays on through daimon's public names
    banner: str | None  # the safe-mode banner (None in full mode)
