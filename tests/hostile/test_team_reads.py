"""Reading team memory opens no connection, never syncs and never touches the remote.

Only the fixture runs git against the bare remote; the app reads the local
clone as daimon left it.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from daimon_tui.headless.team import run_brief_team
from daimon_tui.services.as_of import team_as_of
from daimon_tui.store.read import reader
from daimon_tui.store.read.team import load_team
from tests.team_store import TeamStore

from .test_no_network_no_programs import no_network, started  # noqa: F401 — fixtures

# What a read may ask git, all in daimon's local clone or the project:
# the project's origin (daimon's team routing), the clone's branch, its
# unpushed commits and its uncommitted own files (as `daimon team status` counts),
# when a teammate's checkpoint arrived (the commit adding it, bisected over the
# clone's HEAD moves), and, for an as-of view, the tree of the commit held then.
LOCAL_GIT = {"rev-parse", "rev-list", "status", "remote", "config", "ls-tree", "log", "merge-base"}
REMOTE_GIT = {"fetch", "ls-remote", "push", "pull", "clone", "merge", "commit", "add"}


def _tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(root.rglob("*")) if p.is_file()}


def _read_team(store: TeamStore) -> None:
    project = reader.resolve_project(str(store.project))
    team = load_team(project)
    assert team.teammates and team.remotes
    briefing = reader.load_briefing(project)
    for as_json in (True, False):
        run_brief_team(briefing, project, as_json=as_json, out=io.StringIO())
    assert asyncio.run(team_as_of(project, "2026-12-02T09:00:00Z")).teammates


def _subcommand(argv: list[str]) -> str:
    rest = argv[1:]
    while rest and rest[0] in ("-C", "-c"):
        rest = rest[2:]
    return rest[0] if rest else ""


def test_team_reads_open_no_connection(team_store: TeamStore, no_network: list[str]) -> None:  # noqa: F811
    _read_team(team_store)
    assert no_network == []


def test_team_reads_never_reach_the_remote_or_sync(
    team_store: TeamStore, started: list[list[str]]  # noqa: F811
) -> None:
    clone = Path(reader.resolve_project(str(team_store.project)).path or "")
    sidecars = sorted((team_store.root / "alice" / "team").iterdir())
    remote_before = _tree_state(team_store.remote)
    clone_before = {s: _tree_state(s / ".git") for s in sidecars}
    started.clear()
    _read_team(team_store)
    assert started, "the read asks git about the clone; the recorder saw nothing"
    for argv in started:
        assert Path(argv[0]).name == "git", argv
        assert _subcommand(argv) in LOCAL_GIT and not REMOTE_GIT & set(argv), argv
        assert not any(str(team_store.remote) in a for a in argv), argv
    assert _tree_state(team_store.remote) == remote_before
    # No sync: the clone's refs and objects are as daimon left them (`git
    # status`, which daimon's pending count runs, may refresh the index's stat cache).
    after = {s: _tree_state(s / ".git") for s in sidecars}
    changed = {f for s in sidecars for f in set(after[s]) ^ set(clone_before[s]) | {
        f for f in after[s] if f in clone_before[s] and after[s][f] != clone_before[s][f]}}
    assert {Path(f).name for f in changed} <= {"index"}, changed
    assert clone.is_dir()
