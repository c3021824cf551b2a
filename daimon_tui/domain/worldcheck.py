"""World-check a set of items: every claim in each item's words, probed offline.

Unlike daimon's brief-time world-check (one claim per item, five probes, 0.8 s
budget, `gh` over the network), this checks every claim of every item given,
reads only the local repository and files, and can be cancelled between items.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from daimon_tui.domain.claims import Claim, extract_claims
from daimon_tui.domain.probes import Finding, Outcome, Prober

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


def check_items(
    root: Path,
    items: Sequence[tuple[str, str, str | None]],
    *,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] | None = None,
) -> WorldReport:
    """Probe every claim in `items` ((item_id, text, quote) each) against the
    project at `root`. Blocking; run it off the UI thread. On cancellation the
    report holds the items finished so far and `cancelled=True`."""
    prober = Prober(root)
    done: list[ItemResult] = []
    total = len(items)
    for index, (item_id, text, quote) in enumerate(items):
        if cancelled():
            return WorldReport(str(prober.root), tuple(done), prober.repo_error, cancelled=True)
        claims = extract_claims(text, quote)
        done.append(ItemResult(item_id, tuple(ClaimResult(c, prober.probe(c)) for c in claims)))
        if progress is not None:
            progress(index + 1, total)
    return WorldReport(str(prober.root), tuple(done), prober.repo_error)


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
