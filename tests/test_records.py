"""The pydantic-free records (`daimon_tui.models`) behave as the pydantic
models they replaced: sequences are tuples, copies are independent, and a
record crosses the judging child's pipe (JSON) unchanged."""

from __future__ import annotations

import json

from daimon_tui.models import Badge, Briefing, Item, ProjectRef, Section
from daimon_tui.models.team import TeamItem


def _item(**fields: object) -> Item:
    base: dict[str, object] = {"id": "a1", "kind": "decision", "section": "decisions", "field": "recent_decisions",
                               "text": "Use a 30 second ceiling", "mark": "inferred", "stored_mark": "inferred"}
    return Item(**{**base, **fields})  # type: ignore[arg-type]


def test_a_sequence_given_as_a_list_is_held_as_a_tuple() -> None:
    listed = _item(badges=[Badge(kind="carried")], extra_lines=["one"])
    assert listed.badges == (Badge(kind="carried"),) and listed.extra_lines == ("one",)
    assert listed == _item(badges=(Badge(kind="carried"),), extra_lines=("one",))
    assert hash(listed) == hash(_item(badges=(Badge(kind="carried"),), extra_lines=("one",)))


def test_a_copy_takes_the_update_and_leaves_the_original_alone() -> None:
    item = _item(badges=(Badge(kind="corroborated", count=2),))
    copy = item.model_copy(update={"briefed": False, "text": "changed"})
    assert (copy.briefed, copy.text, copy.badges) == (False, "changed", item.badges)
    assert (item.briefed, item.text) == (None, "Use a 30 second ceiling")
    assert item.model_copy() == item and item.model_copy() is not item


def test_a_briefing_crosses_the_childs_pipe_unchanged() -> None:
    briefing = Briefing(project=ProjectRef(slug="s", name="n"), state="briefing",
                        sections=(Section(key="decisions", title="Decisions made",
                                          items=(_item(badges=(Badge(kind="carried"),)),)),))
    again = Briefing.model_validate(json.loads(briefing.model_dump_json(round_trip=True)))
    assert again == briefing
    assert isinstance(again.sections[0].items[0].badges, tuple)


def test_a_pydantic_model_holds_a_record_as_a_field() -> None:
    entry = TeamItem(item=_item(), authors=("alice", "bob"))
    assert TeamItem.model_validate(entry.model_dump(mode="json")) == entry
    assert entry.shared
