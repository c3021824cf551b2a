"""Which verbs a teammate's item takes: only what daimon allows (pure).

daimon judges ids against the reader's own checkpoint: `resolve`, `why`,
`reverify` and `forget` on a teammate's id find nothing to act on and are
refused, and a teammate's published quarantine can be released only by its
author. What daimon does allow is a local quarantine of the value (retract),
which it publishes to the team when the team is on.
"""

from __future__ import annotations

from daimon_tui.domain import verbs
from daimon_tui.domain.team import TEAMMATE_RELEASE_REFUSAL, publish_phrase
from daimon_tui.models.team import TeamItem

_NOT_YOURS = "daimon acts on ids of your own checkpoint only and refuses a teammate's"
REFUSALS: dict[str, str] = {
    "resolve": f"resolve: {_NOT_YOURS}; retract (x) withholds the value here",
    "reverify": f"reverify: {_NOT_YOURS}",
    "forget": f"forget: {_NOT_YOURS}; retract (x) withholds the value here",
    "restore": "restore: nothing of yours withholds this item; a teammate's quarantine is released by its author",
}
WHY_REFUSED = "trust inspector: daimon's `why` answers for your own ids only and refuses a teammate's"


def teammate_refusal(verb: str, entry: TeamItem, me: str) -> verbs.Refusal | None:
    """Why `verb` is not offered on a teammate's item, or None when it is (retract)."""
    reason = REFUSALS.get(verb)
    if reason is None:
        return None
    if me in entry.authors:
        reason += "; the claim is in your own briefing too: act on it there"
    return verbs.Refusal(item_id=entry.item.id or "", code="teammate-item", reason=reason)


def release_refusal() -> verbs.Refusal:
    return verbs.Refusal(item_id="", code="teammate-quarantine", reason=TEAMMATE_RELEASE_REFUSAL)


def plan_teammate_retract(project: str, entry: TeamItem, guard: verbs.StoreGuard, data: verbs.RetractInput,
                          publishes_to: tuple[str, ...], value_refused: str | None = None) -> verbs.Plan:
    """daimon's retract rules over the teammate's value (`value_refused`: daimon's
    own refusal of its text); the preview says whether it is published."""
    facts = verbs.ItemFacts(item_id=entry.item.id or "", kind=entry.item.kind, text=entry.item.text,
                            lifecycle="active", value_refused=value_refused)
    plan = verbs.plan_retract(project, [facts], guard, data)
    effects = (*plan.effects,
               f"the team: {publish_phrase(publishes_to)}",
               "the teammate's own memory is theirs: it stays in their store; this withholds it from yours")
    return plan.model_copy(update={"effects": effects})
