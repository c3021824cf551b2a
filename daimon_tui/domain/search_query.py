"""The search box's syntax: words for daimon's recall, plus facets that filter
its hits, e.g. `retry trust:verbatim state:carried since:30d -flaky`.

Facets: `trust:` (the mark the briefing shows: verbatim, inferred, untagged,
unverified-verbatim, stale), `stored:` (the stored trust class), `kind:` (decision, question,
belief, uncertainty, topic, contradiction; a prefix is enough), `state:`
(active, carried, resolved, superseded, contradicted, quarantined or retracted,
forgotten, withheld, not; a prefix is enough), `project:` (part of the bucket slug), `since:` (a
date `2026-01-31`, or an age `12h`, `7d`, `2w`, `6m`, `1y`). A leading `-`
negates a facet or drops hits holding a word. Words go to recall as typed;
recall makes each one a quoted phrase, so no FTS operator acts.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

FACETS = ("trust", "stored", "kind", "state", "project", "since")
_AGE = re.compile(r"^(\d{1,5})([hdwmy])$")
_UNIT_S = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "y": 365 * 86400}


class Facetable(Protocol):
    text: str
    quote: str | None
    mark: str
    trust: str | None
    kind: str
    state: str
    project_slug: str | None
    shared_project: str | None
    created: str | None


@dataclass(frozen=True, slots=True)
class Facet:
    name: str
    value: str
    negated: bool = False
    since: float | None = None  # epoch, for `since:`


@dataclass(frozen=True, slots=True)
class SearchQuery:
    words: str = ""
    facets: tuple[Facet, ...] = ()
    excluded: tuple[str, ...] = ()
    problems: tuple[str, ...] = field(default=())


def _since(value: str, now: float) -> float | None:
    age = _AGE.match(value)
    if age:
        return now - int(age.group(1)) * _UNIT_S[age.group(2)]
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def parse_query(query: str, now: float | None = None) -> SearchQuery:
    now = time.time() if now is None else now
    words: list[str] = []
    facets: list[Facet] = []
    excluded: list[str] = []
    problems: list[str] = []
    for token in query.split():
        negated = token.startswith("-") and len(token) > 1
        bare = token[1:] if negated else token
        name, colon, value = bare.partition(":")
        if colon and name.lower() in FACETS:
            name = name.lower()
            if not value:
                problems.append(f"{name}: needs a value")
                continue
            since = None
            if name == "since":
                since = _since(value, now)
                if since is None:
                    problems.append(f"since:{value[:40]} is not a date (2026-01-31) or an age (7d, 2w, 6m)")
                    continue
            facets.append(Facet(name, value.lower(), negated, since))
        elif negated:
            excluded.append(bare.lower())
        else:
            words.append(token)
    return SearchQuery(" ".join(words), tuple(facets), tuple(excluded), tuple(problems))


def _epoch(created: str | None) -> float | None:
    if not created:
        return None
    try:
        when = datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _facet_holds(hit: Facetable, facet: Facet) -> bool:
    if facet.name == "trust":
        return hit.mark == facet.value
    if facet.name == "stored":
        return (hit.trust or "untagged") == facet.value
    if facet.name == "kind":
        return hit.kind.lower().startswith(facet.value)
    if facet.name == "state":
        # the verb's word for daimon's state: a retraction quarantines the value
        return hit.state.startswith(facet.value) or (
            hit.state == "quarantined" and "retracted".startswith(facet.value))
    if facet.name == "project":
        # A teammate's copy answers to its shared project as well as to its checkout's slug.
        return any(facet.value in (slug or "").lower() for slug in (hit.project_slug, hit.shared_project))
    created = _epoch(hit.created)
    return created is not None and facet.since is not None and created >= facet.since


def hit_matches(hit: Facetable, query: SearchQuery) -> bool:
    if any(_facet_holds(hit, f) == f.negated for f in query.facets):
        return False
    haystack = f"{hit.text}\n{hit.quote or ''}".lower()
    return not any(word in haystack for word in query.excluded)
