"""The world's evidence, read offline from a real git history (built by the
demo's own `init_repo`, git run by the test setup only): a file's named lines
and its diff since the session's commit, a branch's commits ahead/behind and
merge state, a commit, and the bounds: outside the project, binary, huge."""

from __future__ import annotations

import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from daimon_tui.domain import excerpt
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.world import evidence as world_evidence
from daimon_tui.store.world.evidence import named_lines

SESSION = (demo.DEMO_NOW - timedelta(days=1, hours=-1)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def repo(sandbox_root: Path) -> Path:
    project = sandbox_root / "proj"
    project.mkdir()
    demo.init_repo(project)
    return project


def git(project: Path, *args: str) -> None:
    demo._git(project, demo.DEMO_NOW, *args)


def test_named_lines() -> None:
    assert named_lines("see src/a.py:12-14 now", "src/a.py") == (12, 14)
    assert named_lines("src/a.py#L3", "src/a.py") == (3, 3)
    assert named_lines("lines 5-9 of src/a.py", "src/a.py") == (5, 9)
    assert named_lines("src/a.py", "src/a.py") is None


def test_a_file_changed_since_the_session_shows_its_diff(repo: Path) -> None:
    ev = world_evidence.world_evidence(repo, "Whether src/upload/retry.py:3 still reads RETRY_MAX", None, SESSION)
    (f,) = ev.files
    assert f.named == (3, 3) and f.lines[2] == "RETRY_MAX = SETTINGS.retry_max"
    assert "-RETRY_MAX = 5" in f.diff and "+RETRY_MAX = SETTINGS.retry_max" in f.diff
    assert "the session's commit" in f.diff_note


def test_a_file_unchanged_since_the_session(repo: Path) -> None:
    ev = world_evidence.world_evidence(repo, "the file src/upload/backoff.py exists", None, SESSION)
    (f,) = ev.files
    assert f.diff == () and f.diff_note == "unchanged since the session's commit"


def test_outside_the_project_and_binary_and_huge(repo: Path) -> None:
    (repo / "data").mkdir()
    (repo / "data" / "blob.bin").write_bytes(b"\x00\x01" * 100)
    (repo / "data" / "big.txt").write_text("line\n" * 100_000)
    ev = world_evidence.world_evidence(
        repo, "src/../../etc/passwd exists; data/blob.bin exists; data/big.txt exists", None, SESSION)
    by = {f.path: f for f in ev.files}
    assert by["data/blob.bin"].binary and by["data/blob.bin"].lines == ()
    assert by["data/big.txt"].hidden_after > 0 and len(by["data/big.txt"].lines) == world_evidence.MAX_LINES
    assert all(".." not in p for p in by)  # never read


def test_a_branch_ahead_and_unmerged(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "spike/wal")
    (repo / "wal.txt").write_text("wal\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Try WAL")
    git(repo, "checkout", "-q", "main")
    ev = world_evidence.world_evidence(repo, "Branch spike/wal is merged", None, None)
    (r,) = ev.refs
    assert r.default == "main" and r.merged is False and r.ahead_count == 1 and r.ahead[0].summary == "Try WAL"
    assert r.behind_count == 0


def test_a_gone_branch_and_a_commit(repo: Path) -> None:
    ev = world_evidence.world_evidence(repo, "the branch feature/retry-backoff is gone", None, None)
    (r,) = ev.refs
    assert r.tip is None and "reflog" in r.note
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD~1"], capture_output=True,
                          text=True, check=True).stdout.strip()
    ev = world_evidence.world_evidence(repo, f"commit {head} is in main", None, None)
    (r,) = ev.refs
    assert r.tip is not None and r.merged is True


def test_no_repository(sandbox_root: Path) -> None:
    (sandbox_root / "src").mkdir()
    (sandbox_root / "src" / "a.py").write_text("x = 1\n")
    ev = world_evidence.world_evidence(sandbox_root, "the file src/a.py exists", None, SESSION)
    assert ev.files[0].lines == ("x = 1",) and "no repository" in ev.files[0].diff_note


def test_quote_spans_and_cuts() -> None:
    text = "We **should** retry on 429 — with “exponential” backoff… later"
    spans = excerpt.quote_spans(text, 'retry on 429 - with "exponential" backoff')
    assert [text[s:e] for s, e in spans] == ["retry on 429 — with “exponential” backoff"]
    assert excerpt.quote_spans(text, "retry on 429 ... later") != ()
    cut = excerpt.cut_around(10_000, [(5_000, 5_010)], 100)
    assert cut.end - cut.start == 100 and cut.start <= 5_000 < cut.end and cut.before and cut.after
    assert list(excerpt.window(10, 0, 2)) == [0, 1, 2] and list(excerpt.window(10, None, 1)) == [0, 1, 2]


def test_masks_catch_a_value_inside_a_longer_sentence() -> None:
    secret = "the staging key is hunter2"
    text = f"Note: {secret.upper()}, do not share. Then we moved on."
    masks = excerpt.masked_spans(text, lambda s: "forgotten" if s.casefold() == secret else None)
    shown, marks = excerpt.apply_masks(text, masks)
    assert "HUNTER2" not in shown and "[withheld: forgotten]" in shown and "Then we moved on." in shown
    assert [shown[s:e] for s, e in marks] == ["[withheld: forgotten]"]


def test_a_huge_file_changed_all_over_is_diffed_in_a_moment(repo: Path) -> None:
    """`E` and the pane read the world's evidence of a named file: on a
    megabyte file changed every hundred lines since the session, difflib over
    the whole 1 MB read took 35 s (E waited that long for its editor)."""
    path = repo / "src" / "upload" / "huge.py"

    def write(changed: bool) -> None:
        path.write_text("".join(f"VALUE_{i:08d} = {'new' if changed and i % 97 == 0 else 'old'}  # padding....\n"
                                for i in range(60_000)))

    write(False)
    git(repo, "add", "-A")
    demo._git(repo, demo.DEMO_NOW - timedelta(days=2), "commit", "-q", "-m", "huge, before the session")
    write(True)
    git(repo, "commit", "-q", "-a", "-m", "huge, changed all over")
    started = time.perf_counter()
    ev = world_evidence.world_evidence(repo, "Whether src/upload/huge.py still sets VALUE_00000001", None, SESSION)
    assert time.perf_counter() - started < 2.0
    (f,) = ev.files
    assert "-VALUE_00000000 = old  # padding...." in f.diff and "+VALUE_00000000 = new  # padding...." in f.diff
    assert f"first {world_evidence.MAX_DIFF_INPUT_LINES:,} lines compared" in f.diff_note
