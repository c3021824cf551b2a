"""daimon's briefing build over a checkpoint holding wrong JSON types: daimon's
answer when it can give one, else its answer without exactly what makes it
raise, each removal named (file, field, item)."""

from __future__ import annotations

from typing import Any

from daimon_briefing import briefing, testing

from daimon_tui.store.read import checkpoint_shape

NOW = 1.8e9


def _checkpoint() -> dict[str, Any]:
    return testing.sample_checkpoint("Keep the cache", "Drop the queue", topic="caching", questions=["q1", "q2"])


def test_a_well_formed_checkpoint_is_daimons_own_answer() -> None:
    cp = _checkpoint()
    built, notes = checkpoint_shape.build(cp, NOW, "latest.json")
    assert built == briefing.build(cp, NOW) and notes == ()


def test_a_field_that_is_a_number_is_left_out_and_named() -> None:
    cp = _checkpoint()
    cp["working_context"]["open_questions"] = 5
    cp["epistemic_snapshot"]["contradictions_flagged"] = 7
    built, notes = checkpoint_shape.build(cp, NOW, "/x/latest.json")
    assert built is not None and len(built["decisions"]) == 2 and built["active_topic"]["text"] == "caching"
    messages = [n.message for n in notes]
    assert "/x/latest.json: working_context.open_questions is a int, not a list; nothing in it is shown" in messages
    assert any("epistemic_snapshot.contradictions_flagged is a int" in m for m in messages)


def test_an_item_that_clashes_with_another_is_the_one_left_out() -> None:
    """Item by item: the item whose arrival makes the build raise goes, named;
    the items before and after it stay (a clash between two items, not one
    item alone, is what a sort over mixed types raises on)."""
    cp = _checkpoint()
    cp["working_context"]["recent_decisions"].append({"id": "d-bad", "text": "bad", "weight": "x"})

    def picky(checkpoint: dict) -> object:
        decisions = checkpoint.get("working_context", {}).get("recent_decisions") or []
        if len(decisions) > 1 and any(isinstance(d, dict) and d.get("weight") == "x" for d in decisions):
            raise TypeError("'<' not supported between instances of 'str' and 'int'")
        return checkpoint

    kept, notes = checkpoint_shape.well_formed(cp, picky, "latest.json")
    assert [d["text"] for d in kept["working_context"]["recent_decisions"]] == ["Keep the cache", "Drop the queue"]
    assert len(notes) == 1 and "working_context.recent_decisions item 3 (d-bad)" in notes[0].message
    assert "TypeError" in notes[0].message
