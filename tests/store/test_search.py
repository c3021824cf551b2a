"""Search through daimon's recall index: what each hit is now, facets, hostile
queries, and agreement with daimon's own `recall` (team copies included)."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from daimon_briefing import recall, teamsync, testing

from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader, search


def _project(store: demo.DemoStore) -> ProjectRef:
    return reader.resolve_project(str(store.project))


def _by_text(result: search.SearchResult, start: str) -> search.SearchHit:
    return next(h for h in result.hits if h.text.startswith(start))


def test_each_hit_says_what_it_is_now(demo_store: demo.DemoStore) -> None:
    project = _project(demo_store)
    hits = search.search(project, "retry")
    resolved = _by_text(hits, "Does the upload API send Retry-After")
    assert (resolved.state, resolved.state_detail, resolved.live) == ("resolved", "resolved", False)
    carried = _by_text(hits, "Log every retry attempt")
    assert (carried.state, carried.live, carried.session_id) == ("carried", True, "S-day3")
    topic = _by_text(hits, "Retry policy rollout")
    assert topic.state == "active" and topic.kind == "topic"
    old = _by_text(search.search(project, "gzip"), "Whether gzip uploads")
    assert (old.state, old.live, old.session_id) == ("not carried", False, "S-day1")
    assert all(h.created for h in hits.hits)


def test_search_and_the_briefing_agree_on_trust_marks(demo_store: demo.DemoStore, capsys) -> None:
    """An item the briefing holds carries the briefing's mark in search, headless too:
    `? unverified` past its staleness budget, `⚠ unverified (verbatim)` on a failed receipt."""
    import json

    from daimon_tui import cli

    demo.tamper(demo_store.checkpoint_dir, "S-day3")  # the latest receipt fails
    project = _project(demo_store)
    marks = {i.id: i.mark for i in reader.load_briefing(project).items() if i.id}
    assert {"stale", "unverified-verbatim"} <= set(marks.values())
    shown = {}
    for query in ("retry", "single-threaded", "upload", "staging", "branch"):
        for hit in search.search(project, query).hits:
            if hit.live and hit.item_id:
                shown[hit.item_id] = hit.mark
                assert hit.mark == marks[hit.item_id], (hit.text, hit.mark, marks[hit.item_id])
    assert {"stale", "unverified-verbatim"} <= set(shown.values())
    single = _by_text(search.search(project, "single-threaded"), "Keep the upload worker single-threaded")
    assert single.trust == "verbatim" and single.mark == "stale"
    capsys.readouterr()
    assert cli.main(["search", "single-threaded", "--json", "--project", str(demo_store.project)]) == 0
    hit = next(h for h in json.loads(capsys.readouterr().out)["hits"] if h["id"] == single.item_id)
    assert hit["mark"] == "stale"


def test_a_quarantined_value_is_never_recalled(demo_store: demo.DemoStore) -> None:
    # The demo quarantines the CDN uncertainty: daimon's judge drops its rows.
    assert search.search(_project(demo_store), "CDN").hits == ()


@pytest.mark.parametrize("query", ["", "   ", "state:carried", "-retry", "\t\n"])
def test_an_empty_query_lists_nothing_and_asks_daimon_nothing(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch, query: str) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("recall was queried")

    monkeypatch.setattr(recall, "query", refuse)
    assert search.search(_project(demo_store), query).hits == ()


HOSTILE = [
    'NEAR(retry upload, 2)', 'retry AND OR NOT upload', '"unbalanced', 'retry"', "*", "retr*", "upload*",
    "(", ")", "^retry", "col:retry", "text:retry", '""', "'", "-", "--", "\x00retry", "retry\x1b[31m",
    "[bold]retry[/bold]", "\u202eretry", "NEAR", "{retry}", "retry + upload", ("retry " * 3000),
]


def test_hostile_queries_answer_without_an_error(demo_store: demo.DemoStore) -> None:
    for query in HOSTILE:
        result = search.search(_project(demo_store), query)
        assert not [n for n in result.notes if n.level == "error"], query
        assert all(isinstance(h, search.SearchHit) for h in result.hits)


def test_a_very_long_query_is_cut_and_said(demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    real = recall.query

    def spy(text: str, **kwargs: object) -> recall.Recalled:
        sent.append(text)
        return real(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recall, "query", spy)
    result = search.search(_project(demo_store), "retry " * 3000)
    assert len(sent[0]) <= search.MAX_QUERY_CHARS
    assert any("cut" in n.message for n in result.notes)
    assert result.hits


def test_an_index_error_is_a_note_not_a_crash(demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("fts5: syntax error near \"*\"")

    monkeypatch.setattr(recall, "query", broken)
    result = search.search(_project(demo_store), "retry")
    assert result.hits == () and "could not answer" in result.notes[0].message


def test_facets_filter_the_hits(demo_store: demo.DemoStore) -> None:
    project = _project(demo_store)
    every = search.search(project, "upload")
    assert {h.state for h in every.hits} >= {"resolved", "carried"}
    assert {h.state for h in search.search(project, "upload state:resolved").hits} == {"resolved"}
    assert "resolved" not in {h.state for h in search.search(project, "upload -state:resolved").hits}
    assert {h.kind for h in search.search(project, "upload kind:dec").hits} == {"decision"}
    assert {h.mark for h in search.search(project, "upload trust:verbatim").hits} == {"verbatim"}
    assert search.search(project, f"retry project:{project.slug[-12:]}").hits
    assert search.search(project, "retry project:no-such-project").hits == ()
    assert search.search(project, "retry since:2000-01-01").hits
    assert search.search(project, "retry since:2999-01-01").hits == ()
    dropped = search.search(project, "retry -backoff")
    assert dropped.hits and not [h for h in dropped.hits if "backoff" in h.text.lower()]


# ---- agreement with daimon's own recall ---------------------------------------

QUERIES = ("retry", "upload bucket", "nightly job", "retry budget", "Retry-After headers", "flag")


def _key(row: dict) -> tuple:
    return (row.get("item_id"), row.get("session_id"), row.get("author"), " ".join(str(row.get("text")).split()))


def _hit_key(hit: search.SearchHit) -> tuple:
    return (hit.item_id, hit.session_id, hit.author, " ".join(hit.text.split()))


def test_daimons_top_hits_are_among_ours(demo_store: demo.DemoStore) -> None:
    project = _project(demo_store)
    for query in QUERIES:
        theirs = {_key(r) for r in recall.search(query, project_dir=str(demo_store.project), limit=10)}
        ours = {_hit_key(h) for h in search.search(project, query).hits}
        assert theirs <= ours, query


ORIGIN = "https://example.invalid/acme/app.git"


def _person(stack: ExitStack, root: Path, remote: Path, name: str, *decisions: str) -> Path:
    stack.enter_context(testing.sandbox(root, settings={"DAIMON_TEAM": "1", "DAIMON_AUTHOR": name}))
    project = root / "app"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "remote", "add", "origin", ORIGIN], check=True)
    teamsync.init(str(remote), project_dir=str(project))
    testing.seed_checkpoint(str(project), testing.sample_checkpoint(*decisions, topic=f"{name}'s retry work"),
                            session_id=f"S-{name}")
    assert teamsync.sync()[0]["pushed"]
    return project


@pytest.fixture
def team_store(sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Bob's store, with Alice's session synced in through a local bare remote
    by daimon's own team functions (no network)."""
    for name in ("GIT_AUTHOR", "GIT_COMMITTER"):
        monkeypatch.setenv(f"{name}_NAME", "test")
        monkeypatch.setenv(f"{name}_EMAIL", "test@example.invalid")
    remote = sandbox_root / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    with ExitStack() as alice:
        _person(alice, sandbox_root / "alice", remote, "alice", "Pin the retry budget to five attempts")
    with ExitStack() as bob:
        yield _person(bob, sandbox_root / "bob", remote, "bob", "Keep the retry budget configurable")


def test_teammates_hits_agree_with_daimon_and_can_be_hidden(team_store: Path) -> None:
    project = reader.resolve_project(str(team_store))
    for query in ("retry", "retry budget", "five attempts"):
        theirs = {_key(r) for r in recall.search(query, all_projects=True, limit=10)}
        ours = {_hit_key(h) for h in search.search(project, query, all_projects=True).hits}
        assert theirs <= ours, query
    shown = search.search(project, "retry budget", all_projects=True)
    alice = [h for h in shown.hits if h.author == "alice"]
    assert alice and all(h.teammate and not h.live for h in alice)
    assert [h for h in shown.hits if h.author == "bob" and not h.teammate]
    hidden = search.search(project, "retry budget", all_projects=True, team=False)
    assert hidden.hits and not [h for h in hidden.hits if h.teammate]
    # Scoped to Bob's project, Alice's copies (stamped with her project) stay out, as in daimon.
    scoped = search.search(project, "retry budget")
    assert {_key(r) for r in recall.search("retry budget", project_dir=str(team_store))} <= {
        _hit_key(h) for h in scoped.hits}


def test_marks_are_judged_at_the_moment_asked_for_as_the_briefing_is(demo_store: demo.DemoStore) -> None:
    """A hit the briefing holds carries the briefing's mark at the briefing's
    moment: the app's clock (frozen in the demo and the tests), not the wall
    clock, so an item past its staleness budget later is not `? unverified`
    in search while the briefing beside it says `~ inferred`."""
    project = _project(demo_store)
    then = demo.DEMO_NOW.timestamp()
    asked = _by_text(search.search(project, "retry", now=then), "Log every retry attempt")
    briefed = next(i for i in reader.load_briefing(project, now=then).items()
                   if i.text.startswith("Log every retry attempt"))
    assert asked.mark == "inferred" == briefed.mark
    years_later = _by_text(search.search(project, "retry", now=then + 3 * 365 * 86400), "Log every retry attempt")
    assert years_later.mark != "inferred"
