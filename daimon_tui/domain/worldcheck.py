"""A world-check's results and the badge they give an item (the probing
itself, which reads git and files, is `services/world_check.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from daimon_tui.domain.claims import Claim
from daimon_tui.domain.probes import Finding, Outcome

Badge = Literal["world-checked", "world-contradicted"]


@dataclass(frozen=True, slots=True)
class ClaimResult:
    claim: Claim
    finding: Finding

    @property
    def outcome(self) -> Outcome:
        return self.finding.outcome


@dataclass(frozen=True, slots=True)
class ItemResult:
    item_id: str
    results: tuple[ClaimResult, ...]

    @property
    def contradicted(self) -> bool:
        return any(r.outcome is Outcome.CONTRADICTED for r in self.results)


@dataclass(frozen=True, slots=True)
class WorldReport:
    root: str
    items: tuple[ItemResult, ...]
    repo_error: str | None  # None when the repository was read
    cancelled: bool = False

    @property
    def contradicted(self) -> bool:
        return any(item.contradicted for item in self.items)


def badge_for(result: ItemResult | None) -> Badge | None:
    """The item's world badge, mirroring daimon's asymmetry (its item line:
    `[✓ world-checked]` needs `_worldcheck_confirmed` and no `_worldcheck`):
    any contradicted claim gives `world-contradicted`, which outranks every
    other badge; otherwise at least one confirmed claim gives `world-checked`,
    even when other claims stayed unknown (daimon's rollup lets "skipped" never
    decide when a real answer exists); no answered claim gives None."""
    if result is None:
        return None
    outcomes = {r.outcome for r in result.results}
    if Outcome.CONTRADICTED in outcomes:
        return "world-contradicted"
    if Outcome.CONFIRMED in outcomes:
        return "world-checked"
    return None
