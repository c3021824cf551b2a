"""Functional world-checks against a real repository built in tmp."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import time
from io import StringIO
from pathlib import Path

import pytest

from daimon_tui.domain.claims import ClaimKind, Expect
from daimon_tui.domain.probes import Outcome
from daimon_tui.domain.worldcheck import ItemResult, badge_for
from daimon_tui.headless.check import run_check
from daimon_tui.services.world_check import check_items

ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "P. Nolan",
    "GIT_AUTHOR_EMAIL": "pn@example.org",
    "GIT_COMMITTER_NAME": "P. Nolan",
    "GIT_COMMITTER_EMAIL": "pn@example.org",
}


def git(cwd: Path, *args: str, date: str = "2026-11-20T10:00:00Z") -> str:
    env = {**ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    return subprocess.run(
        ["git", "-c", f"core.hooksPath={os.devnull}", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("proj")
    git(root, "init", "-q", "-b", "main")
    write(root, "src/x.py", "x = 1\n")
    write(root, "src/keep.py", "k = 1\n")
    write(root, "pyproject.toml", '[project]\nname = "p"\ndependencies = ["httpx>=0.27", "rich==13.7.1"]\n')
    write(root, "requirements.txt", "requests==2.31.0  # pinned\nflask>=3.0\n")
    write(root, "package.json", json.dumps({"dependencies": {"react": "18.2.0", "lodash": "^4.17.21"}}))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Initial", date="2026-11-01T10:00:00Z")
    # a PR merged with a merge commit
    git(root, "checkout", "-q", "-b", "feat/done")
    write(root, "src/done.py", "d = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Done feature", date="2026-11-02T10:00:00Z")
    git(root, "checkout", "-q", "main")
    git(
        root,
        "merge",
        "-q",
        "--no-ff",
        "feat/done",
        "-m",
        "Merge pull request #42 from alice/feat/done",
        date="2026-11-21T09:00:00Z",
    )
    # a squash merge
    write(root, "src/squash.py", "s = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Add squash thing (#43)", date="2026-11-03T10:00:00Z")
    # a spike branch that was checked out, then deleted
    git(root, "checkout", "-q", "-b", "spike/sqlite-wal")
    git(root, "checkout", "-q", "main")
    git(root, "branch", "-q", "-D", "spike/sqlite-wal")
    # an unmerged branch
    git(root, "checkout", "-q", "-b", "feat/open")
    write(root, "src/open.py", "o = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "WIP", date="2026-11-04T10:00:00Z")
    git(root, "checkout", "-q", "main")
    # remove src/x.py, then more history on top
    git(root, "rm", "-q", "src/x.py")
    git(root, "commit", "-q", "-m", "Drop x", date="2026-11-20T10:00:00Z")
    for i in range(40):
        write(root, f"src/mod{i % 5}.py", f"v = {i}\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Change {i}", date="2026-11-22T10:00:00Z")
    git(root, "tag", "v1.0")
    return root


def one(root: Path, text: str, quote: str | None = None) -> ItemResult:
    report = asyncio.run(check_items(root, [("i-1", text, quote)]))
    assert report.repo_error is None
    return report.items[0]


def outcome_of(item: ItemResult, kind: ClaimKind, expect: Expect | None = None):
    found = [r for r in item.results if r.claim.kind is kind and (expect is None or r.claim.expect is expect)]
    assert found, f"no {kind} claim in {item}"
    return found[0]


def test_branch_exists(project: Path) -> None:
    r = outcome_of(one(project, "work continues on branch feat/open, still active"), ClaimKind.BRANCH)
    assert r.outcome is Outcome.CONFIRMED
    assert "feat/open exists" in r.finding.evidence


def test_branch_gone_with_reflog_evidence(project: Path) -> None:
    item = one(project, "branch spike/sqlite-wal is active")
    r = outcome_of(item, ClaimKind.BRANCH, Expect.EXISTS)
    assert r.outcome is Outcome.CONTRADICTED
    assert "no ref spike/sqlite-wal" in r.finding.evidence
    assert "reflog last shows it 2026-" in r.finding.evidence
    assert badge_for(item) == "world-contradicted"
    gone = outcome_of(one(project, "branch spike/sqlite-wal was deleted"), ClaimKind.BRANCH)
    assert gone.outcome is Outcome.CONFIRMED


def test_branch_merged_and_unmerged(project: Path) -> None:
    merged = outcome_of(one(project, "branch feat/done merged into main"), ClaimKind.BRANCH, Expect.MERGED)
    assert merged.outcome is Outcome.CONFIRMED and "is in main" in merged.finding.evidence
    unmerged = outcome_of(one(project, "branch feat/open is unmerged"), ClaimKind.BRANCH, Expect.UNMERGED)
    assert unmerged.outcome is Outcome.CONFIRMED
    wrong = outcome_of(one(project, "branch feat/done is unmerged"), ClaimKind.BRANCH, Expect.UNMERGED)
    assert wrong.outcome is Outcome.CONTRADICTED
    squash_unknown = outcome_of(one(project, "branch feat/open merged"), ClaimKind.BRANCH, Expect.MERGED)
    assert squash_unknown.outcome is Outcome.UNKNOWN


def test_file_exists_and_removed_with_commit_evidence(project: Path) -> None:
    assert (
        outcome_of(one(project, "the parser lives in src/keep.py"), ClaimKind.FILE).outcome
        is Outcome.CONFIRMED
    )
    r = outcome_of(one(project, "the fast path is implemented in src/x.py"), ClaimKind.FILE)
    assert r.outcome is Outcome.CONTRADICTED
    assert "removed in" in r.finding.evidence and "2026-11-20 by P. Nolan" in r.finding.evidence
    assert "Drop x" in r.finding.evidence
    removed = outcome_of(one(project, "src/x.py was removed"), ClaimKind.FILE)
    assert removed.outcome is Outcome.CONFIRMED
    still = outcome_of(one(project, "src/keep.py was deleted"), ClaimKind.FILE)
    assert still.outcome is Outcome.CONTRADICTED


def test_commit_and_tag(project: Path) -> None:
    sha = git(project, "rev-parse", "HEAD~3").strip()
    r = outcome_of(one(project, f"fixed in commit {sha[:9]}"), ClaimKind.COMMIT)
    assert r.outcome is Outcome.CONFIRMED and "on main" in r.finding.evidence
    assert (
        outcome_of(one(project, "fixed in commit 0000000deadbee1"), ClaimKind.COMMIT).outcome
        is Outcome.CONTRADICTED
    )
    assert outcome_of(one(project, "tagged v1.0 yesterday"), ClaimKind.TAG).outcome is Outcome.CONFIRMED
    assert outcome_of(one(project, "tagged v9.9 yesterday"), ClaimKind.TAG).outcome is Outcome.CONTRADICTED


def test_pr_merged_by_merge_commit_and_squash(project: Path) -> None:
    merged = outcome_of(one(project, "PR #42 merged"), ClaimKind.PR)
    assert merged.outcome is Outcome.CONFIRMED and "2026-11-21" in merged.finding.evidence
    still_open = one(project, "PR #42 awaiting review")
    assert outcome_of(still_open, ClaimKind.PR).outcome is Outcome.CONTRADICTED
    assert badge_for(still_open) == "world-contradicted"
    squash = outcome_of(one(project, "pull request #43 is open"), ClaimKind.PR)
    assert squash.outcome is Outcome.CONTRADICTED and "Add squash thing (#43)" in squash.finding.evidence
    assert outcome_of(one(project, "PR #77 merged"), ClaimKind.PR).outcome is Outcome.UNKNOWN


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rich==13.7.1", Outcome.CONFIRMED),  # pyproject exact pin
        ("rich pinned to 13.7", Outcome.CONFIRMED),  # prefix rule
        ("rich==13.8.0", Outcome.CONTRADICTED),
        ("httpx pinned to 0.27", Outcome.CONFIRMED),  # range literal agrees
        ("httpx pinned to 0.26", Outcome.UNKNOWN),  # a range cannot contradict
        ("requests==2.31.0", Outcome.CONFIRMED),  # requirements.txt
        ("bumped requests to 2.32", Outcome.CONTRADICTED),
        ("react@18.2.0", Outcome.CONFIRMED),  # package.json exact
        ("react upgraded to 19.0", Outcome.CONTRADICTED),
        ("numpy==2.0", Outcome.UNKNOWN),  # not declared
    ],
)
def test_dependency_versions(project: Path, text: str, expected: Outcome) -> None:
    assert outcome_of(one(project, text), ClaimKind.DEPENDENCY).outcome is expected


def test_lockfile_wins_over_manifest(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[project]\ndependencies = ["httpx>=0.27"]\n')
    write(tmp_path, "uv.lock", 'version = 1\n[[package]]\nname = "httpx"\nversion = "0.28.1"\n')
    write(tmp_path, "Cargo.toml", '[dependencies]\nserde = { version = "=1.0.200" }\n')
    report = asyncio.run(check_items(tmp_path, [("a", "httpx pinned to 0.27", None), ("b", "serde==1.0.199", None)]))
    a, b = (item.results[0] for item in report.items)
    assert a.outcome is Outcome.CONTRADICTED and "uv.lock" in a.finding.evidence
    assert b.outcome is Outcome.CONTRADICTED and "Cargo.toml" in b.finding.evidence
    assert report.repo_error is not None  # no repository, still answered from files


def test_badge_asymmetry(project: Path) -> None:
    # confirmed + unknown -> checked (daimon: skipped never decides)
    assert badge_for(one(project, "PR #77 merged; src/keep.py exists")) == "world-checked"
    # confirmed + contradicted -> contradicted
    assert badge_for(one(project, "src/keep.py exists; PR #42 still open")) == "world-contradicted"
    assert badge_for(one(project, "PR #77 merged")) is None
    assert badge_for(one(project, "nothing checkable here")) is None


def test_quote_claims_and_cancel_and_progress(project: Path) -> None:
    item = one(project, "keep it", quote="src/keep.py exists")
    assert item.results[0].claim.source == "quote"
    seen: list[tuple[int, int]] = []
    calls = iter([False, False, True])
    items = [(f"i{n}", "src/keep.py exists", None) for n in range(5)]
    report = asyncio.run(check_items(
        project, items, cancelled=lambda: next(calls), progress=lambda d, t: seen.append((d, t))
    ))
    assert report.cancelled and len(report.items) == 2
    assert seen == [(1, 5), (2, 5)]


def test_a_cancelled_check_stops_probing_between_items(project: Path) -> None:
    """A check whose caller is cancelled (a new check, Ctrl-C in `daimon-tui
    check`) stops its thread after the item it is probing, not at the last one."""
    items = [(f"i{n}", "src/keep.py exists", None) for n in range(200)]
    first = threading.Event()
    done: list[int] = []

    def progress(d: int, _t: int) -> None:
        done.append(d)
        first.set()
        time.sleep(0.02)  # each item takes a while: the cancel lands mid-check

    async def cancel_after_first() -> None:
        task = asyncio.create_task(check_items(project, items, progress=progress))
        await asyncio.to_thread(first.wait, 30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_after_first())  # returns once the check's thread has ended (the loop's executor is shut)
    assert 1 <= len(done) < len(items)


def test_many_items_no_cap(project: Path) -> None:
    items = [(f"i{n}", f"PR #{n} merged; branch feat/open is active", None) for n in range(300)]
    report = asyncio.run(check_items(project, items))
    assert len(report.items) == 300 and all(len(i.results) == 2 for i in report.items)


def test_headless_exit_codes(project: Path, tmp_path: Path) -> None:
    out = StringIO()
    assert run_check(project, [("a", "src/keep.py exists", None)], as_json=True, out=out) == 0
    data = json.loads(out.getvalue())
    assert data["items"][0]["claims"][0]["result"] == "confirmed"
    assert data["items"][0]["badge"] == "world-checked"
    out = StringIO()
    assert run_check(project, [("a", "PR #42 awaiting review", None)], as_json=False, out=out) == 1
    assert "contradicted" in out.getvalue() and "Merge pull request #42" in out.getvalue()
    broken = tmp_path / "broken"
    (broken / ".git").mkdir(parents=True)
    os.mkfifo(broken / ".git" / "HEAD")
    out = StringIO()
    assert run_check(broken, [("a", "src/keep.py exists", None)], as_json=False, out=out) == 5  # unreadable
    assert run_check(tmp_path / "nope", [], as_json=True, out=StringIO()) == 3  # no directory


def test_speed_on_thousands_of_commits(tmp_path: Path) -> None:
    lines = []
    for i in range(1, 3001):
        msg = f"commit {i}" + (f" (#{i})" if i % 10 == 0 else "")
        lines += [
            "commit refs/heads/main",
            f"mark :{i}",
            f"committer A <a@b> {1_700_000_000 + i * 60} +0000",
            f"data {len(msg)}",
            msg,
        ]
        if i > 1:
            lines.append(f"from :{i - 1}")
        lines += [f"M 100644 inline src/m{i % 50}/f{i % 7}.py", "data 2", "x"]
        if i == 100:
            lines += ["M 100644 inline src/gone.py", "data 2", "x"]
        if i == 2900:
            lines.append("D src/gone.py")
    git(tmp_path, "init", "-q", "-b", "main")
    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=tmp_path,
        env=ENV,
        input="\n".join(lines) + "\n",
        text=True,
        check=True,
    )
    git(tmp_path, "gc", "-q")
    items = [
        ("a", "src/gone.py was removed", None),
        ("b", "PR #2990 merged", None),
        ("c", "PR #50 awaiting review", None),
        ("d", "PR #3001 merged", None),
    ]
    report = asyncio.run(check_items(tmp_path, items))  # how fast: benchmarks/, not a wall-clock assertion
    outcomes = [i.results[0].outcome for i in report.items]
    assert outcomes == [Outcome.CONFIRMED, Outcome.CONFIRMED, Outcome.CONTRADICTED, Outcome.UNKNOWN]
    assert "commit 2900" in report.items[0].results[0].finding.evidence
