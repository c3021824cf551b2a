"""Rules the app mirrors from daimon are daimon's own (issue 25, point 10):
each is compared here with daimon's function on the same inputs."""

from __future__ import annotations

import pytest
from daimon_briefing import trust

from daimon_tui.domain import verbs
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.write import plans

SECRET = "AKIAIOSFODNN7EXAMPLE"  # 20 characters; daimon redacts it to 18 before its length gate
RETRACT = verbs.RetractInput(reason="it was never right", evidence=("issue:1",))
TEXTS = [SECRET, "x" * 19, "x" * 20, "  spaced   out   text   here  ", "é" * 20, "token ghp_" + "a" * 36,
         "password=hunter2hunter2", "short", "\u200b" * 25, "a\tb\nc" * 5]


def _daimon_refuses(text: str) -> bool:
    try:
        trust.value_key(text)
    except trust.TrustError:
        return True
    return False


@pytest.mark.parametrize("text", TEXTS)
def test_retracts_short_text_gate_is_daimons(text: str) -> None:
    facts = verbs.ItemFacts(item_id="r-aaaaaa", kind="decision", text=text, in_live=True, lifecycle="active",
                            value_refused=plans.value_refusal(text))
    ok = verbs.StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"})
    refused = [r.code for r in verbs.plan_retract("p", [facts], ok, RETRACT).refusals]
    assert ("text-too-short" in refused) == _daimon_refuses(text)


def test_a_hand_edited_secret_is_refused_as_daimon_refuses_it(empty_store: demo.DemoStore) -> None:
    """A value daimon redacts before its gate: 20 characters as stored, 18 as daimon judges it."""
    cp = demo.session("S-1", demo.DEMO_NOW, "Keys")
    cp["working_context"]["recent_decisions"] = [{"text": "placeholder decision text here", "trust": "inferred"}]
    demo.seed(empty_store.project, cp)
    for path in empty_store.checkpoint_dir.rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("placeholder decision text here", SECRET), encoding="utf-8")
    ref = reader.resolve_project(str(empty_store.project))
    item = next(i for i in reader.load_briefing(ref).items() if i.kind == "decision")
    assert item.text == SECRET and _daimon_refuses(SECRET)
    plan = plans.build_plan("retract", (item.id or "",), ref, RETRACT)
    assert not plan.writes and plan.refusals[0].code == "text-too-short"
    assert "too short" in plan.refusals[0].reason


def test_the_corroboration_reset_warning_follows_daimons_badge(demo_store: demo.DemoStore) -> None:
    """The resolve preview warns of a reset exactly where daimon's briefing prints a corroboration badge."""
    ref = reader.resolve_project(str(demo_store.project))
    items = [i for i in reader.load_briefing(ref).items() if i.id]
    warned = {i.id for i in items
              if any("corroboration" in e for e in plans.build_plan("resolve", (i.id or "",), ref).effects)}
    badged = {i.id for i in items if "[≈ corroborated" in (i.line or "")}  # daimon's own line
    assert warned == badged and warned


def test_constants_named_after_daimons_are_daimons() -> None:
    from daimon_briefing import briefing, store

    assert verbs.HUMAN_SOURCES == store.HUMAN_EVENT_SOURCES
    assert verbs.ItemFacts(item_id="x").badge_min == briefing.CORROBORATION_MIN == plans.badge_min()
