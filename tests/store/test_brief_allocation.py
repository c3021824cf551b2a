"""Our allocator (`store/read/brief_allocation.py`) against daimon's own
`briefing.select`: the same `Selection` on every briefing.

Hypothesis draws checkpoints (every section; every trust class; quotes inside
and outside the text; carried, stale, corroborated, flagged, amended and
world-checked items; weights, ages and ties; long texts with daimon's
`**Label:**` sections; multi-byte and combining characters), goes through
daimon's own `briefing.build`, and draws what `daimon brief` passes beside it:
a budget around the briefing's size (down to nothing fitting), the reserved
bytes of a handoff and trailer, rulings, ledger notes, request, verdict and
owed panels, the decision count, teammates, a degraded receipt, daimon's
decision cap and staleness setting. Both allocators answer; every field of
the two selections, daimon's render of each, their teammates blocks and
section notes must be equal, and ours must not have fallen back on daimon's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from daimon_briefing import briefing, config
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from daimon_tui.store.daimon_api import composed, rendering
from daimon_tui.store.read import brief_allocation

NOW = 1_796_000_000.0  # 2026-11-30
COMMON = {"deadline": None, "derandomize": True, "database": None,
          "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
FIELDS = ("kept", "dropped", "reasons", "order", "totals", "cap", "stale_days", "budget", "degraded", "rulings",
          "count_line", "panels", "overage", "now", "panel_names", "panel_names_whole", "reserved",
          "teammate_blocks", "teammate_header", "kept_teammates", "loops_pointer", "full_quotes", "notes", "cards")

# Words of every width: ASCII, two-byte, three-byte, four-byte, a combining mark, a bidi control.
GLYPHS = [*"abcdefgh ijk ", "é", "→", "§", "…", "漢", "🙂", "\u0301", "\u202e", "*", ":", "\t"]


def _texts(rng: random.Random) -> dict[str, list[str]]:
    """Texts drawn once from a fixed seed, by shape. Hypothesis draws a whole text (one
    choice), not glyph by glyph: the long pass spends its time on the allocators."""
    words = [*GLYPHS, *("".join(rng.choices(GLYPHS, k=rng.randint(1, 8))) for _ in range(600))]

    def plain() -> str:
        return " ".join(rng.choices(words, k=rng.randint(1, 8)))

    def long() -> str:
        return (plain() + " ") * rng.randint(5, 60)

    def labelled() -> str:  # daimon's `**Label:**` sections (its shortening keeps those)
        return "\n".join(f"**{rng.choice(['Why', 'Next', 'Risk'])}:** {rng.choice([plain, long])()}"
                         for _ in range(rng.randint(1, 4)))

    return {"plain": [plain() for _ in range(3000)], "long": [long() for _ in range(600)],
            "labelled": [labelled() for _ in range(600)], "two": [f"{plain()}\n{plain()}" for _ in range(600)]}


_TEXTS = _texts(random.Random(29))
PLAIN = st.sampled_from(_TEXTS["plain"])
def _when(rng: random.Random) -> str | None:
    return rng.choice([None, "not a date", "2027-06-01T00:00:00Z",
                       f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T08:00:00Z"])


def _plain(rng: random.Random) -> str:
    return rng.choice(_TEXTS["plain"])


# An item's optional keys and how each is drawn from the item's own random source.
OPTIONAL: dict[str, Callable[[random.Random, str], Any]] = {
    "id": lambda r, section: f"{section[0]}-{r.randrange(2**32):08x}",
    "importance": lambda r, _: r.choice([r.randint(1, 10), r.randint(1, 10), 0, "7", True]),
    "first_seen": lambda r, _: _when(r),
    "carried_from": lambda r, _: "S-older",
    "_stale_carried_days": lambda r, _: r.choice([r.randint(8, 400), r.uniform(7.5, 90.0)]),
    "_corroborated": lambda r, _: r.randint(0, 6),
    "because": lambda r, _: _plain(r),
    "_agent_claim": lambda r, _: _plain(r),
    "_supersede_candidate": lambda r, _: "o-1234abcd",
    "_worldcheck": lambda r, _: {"note": _plain(r), "status": r.choice(["resolved", "closed"])},
    "_worldcheck_confirmed": lambda r, _: True,
    "_amend": lambda r, _: {"rows": [{"change": _plain(r), "quote": _plain(r), "id": "a-1", "label": _plain(r),
                                      "state": r.choice(["ratified", "verified"]), "by": "agent",
                                      "role": r.choice(["user", "assistant"])} for _ in range(r.randint(0, 2))],
                            "overflow": r.randint(0, 3)},
    "foreign_verbatim_claim": lambda r, _: True,
    "_noted": lambda r, _: {"ts": "2026-11-29T10:00:00Z"},
}
COMMON_KEYS = ("id", "importance", "first_seen", "carried_from", "_corroborated")
RARE_KEYS = [k for k in OPTIONAL if k not in COMMON_KEYS]


def item(rng: random.Random, section: str) -> dict[str, Any]:
    """One item, built from its own random source: Hypothesis draws one seed per item
    (and how many items), not each field, so the long pass's time goes to the allocators."""
    shape = rng.choice(["plain", "plain", "long", "labelled", "two"])
    text = rng.choice(_TEXTS[shape])
    out: dict[str, Any] = {"text": text}
    trust = rng.choice(["verbatim", "verbatim", "inferred", "inferred", None, ""])
    if trust is not None:
        out["trust"] = trust
    quote = rng.choice([None, text[: max(1, len(text) // 3)], _plain(rng), rng.choice(_TEXTS["long"])])
    if quote is not None:
        out["quote"] = quote
    # the usual keys about half the time each; at most two of the rarer ones
    chosen = [k for k in COMMON_KEYS if rng.random() < 0.5] + rng.sample(RARE_KEYS, rng.randint(0, 2))
    for key in chosen:
        out[key] = OPTIONAL[key](rng, section)
    if section == "open_questions":
        out["external_state"] = rng.random() < 0.5
    return out


def items(section: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.integers(0, 2**32).map(lambda seed: item(random.Random(seed), section))


@st.composite
def checkpoints(draw: st.DrawFn) -> dict[str, Any]:
    def many(section: str, most: int) -> list:
        return draw(st.lists(items(section), max_size=most))

    topic = draw(st.one_of(st.none(), st.builds(lambda t: {"text": t}, PLAIN)))
    return {"working_context": {"active_topic": topic, "open_questions": many("open_questions", 18),
                                "recent_decisions": many("recent_decisions", 18)},
            "epistemic_snapshot": {"strong_beliefs": many("strong_beliefs", 10),
                                   "uncertainties": many("uncertainties", 8),
                                   "contradictions_flagged": many("contradictions_flagged", 5)}}


# Where the budget falls between the protected part (all candidates dropped) and the whole briefing:
# below 0 not even the protected part fits (daimon's overage line), over 1.05 unbounded.
FRACTIONS = st.one_of(st.floats(-0.5, 0.0), st.floats(0.0, 1.1), st.floats(0.0, 1.1))
LINE = PLAIN.map(lambda t: t.replace("\n", " "))


def panel(header: str) -> st.SearchStrategy[list[str]]:
    """A request panel: its header, cards (unindented) and their detail lines."""
    card = st.tuples(LINE, st.lists(LINE.map(lambda t: "  " + t), max_size=2)).map(lambda c: [c[0], *c[1]])
    return st.one_of(st.just([]), st.lists(card, min_size=1, max_size=4).map(
        lambda cards: [header, *(line for c in cards for line in c)]))


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    teammates = draw(st.lists(PLAIN.map(lambda t: f"\n\n  alice: {t}"), max_size=5))
    return {
        "degraded": draw(st.booleans()),
        "rulings": draw(st.one_of(st.just([]), st.lists(LINE, min_size=1, max_size=3).map(
            lambda r: ["Standing rulings (human-ratified — honor these):", *(f"§ {x}" for x in r)]))),
        "request_lines": draw(panel("Requests waiting on you (from other projects):")),
        "verdict_lines": draw(panel("Decisions on requests you sent:")),
        "owed_lines": draw(panel("Requests you accepted and still owe:")),
        "decision_count": draw(st.one_of(st.none(), st.just("(12 decisions on record: daimon decisions)"))),
        "reserved": draw(st.integers(0, 400)),
        "teammate_blocks": teammates,
        "teammate_header": "Teammates:\n" if teammates else "",
        "loops_pointer": draw(st.booleans()),
        "full_quotes": draw(st.booleans()),
        "notes": draw(st.lists(LINE.map(lambda t: f"⚠ {t}"), max_size=2)),
    }


def assert_same(ours: briefing.Selection, theirs: briefing.Selection) -> None:
    for name in FIELDS:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert briefing.render_selection(ours) == briefing.render_selection(theirs)
    assert briefing.teammates_text(ours) == briefing.teammates_text(theirs)
    for section in briefing.SECTION_ORDER:
        assert briefing.section_note(ours, section) == briefing.section_note(theirs, section)


def both(b: Mapping, budget: int | None, now: float, kwargs: Mapping) -> tuple:
    return brief_allocation.allocate(b, budget, now, **kwargs), briefing.select(b, budget, now, **kwargs)


def printed(selection: briefing.Selection, reserved: int) -> int:
    """What `daimon brief` prints for a selection (daimon's render)."""
    return (len(briefing.render_selection(selection).encode()) + reserved
            + len(briefing.teammates_text(selection).encode()))


def budget_at(b: Mapping, kwargs: Mapping, fraction: float) -> int | None:
    """The budget `fraction` of the way from the protected part to the whole briefing."""
    if fraction > 1.05:
        return None
    whole = printed(briefing.select(b, None, NOW, **kwargs), kwargs["reserved"])
    least = briefing.select(b, 0, NOW, **kwargs)
    least.overage = 0  # the protected part alone, without daimon's marker line
    protected = printed(least, kwargs["reserved"])
    if fraction < 0:
        return int(protected * (1 + fraction))
    return int(protected + fraction * max(0, whole - protected))


def check(checkpoint: dict, kwargs: dict, fraction: float, cap: str, stale: str) -> None:
    with config.settings_override({"DAIMON_MAX_BRIEFING_DECISIONS": cap, "DAIMON_STALE_DAYS": stale}):
        b = briefing.build(checkpoint, NOW)
        assume(b is not None)
        ours, theirs = both(b, budget_at(b, kwargs, fraction), NOW, kwargs)
        assert_same(ours, theirs)
    kept = sum(len(v) for k, v in theirs.kept.items() if k != "active_topic")
    reached = {"overage": theirs.overage > 0, "collapsed": theirs.panel_names != theirs.panel_names_whole,
               "teammates dropped": len(theirs.kept_teammates) < len(theirs.teammate_blocks),
               "shortened": any(rendering.truncation_marker() in str(i.get("text")) for _, i in theirs.order if i),
               "dropped for budget, some kept": kept > 0 and any("budget" in r for r in theirs.reasons.values()),
               "capped": any("cap" in r for r in theirs.reasons.values())}
    for what, happened in reached.items():
        event(f"{what}: {happened}")


@pytest.mark.timeout(600)  # ~20 s alone, more on a loaded machine
@settings(max_examples=80, **COMMON)
@given(checkpoints(), options(), FRACTIONS, st.sampled_from(["10", "10", "3", "1", "0"]),
       st.sampled_from(["7.0", "0.5"]))
def test_our_allocation_is_daimons(checkpoint: dict, kwargs: dict, fraction: float, cap: str, stale: str) -> None:
    check(checkpoint, kwargs, fraction, cap, stale)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@settings(max_examples=400, **COMMON)
@given(checkpoints(), options(), FRACTIONS, st.sampled_from(["10", "10", "3", "1", "0"]),
       st.sampled_from(["7.0", "0.5"]))
def test_our_allocation_is_daimons_long(checkpoint: dict, kwargs: dict, fraction: float, cap: str,
                                        stale: str) -> None:
    check(checkpoint, kwargs, fraction, cap, stale)


def test_rank_fractions_count_the_strictly_lighter() -> None:
    nan = float("nan")
    assert composed.rank_fractions([3.0, 1.0, 3.0, 2.0]) == [0.5, 0.0, 0.5, 0.25]
    assert composed.rank_fractions([nan, 1.0, 2.0, float("inf")]) == [0.0, 0.0, 0.25, 0.5]


def test_a_prediction_daimons_render_does_not_confirm_answers_with_daimons_select(
        monkeypatch: pytest.MonkeyPatch) -> None:
    b = briefing.build(big_checkpoint(60, seed=3), NOW)
    kwargs = {"reserved": 120}
    theirs = briefing.select(b, 3000, NOW, **kwargs)
    assert any(theirs.dropped.values())  # the budget cuts
    # a line one byte longer than daimon's render: the sizes predicted are off
    selected_line = rendering.selected_line
    monkeypatch.setattr(rendering, "selected_line", lambda *a: selected_line(*a) + "x")
    with pytest.raises(brief_allocation.Disagreed):
        brief_allocation.allocate(b, 3000, NOW, **kwargs)
    assert_same(brief_allocation.select(b, 3000, NOW, **kwargs), theirs)


def big_checkpoint(n: int, seed: int) -> dict[str, Any]:
    """n items over every section, drawn from a fixed seed (the scale test)."""
    rng = random.Random(seed)
    glyphs = ["é", "→", "漢", "🙂", "§"]

    def item(k: int, section: str) -> dict[str, Any]:
        pool = ["retry", "upload", "ceiling", "quota", *glyphs]
        words = " ".join(rng.choice(pool) for _ in range(rng.randint(2, 30)))
        it: dict[str, Any] = {"text": f"{section} {k}: {words}", "id": f"{section[0]}-{k:08x}",
                              "trust": rng.choice(["verbatim", "inferred", "inferred", None]),
                              "importance": rng.randint(1, 10),
                              "first_seen": f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T00:00:00Z"}
        if rng.random() < 0.3:
            it["carried_from"] = "S-older"
        if rng.random() < 0.05:
            it["_stale_carried_days"] = rng.randint(8, 200)
        if rng.random() < 0.02:
            it["_agent_claim"] = "closed in #12"
        if rng.random() < 0.1:
            it["_corroborated"] = rng.randint(2, 5)
        if rng.random() < 0.2:
            it["quote"] = words[: len(words) // 2]
        if rng.random() < 0.02:
            it["text"] += " **Why:** " + "because " * 80
        return it

    share = {"open_questions": 0.35, "recent_decisions": 0.3, "strong_beliefs": 0.15, "uncertainties": 0.12,
             "contradictions_flagged": 0.08}
    made = {s: [item(k, s) for k in range(round(n * part))] for s, part in share.items()}
    for q in made["open_questions"]:
        q["external_state"] = rng.random() < 0.3
    return {"working_context": {"active_topic": {"text": "the upload worker"},
                                "open_questions": made["open_questions"],
                                "recent_decisions": made["recent_decisions"]},
            "epistemic_snapshot": {"strong_beliefs": made["strong_beliefs"], "uncertainties": made["uncertainties"],
                                   "contradictions_flagged": made["contradictions_flagged"]}}


@pytest.mark.slow
@pytest.mark.timeout(600)  # daimon's own allocator: ~10 s alone at this size
def test_at_a_few_thousand_items_our_allocation_is_daimons() -> None:
    b = briefing.build(big_checkpoint(2500, seed=29), NOW)
    kwargs = {"reserved": 250, "rulings": ["Standing rulings (human-ratified — honor these):", "§ no force-push"],
              "decision_count": "(40 decisions on record)", "request_lines": ["Requests:", "ask one", "  detail"]}
    ours, theirs = both(b, 11264, NOW, kwargs)
    assert sum(len(v) for v in theirs.dropped.values()) > 2000
    assert_same(ours, theirs)
