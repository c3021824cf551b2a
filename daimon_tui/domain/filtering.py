"""The `/` filter: free words plus facets, e.g. `retry trust:verbatim carried`.

Facets: `trust:` (the shown mark: verbatim, inferred, untagged,
unverified-verbatim, stale), `stored:` (the stored trust class),
`section:` (decisions, external, open_loops, beliefs, uncertainties,
contradictions; a prefix is enough), `state:` (visible, resolved, superseded,
...), `briefed:` (yes/no: whether `daimon brief` prints it), and the flags
`carried`, `stale`, `corroborated`, `contradicted`, `world-checked`. A leading `-` negates a word or facet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from daimon_tui.models import Item

FLAGS: dict[str, Callable[[Item], bool]] = {
    "carried": lambda i: i.has_badge("carried"),
    "stale": lambda i: i.mark == "stale",
    "corroborated": lambda i: i.has_badge("corroborated"),
    "contradicted": lambda i: any(
        i.has_badge(k) for k in ("world-contradicted", "supersede-candidate", "agent-claim")
    ),
    "world-checked": lambda i: i.has_badge("world-checked"),
}


@dataclass(frozen=True)
class Term:
    test: Callable[[Item], bool]
    negated: bool

    def __call__(self, item: Item) -> bool:
        return self.test(item) != self.negated


def _facet(name: str, value: str) -> Callable[[Item], bool] | None:
    value = value.lower()
    if name in {"trust", "mark"}:
        return lambda i: i.mark == value
    if name == "stored":
        return lambda i: (i.trust or "untagged") == value
    if name == "section":
        return lambda i: i.section.startswith(value) or i.kind.startswith(value)
    if name == "state":
        return lambda i: i.state.startswith(value)
    if name == "briefed":  # whether `daimon brief` prints it (unknown matches neither)
        return lambda i: i.briefed is (value in {"yes", "y", "true"})
    if name == "id":
        return lambda i: (i.id or "").startswith(value)
    return None


def parse(query: str) -> tuple[Term, ...]:
    terms: list[Term] = []
    for word in query.split():
        negated = word.startswith("-") and len(word) > 1
        word = word[1:] if negated else word
        lowered = word.lower()
        test: Callable[[Item], bool] | None = None
        if ":" in word:
            name, _, value = lowered.partition(":")
            test = _facet(name, value)
        elif lowered in FLAGS:
            test = FLAGS[lowered]
        if test is None:
            needle = lowered

            def test(i: Item, needle: str = needle) -> bool:
                return needle in i.text.lower() or needle in (i.quote or "").lower() or needle == (i.id or "")

        terms.append(Term(test, negated))
    return tuple(terms)


def matches(item: Item, terms: tuple[Term, ...]) -> bool:
    return all(term(item) for term in terms)
