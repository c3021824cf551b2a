"""The read path opens no connection and starts only the processes we know of.

"Processes the app starts" in docs/reliability.md is the list `ALLOWED` below, with why.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from daimon_briefing import config

from daimon_tui.headless.brief import run_brief
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.child import judge_child
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import history, inspector, reader

from .conftest import NOW, seed_hostile

# program basename -> why the read path may start it
ALLOWED = {
    "git": "daimon's project resolver (`config.resolve_project_dir`) asks `git rev-parse --show-toplevel` "
    "to find the bucket of a project directory",
}
# Not the receipt signer (`DAIMON_VITNI_CLI`, the demo's `vitni-demo`): a read checks receipts itself.


class NetworkAttempt(AssertionError):
    pass


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    attempts: list[str] = []

    def refuse(name: str):
        def blocked(*args: object, **kwargs: object) -> None:
            attempts.append(f"{name}{args[1:] if name.startswith('socket.') else args}")
            raise NetworkAttempt(f"network use during a read: {name}")

        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket.socket, "sendto", refuse("socket.sendto"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    yield attempts


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every process started, by argv: Popen, the exec family, posix_spawn, system."""
    runs: list[list[str]] = []
    real_init = subprocess.Popen.__init__

    def popen_init(self: subprocess.Popen, args: object, *rest: object, **kw: object) -> None:
        runs.append([args] if isinstance(args, (str, bytes)) else [os.fspath(a) for a in args])  # type: ignore[union-attr]
        real_init(self, args, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess.Popen, "__init__", popen_init)
    for name in ("execv", "execve", "execvp", "execvpe", "execl", "execlp", "posix_spawn", "posix_spawnp"):
        real = getattr(os, name, None)
        if real is None:
            continue

        def spy(path: object, *rest: object, _real=real) -> object:
            runs.append([os.fspath(path)])  # type: ignore[arg-type]
            return _real(path, *rest)

        monkeypatch.setattr(os, name, spy)

    def system(command: str) -> int:
        runs.append(["system", command])
        raise AssertionError(f"os.system during a read: {command}")

    monkeypatch.setattr(os, "system", system)
    return runs


def _hostile_repository(project: Path, marker: Path) -> None:
    """A repository whose config would run programs: fsmonitor, pager, hooks,
    aliases, diff drivers, each writing `marker` if it ever runs."""
    real_run = subprocess.run
    real_run(["git", "init", "-q", str(project)], check=True)
    touch = f"sh -c 'echo ran >> {marker}'"
    for key, value in {
        "core.fsmonitor": touch,
        "core.pager": touch,
        "core.hooksPath": str(project / "hooks"),
        "alias.rev-parse": f"!{touch}",
        "diff.evil.command": touch,
        "core.sshCommand": touch,
        "credential.helper": f"!{touch}",
    }.items():
        real_run(["git", "-C", str(project), "config", key, value], check=True)
    hooks = project / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "pre-commit", "post-index-change", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\necho ran >> {marker}\n")
        (hooks / hook).chmod(0o755)
    (project / ".gitattributes").write_text("* diff=evil\n")


def _read_everything(store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(store.project))
    assert reader.project_exists(project)
    briefing = reader.load_briefing(project, now=NOW)
    assert briefing.items()
    for item in briefing.items():
        inspector.inspect(project, item.id or "", now=NOW)
    reader.list_projects()
    run_brief(briefing, as_json=True, out=io.StringIO())
    run_brief(briefing, as_json=False, out=io.StringIO())
    _child_reads(project, briefing)


def _child_reads(project: ProjectRef, briefing: Briefing) -> None:
    """Every read the judging child answers, through the child's own dispatch, in this process."""
    calls = judge_child._calls()
    sids = [s.session_id for s in history.sessions(project).rows]
    assert len(sids) >= 2
    requests = {
        "briefing": [NOW],
        "details": [briefing.items()[0].id, NOW],
        "evidence": [briefing.items()[0].id, "all", False],
        "evidence-warm": [1],
        "transcript": [briefing.items()[0].id],
        "audit": [],
        "sessions": [],
        "diff": sids[:2],
        "search": ["retry"],
        "search-prepare": [],
        "plan": ["resolve", [briefing.items()[0].id]],
        "team": [NOW],
        "fold-check": [],
        "projects": [],
    }
    assert set(requests) == set(judge_child.READS)
    for what, args in requests.items():
        request = {"what": what, "project": project.model_dump(mode="json"), "args": args}
        answer = json.loads(judge_child._answer(calls, request))
        assert answer["ok"], (what, answer)


def test_the_read_path_opens_no_connection(demo_store: demo.DemoStore, no_network: list[str]) -> None:
    seed_hostile(demo_store.project)
    _read_everything(demo_store)
    assert no_network == []


def test_the_read_path_starts_only_known_programs(
    demo_store: demo.DemoStore, started: list[list[str]], tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    _hostile_repository(demo_store.project, marker)
    seed_hostile(demo_store.project)
    started.clear()  # seeding and `git init` are the test's own
    config._git_toplevel.cache_clear()  # as in a fresh process: the resolver asks git again
    _read_everything(demo_store)
    programs = {Path(argv[0]).name for argv in started}
    assert programs <= set(ALLOWED), started
    for argv in started:
        if Path(argv[0]).name == "git":
            assert argv[1:2] in (["rev-parse"], ["-C"]) or "rev-parse" in argv, argv
    assert not marker.exists(), marker.read_text()


def test_the_worlds_evidence_starts_no_program(demo_store: demo.DemoStore, started: list[list[str]],
                                               tmp_path: Path) -> None:
    """A file's lines and its diff, a branch's commits, on a repository whose
    config would run programs: nothing is started, nothing runs."""
    from daimon_tui.store.world.evidence import world_evidence

    marker = tmp_path / "marker"
    _hostile_repository(demo_store.project, marker)
    real_run = subprocess.run
    (demo_store.project / "a.py").write_text("x = 1\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x"}
    real_run(["git", "-C", str(demo_store.project), "-c", "core.hooksPath=/dev/null", "add", "a.py"], check=True,
             env=env)
    real_run(["git", "-C", str(demo_store.project), "-c", "core.hooksPath=/dev/null", "commit", "-qm", "a"],
             check=True, env=env)
    (demo_store.project / "a.py").write_text("x = 2\n")
    marker.unlink(missing_ok=True)
    started.clear()
    ev = world_evidence(demo_store.project, "the file a.py:1 exists; the branch master is merged", None,
                        "2099-01-01T00:00:00Z")
    assert ev.files and ev.files[0].lines == ("x = 2",)
    assert started == [] and not marker.exists()


def test_as_daimon_with_world_check_on_starts_no_probe_program(
    sandbox_root: Path, started: list[list[str]], no_network: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """daimon's world-check would run `git remote -v`, `gh` (on PATH here) and
    the receipt signer (the demo's): `brief --as-daimon` starts none of them,
    whatever it then prints or refuses (issue 25.3)."""
    from daimon_tui import cli

    with demo.sandboxed(sandbox_root, settings={"DAIMON_WORLDCHECK": "1"}) as store:
        demo.populate(store.project)
        bin_dir = sandbox_root / "bin"
        bin_dir.mkdir()
        (bin_dir / "gh").write_text("#!/bin/sh\necho '{\"state\": \"OPEN\"}'\n")
        (bin_dir / "gh").chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
        started.clear()
        config._git_toplevel.cache_clear()  # as in a fresh process
        rc = cli.main(["brief", "--as-daimon", "--project", str(store.project)])
    assert rc in (0, 2)
    assert no_network == []
    for argv in started:
        assert Path(argv[0]).name == "git" and "rev-parse" in argv, started
