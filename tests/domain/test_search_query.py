"""The search box's syntax: words for recall, facets for the hits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from daimon_tui.domain.search_query import hit_matches, parse_query

NOW = datetime(2026, 12, 2, tzinfo=UTC).timestamp()


@dataclass
class Hit:
    text: str = "Retry uploads with backoff"
    quote: str | None = None
    mark: str = "verbatim"
    trust: str | None = "verbatim"
    kind: str = "decision"
    state: str = "carried"
    project_slug: str | None = "-tmp-app"
    shared_project: str | None = None
    created: str | None = "2026-11-30T09:00:00Z"


def test_words_go_to_recall_and_facets_stay_here() -> None:
    query = parse_query("retry Trust:verbatim upload kind:dec -flaky -state:resolved", now=NOW)
    assert query.words == "retry upload"
    assert [(f.name, f.value, f.negated) for f in query.facets] == [
        ("trust", "verbatim", False), ("kind", "dec", False), ("state", "resolved", True)]
    assert query.excluded == ("flaky",) and query.problems == ()


def test_an_unknown_facet_is_a_word() -> None:
    assert parse_query("colour:red NEAR(a", now=NOW).words == "colour:red NEAR(a"


def test_since_takes_a_date_or_an_age_and_says_what_it_cannot_read() -> None:
    assert parse_query("since:7d", now=NOW).facets[0].since == NOW - 7 * 86400
    assert parse_query("since:2026-11-01", now=NOW).facets[0].since == datetime(2026, 11, 1, tzinfo=UTC).timestamp()
    bad = parse_query("x since:yesterday trust:", now=NOW)
    assert len(bad.problems) == 2 and bad.facets == ()


def test_hits_match_every_facet() -> None:
    hit = Hit()
    assert hit_matches(hit, parse_query("x trust:verbatim kind:dec state:car project:app since:3d", now=NOW))
    assert not hit_matches(hit, parse_query("x since:1d", now=NOW))
    assert not hit_matches(hit, parse_query("x -state:carried", now=NOW))
    assert not hit_matches(hit, parse_query("x trust:inferred", now=NOW))
    assert not hit_matches(hit, parse_query("x -BACKOFF", now=NOW))
    assert not hit_matches(Hit(created=None), parse_query("x since:1y", now=NOW))


def test_trust_is_the_shown_mark_and_stored_the_stored_class() -> None:
    """As in the briefing's `/` filter: a verbatim item carried past its staleness budget shows `? unverified`."""
    stale = Hit(mark="stale", trust="verbatim")
    assert hit_matches(stale, parse_query("x trust:stale", now=NOW))
    assert not hit_matches(stale, parse_query("x trust:verbatim", now=NOW))
    assert hit_matches(stale, parse_query("x stored:verbatim", now=NOW))
    assert hit_matches(Hit(trust=None), parse_query("x stored:untagged", now=NOW))


def test_state_retracted_finds_what_a_retract_quarantined() -> None:
    """Issue 28 point 7: the verb's word works in search as in the briefing's filter."""
    hit = Hit(state="quarantined")
    assert hit_matches(hit, parse_query("state:retracted", now=NOW))
    assert hit_matches(hit, parse_query("state:retr", now=NOW))
    assert not hit_matches(hit, parse_query("-state:retracted", now=NOW))
    assert not hit_matches(Hit(state="active"), parse_query("state:retracted", now=NOW))
