"""The demo store is built the way capture builds a store: its verbatim items
are verbatim because daimon's own quote matcher found them in the session's
transcript, not because the builder says so."""

from __future__ import annotations

import copy

from daimon_briefing import schema, serializer, view

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader


def test_every_verbatim_item_was_found_by_daimons_matcher(demo_store: demo.DemoStore) -> None:
    target = reader.resolve_project(str(demo_store.project)).target
    opened = view.open_sessions(target, list(demo.TRANSCRIPTS), live=False)
    verbatim = 0
    for session_id, transcript in demo.TRANSCRIPTS.items():
        for _field, item in schema.iter_items(opened[session_id].checkpoint):
            # A carried copy was matched in the session that stated it.
            if item.get("trust") == "verbatim" and not item.get("carried_from"):
                verbatim += 1
                assert item.get("quote_verified") is True, item
                assert serializer.quote_matches(item["quote"], transcript), item
    assert verbatim >= 4  # stated in every session: the question, the worker, the flag


def test_a_quote_the_person_never_said_is_not_verbatim() -> None:
    day = demo.session("S-day3", demo.DEMO_NOW, "Retry policy rollout")
    day["working_context"]["recent_decisions"] = [
        {"text": "Ship it", "trust": "verbatim", "quote": "ship it behind the flag"},
        {"text": "Retry", "trust": "verbatim", "quote": "retry on 429 with exponential backoff"},
    ]
    made = demo.witnessed(copy.deepcopy(day))["working_context"]["recent_decisions"]
    assert [(i["trust"], i["quote_verified"]) for i in made] == [("inferred", False), ("verbatim", True)]
