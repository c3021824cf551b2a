"""Probing a hostile repository runs nothing it configures, opens no socket,
spawns no process, never reads outside the project, and renders names inert."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from daimon_tui.domain.inert import is_unsafe
from daimon_tui.domain.probes import Outcome
from daimon_tui.domain.worldcheck import WorldReport
from daimon_tui.services.world_check import check_items, probe_items

SETUP_ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Eve\x1b[31m",
    "GIT_AUTHOR_EMAIL": "eve@example.org",
    "GIT_COMMITTER_NAME": "Eve",
    "GIT_COMMITTER_EMAIL": "eve@example.org",
}
HOOKS = (
    "post-checkout",
    "pre-commit",
    "post-commit",
    "reference-transaction",
    "post-merge",
    "pre-auto-gc",
    "post-index-change",
    "post-rewrite",
    "pre-push",
    "fsmonitor-watchman",
)


def setup_git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", f"core.hooksPath={os.devnull}", *args],
        cwd=cwd,
        env=SETUP_ENV,
        check=True,
        capture_output=True,
    )


def trap(marks: Path, name: str) -> str:
    return f"#!/bin/sh\ntouch '{marks}/{name}'\ncat >/dev/null 2>&1 || true\nexit 0\n"


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, marks, outside = tmp_path / "repo", tmp_path / "marks", tmp_path / "outside"
    root.mkdir()
    marks.mkdir()
    outside.mkdir()
    (outside / "secret.py").write_text("secret\n")
    (outside / "package.json").write_text('{"dependencies": {"left-pad": "1.3.0"}}')
    setup_git(root, "init", "-q", "-b", "main")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("a\n")
    (root / "data.x").write_text("filtered\n")
    (root / ".gitattributes").write_text("*.x filter=x diff=x\n*.py diff=x\n")
    setup_git(root, "add", "-A")
    setup_git(root, "commit", "-q", "-m", "Merge pull request #9 from eve/evil\x1b]8;;http://evil\x07 (#9)")
    (root / "src" / "b.py").write_text("b\n")
    setup_git(root, "add", "-A")
    setup_git(root, "commit", "-q", "-m", "second")
    setup_git(root, "branch", "evil\u202egnp")  # git allows bidi controls in ref names
    setup_git(root, "tag", "v1.0")
    setup_git(root, "rm", "-q", "src/b.py")
    setup_git(root, "commit", "-q", "-m", "drop b")
    # what git refuses to create, a hostile repository can still hold
    head = (root / ".git" / "refs" / "heads" / "main").read_text()
    (root / ".git" / "refs" / "heads" / "esc\x1b[2Jname").write_text(head)
    with (root / ".git" / "logs" / "HEAD").open("a") as log:
        log.write(
            f"{'0' * 40} {head.strip()} Eve <e@x> 1763600000 +0000\t"
            "checkout: moving from spike/x\x1b]8;;http://evil\x07 to main\n"
        )
    # symlinks out of the project
    (root / "src" / "leak.py").symlink_to(outside / "secret.py")
    (root / "package.json").symlink_to(outside / "package.json")
    # arm every trap
    hooks = root / ".git" / "hooks"
    for name in HOOKS:
        (hooks / name).write_text(trap(marks, name))
        (hooks / name).chmod(0o755)
    for name in (
        "fsmonitor",
        "pager",
        "diff-external",
        "diff-driver",
        "textconv",
        "smudge",
        "clean",
        "alias",
        "editor",
        "sshcommand",
        "askpass",
    ):
        script = marks.parent / f"{name}.sh"
        script.write_text(trap(marks, name))
        script.chmod(0o755)
    s = marks.parent
    with (root / ".git" / "config").open("a") as cfg:
        cfg.write(
            f"[core]\n\tfsmonitor = {s}/fsmonitor.sh\n\tpager = {s}/pager.sh\n\thooksPath = {hooks}\n"
            f"\teditor = {s}/editor.sh\n\tsshCommand = {s}/sshcommand.sh\n\taskPass = {s}/askpass.sh\n"
            f"[diff]\n\texternal = {s}/diff-external.sh\n"
            f'[diff "x"]\n\tcommand = {s}/diff-driver.sh\n\ttextconv = {s}/textconv.sh\n'
            f'[filter "x"]\n\tsmudge = {s}/smudge.sh\n\tclean = {s}/clean.sh\n\trequired = true\n'
            f"[alias]\n\tstatus = !{s}/alias.sh\n\tst = !{s}/alias.sh\n\tlog = !{s}/alias.sh\n"
            f"[pager]\n\tlog = {s}/pager.sh\n"
        )
    return root, marks, outside


ITEMS = [
    ("b1", "branch main is active", None),
    ("b2", "branch spike/x is gone", None),
    ("b3", "branch spike/x is active", "and PR #9 merged"),
    ("b4", "branch main merged; branch nope is unmerged", None),
    ("f1", "src/a.py exists; src/b.py was removed", None),
    ("f2", "the secret lives in src/leak.py", None),
    ("f3", "src/nowhere.py was deleted", None),
    ("c1", "see commit 1234567abc and tag v1.0 created", None),
    ("t1", "tagged `v1\x1b[31m` then deleted", None),
    ("p1", "PR #9 awaiting review; PR #10 merged", None),
    ("d1", "left-pad==1.3.0", None),
]


def assert_inert(report: WorldReport) -> None:
    for item in report.items:
        for r in item.results:
            assert not any(is_unsafe(ch) for ch in r.finding.evidence), r.finding.evidence


def test_no_trap_fires_and_names_are_inert(hostile: tuple[Path, Path, Path]) -> None:
    root, marks, _ = hostile
    report = asyncio.run(check_items(root, ITEMS))
    assert report.repo_error is None
    assert sorted(os.listdir(marks)) == []
    assert_inert(report)
    results = {(i.item_id, r.claim.subject): r for i in report.items for r in i.results}
    gone = results[("b2", "spike/x")].finding.evidence
    assert "\\x1b]8;;http://evil\\x07" in gone  # the reflog message, shown as escapes
    assert "\\x1b" in results[("t1", "v1\x1b[31m")].finding.evidence
    merged = results[("p1", "#9")]
    assert merged.outcome is Outcome.CONTRADICTED and "\\x1b" in merged.finding.evidence
    # the symlinks out of the project are refused, not followed
    assert results[("f2", "src/leak.py")].outcome is Outcome.UNKNOWN
    assert results[("f2", "src/leak.py")].finding.reason == "escapes-root"
    assert results[("d1", "left-pad")].outcome is Outcome.UNKNOWN
    assert "removed in" in results[("f1", "src/b.py")].finding.evidence
    # the traps are real: plain git in this repository does run them
    subprocess.run(["git", "status"], cwd=root, env=SETUP_ENV, capture_output=True)
    subprocess.run(["git", "st"], cwd=root, env=SETUP_ENV, capture_output=True)
    assert {"fsmonitor", "alias"} <= set(os.listdir(marks))


def test_no_process_is_started(hostile: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, marks, _ = hostile
    started: list[object] = []
    real_init = subprocess.Popen.__init__

    def record(self: subprocess.Popen, *args: object, **kwargs: object) -> None:
        started.append(args[0] if args else kwargs.get("args"))
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess.Popen, "__init__", record)
    monkeypatch.setattr(os, "system", lambda *a: started.append(a) or 0)
    report = asyncio.run(check_items(root, ITEMS))
    assert started == []
    assert sum(len(i.results) for i in report.items) >= 15
    assert os.listdir(marks) == []


def test_no_network(hostile: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, _, _ = hostile
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network disabled in test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    report = asyncio.run(check_items(root, ITEMS))
    assert attempts == []
    assert report.repo_error is None


def _finishes(root: Path, seconds: float = 20) -> WorldReport | None:
    box: list[WorldReport] = []
    # blocking, in a daemon thread: a probe that hangs fails the test, it does not hang the run at exit
    worker = threading.Thread(target=lambda: box.append(probe_items(root, ITEMS)), daemon=True)
    worker.start()
    worker.join(seconds)
    return box[0] if box else None


def test_config_include_of_a_device_does_not_hang(hostile: tuple[Path, Path, Path]) -> None:
    root, _, _ = hostile
    with (root / ".git" / "config").open("a") as cfg:
        cfg.write('[include]\n\tpath = /dev/zero\n[includeIf "gitdir:/"]\n\tpath = /dev/zero\n')
    report = _finishes(root)
    assert report is not None and report.repo_error is None


@pytest.mark.parametrize("where", ["packed-refs", "refs/heads/fifo", "logs/HEAD", "config"])
def test_fifos_in_the_git_dir_are_refused_not_read(hostile: tuple[Path, Path, Path], where: str) -> None:
    root, _, _ = hostile
    target = root / ".git" / where
    if target.exists():
        target.unlink()
    os.mkfifo(target)
    report = _finishes(root)
    assert report is not None
    if where == "config":
        assert report.repo_error is None  # an unreadable config is skipped, the rest still read
    else:
        assert report.repo_error is not None and "not a" in report.repo_error
        # files are still answered without the repository
        file_claim = next(r for i in report.items if i.item_id == "f1" for r in i.results)
        assert file_claim.outcome is Outcome.CONFIRMED


def test_manifest_fifo_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pyproject.toml")
    box: list[WorldReport] = []
    worker = threading.Thread(
        target=lambda: box.append(probe_items(tmp_path, [("a", "x==1.0", None)])), daemon=True
    )
    worker.start()
    worker.join(20)
    assert box and box[0].items[0].results[0].outcome is Outcome.UNKNOWN


def test_import_spawns_only_git_version() -> None:
    """GitPython probes `git version` once at import; nothing else, ever."""
    code = (
        "import subprocess, sys\n"
        "seen=[]\n"
        "real=subprocess.Popen.__init__\n"
        "def rec(self,*a,**k):\n"
        "    seen.append(list(a[0] if a else k['args'])); real(self,*a,**k)\n"
        "subprocess.Popen.__init__=rec\n"
        "import daimon_tui.domain.worldcheck\n"
        "print(seen)\n"
    )
    out = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    seen = eval(out)
    assert all(argv[1:] == ["version"] and os.path.basename(argv[0]) == "git" for argv in seen)
