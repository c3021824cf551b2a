"""Teammates' hits are grouped under the shared project, by origin, as
`daimon brief --team` finds them; daimon files them under the teammate's own
checkout slug. On the two-engineer store (tests/team_store.py), reader alice."""

from __future__ import annotations

import json

import pytest
from daimon_briefing import recall, store

from daimon_tui import cli
from daimon_tui.store.read import reader, search
from tests.team_store import BOB_QUARANTINED, BOB_TOPIC, BOB_VERBATIM, SHARED_DECISION, SHARED_LOOP, TeamStore


def _bob(result: search.SearchResult) -> list[search.SearchHit]:
    return [h for h in result.hits if h.author == "bob"]


def test_with_the_team_shown_a_teammates_hit_is_under_the_shared_project(team_store: TeamStore) -> None:
    project = reader.resolve_project(str(team_store.project))
    bob_slug = store.project_slug(str(team_store.bob_project))
    found = search.search(project, "importer")
    bob = _bob(found)
    assert {h.text for h in bob} == {BOB_TOPIC, BOB_VERBATIM}
    for hit in bob:
        assert (hit.teammate, hit.shared_project, hit.project_slug, hit.live) == (True, project.slug, bob_slug, False)
        assert hit.state == "active"  # both stand in his newest checkpoint
    # daimon's own answer for his slug is among ours, in its order.
    theirs = [r["text"] for r in recall.query("importer", slug=bob_slug).rows]
    assert [h.text for h in bob] == theirs
    # The team hidden: none of his.
    assert _bob(search.search(project, "importer", team=False)) == []


def test_the_shared_projects_own_ledgers_close_a_teammates_copy(team_store: TeamStore) -> None:
    project = reader.resolve_project(str(team_store.project))
    loop = [h for h in _bob(search.search(project, "retry 429")) if h.text == SHARED_LOOP]
    assert [(h.state, h.item_id) for h in loop] == [("resolved", team_store.shared_loop_id)]
    shared = {(h.author, h.shared_project) for h in search.search(project, "sqlite").hits if h.text == SHARED_DECISION}
    assert shared == {("alice", None), ("bob", project.slug)}
    # His published quarantine: daimon withholds the value, so no hit carries it.
    assert not [h for h in search.search(project, "production flag").hits if h.text == BOB_QUARANTINED]


def test_every_project_labels_a_teammates_copy_with_the_shared_project(team_store: TeamStore) -> None:
    project = reader.resolve_project(str(team_store.project))
    bob = _bob(search.search(project, "importer", all_projects=True))
    assert bob and {h.shared_project for h in bob} == {project.slug}
    assert search.search(project, "importer project:alice-src-app").hits  # the shared project answers the facet


def test_search_json_groups_them_under_the_shared_project(team_store: TeamStore,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project = reader.resolve_project(str(team_store.project))
    assert cli.main(["search", "importer", "--json", "--project", str(team_store.project)]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert {(h["author"], h["shared_project"], h["teammate"]) for h in hits} == {("bob", project.slug, True)}
    assert cli.main(["search", "importer", "--project", str(team_store.project)]) == 0
    out = capsys.readouterr().out
    assert f"teammate bob · shared project {project.slug} (filed under " in out
    assert out.index("teammate bob") < out.index(BOB_TOPIC)


@pytest.mark.parametrize("query", ["importer", "sqlite", "retry 429", "cache", "production flag", "migrations",
                                   "textual"])
def test_search_by_slug_in_a_team_home_matches_daimon_recall(team_store: TeamStore, query: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25 point 6: `search --slug` names one bucket, as `daimon recall --slug` does: no teammate's hits."""
    from daimon_briefing.cli import main as daimon_main

    slug = store.project_slug(str(team_store.project))
    capsys.readouterr()
    daimon_main(["recall", *query.split(), "--slug", slug, "--json"])
    out = capsys.readouterr().out
    theirs = [r["text"] for r in json.loads(out)] if out.strip().startswith("[") else []
    cli.main(["search", query, "--slug", slug, "--json"])
    ours = [h["text"] for h in json.loads(capsys.readouterr().out)["hits"]]
    assert ours == theirs
