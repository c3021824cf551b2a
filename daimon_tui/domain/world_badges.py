"""World-check results on briefing items: the badge they add and the resolve
status a contradiction suggests (gone, missing, merged)."""

from __future__ import annotations

from daimon_tui.domain.claims import ClaimKind, Expect
from daimon_tui.domain.probes import Outcome
from daimon_tui.domain.worldcheck import ItemResult, badge_for
from daimon_tui.models import Badge, Item


def with_world(item: Item, result: ItemResult | None) -> Item:
    """`item` with its world badge: a contradiction leads every badge,
    a confirmation follows daimon's own badges."""
    kind = badge_for(result)
    if kind is None or item.has_badge(kind):
        return item
    badges = tuple(b for b in item.badges if b.kind not in {"world-checked", "world-contradicted"})
    badge = Badge(kind=kind)
    badges = (badge, *badges) if kind == "world-contradicted" else (*badges, badge)
    return item.model_copy(update={"badges": badges})


def suggested_status(result: ItemResult | None) -> str:
    """The resolve status a contradiction names, for the prefilled resolve."""
    if result is None:
        return "resolved"
    for claim_result in result.results:
        if claim_result.outcome is not Outcome.CONTRADICTED:
            continue
        claim = claim_result.claim
        if claim.expect in {Expect.UNMERGED, Expect.OPEN}:
            return "merged"
        if claim.kind is ClaimKind.FILE:
            return "missing"
        if claim.kind is ClaimKind.BRANCH:
            return "gone"
        return "resolved"
    return "resolved"
