"""Issue 40 point 7: an undo names the items its reopen brings back more
trusted than they would read without the resolve, and only those."""

from __future__ import annotations

import pytest

from daimon_tui.domain import undo_plan
from daimon_tui.domain.badges import raises_trust
from tests.domain.test_verbs import ENTRY, OK, resolved

DONE = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="resolved")]


@pytest.mark.parametrize(("before", "after", "named"), [
    ("stale", "verbatim", True),
    ("stale", "inferred", True),
    ("unverified-verbatim", "verbatim", True),
    ("verbatim", "verbatim", False),
    ("stale", "stale", False),
    ("inferred", "inferred", False),
    (None, None, False),  # the store could not tell: nothing claimed
])
def test_the_undo_preview_names_a_raised_trust_label_only(before: str | None, after: str | None,
                                                          named: bool) -> None:
    facts = resolved(mark_without_resolve=before, mark_after_reopen=after)
    plan = undo_plan.plan_undo("p", ENTRY, DONE, {"o-aaaaaa": facts}, OK)
    assert [w.op for w in plan.writes] == ["reopen"]
    assert bool(plan.trust_raised) is named
    if named:
        assert plan.trust_raised[0].startswith("o-aaaaaa comes back [")


def test_a_lower_label_is_no_raise() -> None:
    assert not raises_trust("verbatim", "stale") and raises_trust("inferred", "verbatim")
