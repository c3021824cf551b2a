"""The `/` filter: free words plus facets, e.g. `retry trust:verbatim carried`.

Facets: `trust:` (the shown mark: verbatim, inferred, untagged,
unverified-verbatim, stale), `stored:` (the stored trust class),
`section:` (decisions, external, open_loops, beliefs, uncertainties,
contradictions; a prefix is enough), `state:` (visible, resolved, superseded,
retracted, i.e. daimon's quarantined, ...), `briefed:` (yes/no: whether
`daimon brief` prints it), and the flags
`carried`, `stale`, `corroborated`, `contradicted`, `world-checked`, and `new`
(not yet reviewed, or changed since: the review says which). A leading
`-` negates a word or facet. A withheld row has no text: it matches on its id,
kind and state only. An unknown facet or value is reported, not matched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from daimon_tui.models import Item, WithheldItem

FLAGS: dict[str, Callable[[Item], bool]] = {
    "carried": lambda i: i.has_badge("carried"),
    "stale": lambda i: i.mark == "stale",
    "corroborated": lambda i: i.has_badge("corroborated"),
    "contradicted": lambda i: any(
        i.has_badge(k) for k in ("world-contradicted", "supersede-candidate", "agent-claim")
    ),
    "world-checked": lambda i: i.has_badge("world-checked"),
}

# What each facet accepts: anything else is reported, not silently matched.
MARKS = ("verbatim", "inferred", "untagged", "unverified-verbatim", "stale")
STORED = ("verbatim", "inferred", "untagged")
SECTIONS = ("decisions", "external", "open_loops", "beliefs", "uncertainties", "contradictions",
            "decision", "open_loop", "belief", "uncertainty", "contradiction")
STATES = ("visible", "resolved", "superseded", "quarantined", "retracted", "forgotten", "closed", "withheld")
# The verb's word for daimon's state: a retraction quarantines the value.
STATE_ALIASES = {"retracted": "quarantined"}
WITHHELD_STATES = frozenset(STATES) - {"visible"}
FACET_VALUES: dict[str, tuple[str, ...] | None] = {
    "trust": MARKS, "mark": MARKS, "stored": STORED, "section": SECTIONS, "state": STATES, "id": None,
    "briefed": ("yes", "no"),
}


def _never(_entry: WithheldItem) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Term:
    test: Callable[[Item], bool]
    negated: bool
    # A withheld row has no text: only its id, kind and state can match.
    withheld_test: Callable[[WithheldItem], bool] = _never
    # A `state:` facet naming a withheld state brings the withheld rows in.
    wants_withheld: bool = False

    def __call__(self, item: Item) -> bool:
        return self.test(item) != self.negated

    def withheld(self, entry: WithheldItem) -> bool:
        return self.withheld_test(entry) != self.negated


@dataclass(frozen=True, slots=True)
class Query:
    terms: tuple[Term, ...]
    # Facets or values the filter does not know, said in the filter box.
    problems: tuple[str, ...] = ()

    @property
    def wants_withheld(self) -> bool:
        return any(t.wants_withheld and not t.negated for t in self.terms)


def _facet(name: str, value: str, negated: bool) -> Term | str:
    """The facet's term, or what is wrong with it."""
    if name not in FACET_VALUES:
        return f"unknown facet {name}: (known: {', '.join(FACET_VALUES)})"
    allowed = FACET_VALUES[name]
    known = ", ".join(allowed) if allowed is not None else "an item id or its start"
    if not value:
        return f"{name}: takes {known}"
    prefix = name in {"section", "state", "id"}
    if allowed is not None and not any(a.startswith(value) if prefix else a == value for a in allowed):
        return f"unknown {name} {value!r} (known: {known})"
    if name in {"trust", "mark"}:
        return Term(lambda i: i.mark == value, negated)
    if name == "stored":
        return Term(lambda i: (i.trust or "untagged") == value, negated)
    if name == "section":
        return Term(lambda i: i.section.startswith(value) or i.kind.startswith(value), negated,
                    lambda w: w.kind.startswith(value))
    if name == "state":
        states = frozenset(STATE_ALIASES.get(s, s) for s in STATES if s.startswith(value))
        return Term(lambda i: i.state in states, negated, lambda w: w.state in states,
                    wants_withheld=any(s.startswith(value) for s in WITHHELD_STATES))
    if name == "briefed":  # whether `daimon brief` prints it (unknown matches neither)
        return Term(lambda i: i.briefed is (value == "yes"), negated)
    return Term(lambda i: (i.id or "").startswith(value), negated, lambda w: (w.id or "").startswith(value))


def _word(needle: str, negated: bool) -> Term:
    def test(i: Item) -> bool:
        return needle in i.text.lower() or needle in (i.quote or "").lower() or needle == (i.id or "")

    def withheld_test(w: WithheldItem) -> bool:
        return needle in (w.id or "").lower() or needle in w.kind.lower() or needle in w.state

    return Term(test, negated, withheld_test)


def _new_term(is_new: Callable[[Item], bool] | None, negated: bool) -> Term:
    """`new`: not yet reviewed, or changed since (a withheld row by its id too)."""
    def test(entry: Item | WithheldItem) -> bool:
        return bool(is_new and is_new(entry))  # type: ignore[arg-type]

    return Term(test, negated, test)


def read(query: str, *, is_new: Callable[[Item], bool] | None = None) -> Query:
    """`is_new` answers the `new` flag (the review's; without it nothing is new)."""
    terms: list[Term] = []
    problems: list[str] = []
    for word in query.split():
        negated = word.startswith("-") and len(word) > 1
        word = word[1:] if negated else word
        lowered = word.lower()
        if ":" in word:
            name, _, value = lowered.partition(":")
            found = _facet(name, value, negated)
            if isinstance(found, str):
                problems.append(found)
            else:
                terms.append(found)
        elif lowered == "new":
            terms.append(_new_term(is_new, negated))
        elif lowered in FLAGS:
            terms.append(Term(FLAGS[lowered], negated))
        else:
            terms.append(_word(lowered, negated))
    return Query(tuple(terms), tuple(problems))


def matches(item: Item, terms: tuple[Term, ...]) -> bool:
    return all(term(item) for term in terms)


def matches_withheld(entry: WithheldItem, terms: tuple[Term, ...]) -> bool:
    return all(term.withheld(entry) for term in terms)
