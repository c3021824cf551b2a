"""The `/` filter: withheld rows match on id, kind and state only; unknown
facets and values are reported, not matched."""

from __future__ import annotations

from daimon_tui.domain import filtering
from daimon_tui.models import WithheldItem

QUARANTINED = WithheldItem(id="o-abc123", kind="open_loop", state="quarantined")


def test_a_textless_withheld_row_matches_on_id_kind_and_state_only() -> None:
    def shown(query: str) -> bool:
        return filtering.matches_withheld(QUARANTINED, filtering.read(query).terms)

    assert not shown("retry") and not shown("trust:verbatim") and not shown("carried")
    assert shown("o-abc") and shown("open_loop") and shown("quarantined") and shown("state:quar")
    assert shown("-retry") and not shown("-quarantined")


def test_a_withheld_state_facet_asks_for_withheld_rows() -> None:
    assert filtering.read("state:resolved").wants_withheld
    assert filtering.read("state:quarantined retry").wants_withheld
    assert not filtering.read("state:visible").wants_withheld
    assert not filtering.read("-state:resolved").wants_withheld


def test_unknown_facets_and_values_are_reported_not_matched() -> None:
    query = filtering.read("retry trust:bogus foo:bar section:nowhere state:")
    assert len(query.terms) == 1
    assert [p.split(" ")[0] for p in query.problems] == ["unknown", "unknown", "unknown", "state:"]
    assert "trust 'bogus'" in query.problems[0] and "facet foo:" in query.problems[1]
    assert not filtering.read("trust:verbatim section:open state:res id:o-1 carried").problems


def test_state_retracted_is_known_and_finds_what_a_retract_quarantined() -> None:
    """Issue 28 point 7: after a retract, `state:retracted` is not "unknown"."""
    query = filtering.read("state:retracted")
    assert query.problems == ()
    assert query.wants_withheld
    assert filtering.matches_withheld(QUARANTINED, query.terms)
    resolved = WithheldItem(id="o-def456", kind="open_loop", state="resolved")
    assert not filtering.matches_withheld(resolved, query.terms)
    assert filtering.matches_withheld(resolved, filtering.read("state:re").terms)  # a prefix still works
