"""Team memory read through daimon's own team readers, checked against daimon's CLI.

The store is real: two daimon homes synced through a local bare remote by
daimon's own team functions (tests/team_store.py). daimon's `main(argv)` runs
in-process to say what daimon itself prints.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from daimon_briefing import briefing, render
from daimon_briefing.cli import main as daimon_main

from daimon_tui.domain.team import TEAMMATES_HEADER, shared_claims
from daimon_tui.headless.team import run_brief_team
from daimon_tui.models.team import NOT_CORROBORATION, TeamView
from daimon_tui.services.as_of import team_as_of
from daimon_tui.store.read import reader
from daimon_tui.store.read.team import load_team
from tests.team_store import (
    ALICE_FETCHED,
    ALICE_QUARANTINED,
    BOB_QUARANTINED,
    SHARED_DECISION,
    SHARED_LOOP,
    TeamStore,
)


def _daimon(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert daimon_main(list(argv)) == 0
    return capsys.readouterr().out


def _teammate_blocks(text: str) -> list[list[str]]:
    """`daimon brief --team`'s Teammates section: one list of lines per teammate."""
    assert TEAMMATES_HEADER in text
    section = text.split(TEAMMATES_HEADER, 1)[1]
    blocks: list[list[str]] = []
    for line in section.splitlines():
        if line.startswith("[") and line.endswith("]"):
            blocks.append([line])
        elif line.startswith("  ") and blocks:
            blocks[-1].append(line.strip())
        elif line.strip() and blocks:
            break  # the trailer
    return blocks


def _our_blocks(team: TeamView) -> list[list[str]]:
    blocks = []
    for mate in team.teammates:
        lines = [f"[{mate.author}]"]
        if mate.topic:
            lines.append(f"Active topic: {mate.topic}" + (f" {mate.topic_label}" if mate.topic_label else ""))
        if mate.decisions:
            lines.append("Decisions made:")
        lines += [entry.item.line for entry in mate.decisions]
        if mate.decisions_note:
            lines.append(mate.decisions_note)
        blocks.append(lines)
    return blocks


@pytest.fixture
def team(team_store: TeamStore) -> TeamView:
    return load_team(reader.resolve_project(str(team_store.project)))


def test_header_is_daimons() -> None:
    assert render._TEAMMATES_HEADER == TEAMMATES_HEADER


def test_teammates_agree_with_daimon_brief_team_item_by_item(
    team_store: TeamStore, team: TeamView, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _daimon(capsys, "brief", "--team")
    assert _our_blocks(team) == _teammate_blocks(printed)
    bob = team.teammates[0]
    assert (bob.author, bob.session_id, bob.created) == ("bob", "S-bob-1", "2026-12-01T15:00:00Z")
    assert bob.remotes == (team_store.remote_slug,)
    # pushed by bob at BOB_PUSHED, it reached alice's clone when she fetched
    assert bob.arrived == ALICE_FETCHED
    assert bob.project_slug and bob.project_slug.endswith("bob-code-app")
    labelled = [e.item for e in bob.decisions if e.item.has_badge("foreign-verbatim")]
    assert [i.mark for i in labelled] == ["inferred"]
    assert briefing.FOREIGN_VERBATIM_NOTE in labelled[0].line


def test_a_shared_claim_is_one_entry_with_every_author_and_no_corroboration(
    team: TeamView, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _daimon(capsys, "brief", "--team")
    # daimon prints the claim under the reader and again under the teammate ...
    assert printed.count(SHARED_DECISION) == 2
    shared = shared_claims(team)
    assert [(e.item.text, e.authors) for e in shared] == [(SHARED_DECISION, ("alice", "bob"))]
    # ... and counts no corroboration across authors: neither do we.
    assert shared[0].item.corroboration == 0
    assert "corroborated" not in printed
    assert "corroboration" in NOT_CORROBORATION


def test_withheld_counts_match_daimons_trailer(team: TeamView, capsys: pytest.CaptureFixture[str]) -> None:
    printed = _daimon(capsys, "brief", "--team")
    assert f"({team.resolved_withheld} a teammate's)" in printed.split("resolved item(s) withheld", 1)[1]
    assert f"({team.quarantined_withheld} a teammate's)" in printed.split("quarantined item(s) withheld", 1)[1]
    assert (team.resolved_withheld, team.quarantined_withheld) == (1, 1)
    # issue 25 point 6: the quarantined one is bob's published quarantine, not alice's ledger
    assert team.team_quarantined_withheld == 1
    from daimon_tui.domain.team import withheld_phrase

    assert withheld_phrase(team) == ("Withheld from the teammates' sections by your own ledgers: 1 resolved, "
                                     "0 quarantined; by teammates' published quarantines (below): 1")
    shown = " ".join(e.item.text for e in team.items())
    assert SHARED_LOOP not in shown and BOB_QUARANTINED not in shown


def test_published_quarantines_are_what_trust_list_team_counts(
    team_store: TeamStore, team: TeamView, capsys: pytest.CaptureFixture[str]
) -> None:
    # Off a terminal daimon lists kind and count only; we show who and when too.
    rows = json.loads(_daimon(capsys, "trust", "list", "--team", "--json"))
    assert rows == [{"kind": "decision", "count": len(team.team_quarantines)}]
    assert [(q.kind, q.author) for q in team.team_quarantines] == [("decision", "bob")]
    assert team.team_quarantines[0].ts.startswith("2026-")
    dumped = team.model_dump_json()
    assert BOB_QUARANTINED not in dumped and team_store.bob_quarantine not in dumped


def test_own_quarantines_say_where_they_are_published(team_store: TeamStore, team: TeamView) -> None:
    assert team.routed
    assert [(q.quarantine_id, q.published_to, q.missing_from) for q in team.own_quarantines] == [
        (team_store.alice_quarantine, (team_store.remote_slug,), ())
    ]
    assert team.publishes_to == (team_store.remote_slug,)
    assert ALICE_QUARANTINED not in team.model_dump_json()


def test_remote_counts_are_what_team_status_says(
    team_store: TeamStore, team: TeamView, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = json.loads(_daimon(capsys, "team", "status", "--json"))
    assert [(r["slug"], r["branch"], r["unpushed"], r["pending"], tuple(r["authors"]), tuple(r["scope"]),
             r["config_warning"]) for r in rows] == [
        (r.slug, r.branch, r.unpushed, r.pending, r.authors, r.scope, r.config_warning) for r in team.remotes
    ]
    assert team.remotes[0].scope == ("example.invalid/team/app",)
    # alice's published quarantine is in her clone, not yet committed by a sync.
    assert team.remotes[0].pending == 1
    assert team.remotes[0].last_sync == ALICE_FETCHED


def test_brief_team_json_agrees_with_daimon_item_by_item(
    team_store: TeamStore, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = _daimon(capsys, "brief", "--team")
    project = reader.resolve_project(str(team_store.project))
    out = io.StringIO()
    assert run_brief_team(reader.load_briefing(project), project, as_json=True, out=out) == 0
    got = json.loads(out.getvalue())["team"]
    daimon_blocks = _teammate_blocks(printed)
    assert [m["author"] for m in got["teammates"]] == [b[0].strip("[]") for b in daimon_blocks]
    for mate, block in zip(got["teammates"], daimon_blocks, strict=True):
        assert [d["line"] for d in mate["decisions"]] == [line for line in block if line.startswith("- ")]
    assert got["shared_claims"][0]["authors"] == ["alice", "bob"]


def test_no_team_is_a_quiet_empty_view(demo_store) -> None:
    team = load_team(reader.resolve_project(str(demo_store.project)))
    assert not team.configured and not team.notes and not team.teammates


def test_cli_brief_team_prints_daimons_teammate_lines_and_refuses_as_of(
    team_store: TeamStore, capsys: pytest.CaptureFixture[str]
) -> None:
    from daimon_tui.cli import main as tui_main

    daimon_blocks = _teammate_blocks(_daimon(capsys, "brief", "--team"))
    assert tui_main(["brief", "--team", "--project", str(team_store.project)]) == 0
    ours = capsys.readouterr().out
    for block in daimon_blocks:
        for line in block:
            assert line in ours, line
    assert "stated by alice (you), bob; " + NOT_CORROBORATION in ours


def test_as_of_the_team_is_what_had_reached_the_clone_then(
    team_store: TeamStore, capsys: pytest.CaptureFixture[str]
) -> None:
    from daimon_tui.cli import main as tui_main

    project = reader.resolve_project(str(team_store.project))
    now = load_team(project)
    # bob had written and pushed, but alice's clone had not fetched yet.
    before = asyncio.run(team_as_of(project, "2026-12-01T20:00:00Z"))
    assert before.teammates == () and before.team_quarantines == ()
    assert "what had reached this machine's team clone" in before.notes[0].message
    after = asyncio.run(team_as_of(project, "2026-12-02T09:00:00Z"))
    assert _our_blocks(after) == _our_blocks(now)
    assert after.team_quarantines == now.team_quarantines and after.remotes == ()
    capsys.readouterr()
    assert tui_main(["brief", "--team", "--json", "--as-of", "2026-12-01T20:00:00Z",
                     "--project", str(team_store.project)]) == 0
    assert json.loads(capsys.readouterr().out)["team"]["teammates"] == []


def test_the_team_watch_counts_files_and_reflogs_not_gits_churn(tmp_path: Path) -> None:
    from daimon_tui.store.read.team_live import relevant

    root = tmp_path / "team"
    assert relevant(root / "clone" / "projects" / "p" / "authors" / "bob" / "S-1.json", root)
    assert relevant(root / "clone" / ".git" / "logs" / "refs" / "remotes" / "origin" / "main", root)
    assert not relevant(root / "clone" / ".git" / "objects" / "ab" / "cdef", root)
    assert not relevant(root / "clone" / ".git" / "index.lock", root)
    assert not relevant(root / "clone" / ".git" / "index", root)
    assert not relevant(tmp_path / "elsewhere" / "x.json", root)


async def test_a_team_directory_made_later_is_polled_into_view(tmp_path: Path, monkeypatch) -> None:
    import asyncio

    from daimon_tui.store.read import team_live

    monkeypatch.setattr(team_live, "POLL_SECONDS", 0.05)
    root = tmp_path / "team"  # no team yet: `daimon team init` makes it
    batches = team_live.watch_team(root)
    first = asyncio.ensure_future(anext(batches))
    await asyncio.sleep(0.15)
    assert not first.done()
    (root / "clone" / "authors" / "bob").mkdir(parents=True)
    (root / "clone" / "authors" / "bob" / "S-1.json").write_text("{}")
    await asyncio.wait_for(first, timeout=2)
    await batches.aclose()


@pytest.mark.parametrize("team_on", [True, False])
def test_retracting_your_own_item_says_whether_daimon_publishes_it(
    team_store: TeamStore, team_on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from daimon_briefing import config

    from daimon_tui.domain import verbs
    from daimon_tui.store.write import plans

    if not team_on:
        monkeypatch.setattr(config, "team_enabled", lambda: False)
    project = reader.resolve_project(str(team_store.project))
    own = next(i for i in reader.load_briefing(project).items() if i.text == SHARED_DECISION)
    plan = plans.build_plan("retract", (own.id or "",), project, verbs.RetractInput(reason="r", evidence=("issue:1",)))
    said = [e for e in plan.effects if e.startswith("the team: ")]
    if team_on:
        # issue 25 point 6: not "after their next sync"; the author's sync must push it first
        assert said == [f"the team: will be published to your clone of {team_store.remote_slug}; it reaches a "
                        "teammate only after your `daimon team sync` has pushed it (daimon also starts one when a "
                        "session starts) and then theirs has fetched it: until then teammates still see the value"]
    else:
        assert said == ["the team: stays on this machine: no team remote receives this project's quarantines"]


def test_a_store_without_a_team_says_nothing_of_one_in_a_retract_preview(demo_store) -> None:
    from daimon_tui.domain import verbs
    from daimon_tui.store.write import plans

    project = reader.resolve_project(str(demo_store.project))
    item = reader.load_briefing(project).items()[0]
    plan = plans.build_plan("retract", (item.id or "",), project, verbs.RetractInput(reason="r", evidence=("x:1",)))
    assert not [e for e in plan.effects if e.startswith("the team")]


@pytest.mark.parametrize("team_on", [True, False])
def test_restoring_a_published_quarantine_says_the_release_reaches_the_team(
    team_store: TeamStore, team_on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from daimon_briefing import config

    from daimon_tui.store.write import plans

    if not team_on:
        monkeypatch.setattr(config, "team_enabled", lambda: False)
    project = reader.resolve_project(str(team_store.project))
    withheld = next(w for w in reader.load_briefing(project).withheld if w.state == "quarantined")
    plan = plans.build_plan("restore", (withheld.id or "",), project)
    assert plan.allowed and [w.quarantine_id for w in plan.writes] == [team_store.alice_quarantine]
    said = [e for e in plan.effects if e.startswith("the team: ")]
    if team_on:
        assert said == [f"the team: the release is published to your clone of {team_store.remote_slug} too; it "
                        "reaches a teammate only after your `daimon team sync` has pushed it (daimon also starts one "
                        "when a session starts) and then theirs has fetched it: until then teammates keep "
                        "withholding the value"]
    else:
        assert said == [f"the team: published to {team_store.remote_slug}, but the team is off here (DAIMON_TEAM): "
                        "the release is not published and teammates keep withholding the value"]


def test_the_remote_line_says_which_projects_it_receives(team: TeamView) -> None:
    from daimon_tui.domain.team import remote_phrase

    remote = team.remotes[0]
    assert "scope: example.invalid/team/app" in remote_phrase(remote)
    closed = remote.model_copy(update={"scope": (), "config_warning": "daimon-team.toml: bad [scope]"})
    said = remote_phrase(closed)
    assert "scope: none — this remote receives no checkpoints (add [scope] repos to daimon-team.toml)" in said
    assert "warning: daimon-team.toml: bad [scope]" in said
    granted = closed.model_copy(update={"granted_by_env": True})
    assert "scope: none configured — DAIMON_TEAM_PROJECT grants this machine's sessions" in remote_phrase(granted)


def test_safe_mode_shows_the_teammates_and_says_the_clones_counts_are_off(
    team_store: TeamStore, team: TeamView, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Safe mode (issue 30.3): the teammates' memory is daimon's public read and
    still equals the full mode's; the clones' counts and where a quarantine is
    published need daimon's private names, so they are left out with the reason."""
    from daimon_tui.store.daimon_api import mode

    monkeypatch.setenv(mode.ENV_SAFE, "1")
    mode.set_current(None)
    try:
        safe = load_team(reader.resolve_project(str(team_store.project)))
    finally:
        monkeypatch.delenv(mode.ENV_SAFE)
        mode.set_current(None)
    # which clone holds a teammate, and when it arrived there, come from the clones too
    assert safe.teammates == tuple(m.model_copy(update={"remotes": (), "arrived": None}) for m in team.teammates)
    assert _our_blocks(safe) == _our_blocks(team)
    assert safe.remotes == () and safe.publishes_to == ()
    # which clones hold each of the reader's quarantines: public names (`team.clone-of`)
    assert safe.own_quarantines == team.own_quarantines and safe.routed == team.routed
    assert any("the team status is off in safe mode" in n.message and "teamsync._branch" in n.message
               for n in safe.notes)
