"""When teammates' files arrived on this machine, from the team clone's own history.

daimon's team clone is a git repository whose HEAD moves only when a sync
commits this machine's files or merges what it fetched. Its HEAD reflog (a
file) says which commit the clone held at any moment; that commit's tree is
what had arrived by then. Only the local clone is read (`git ls-tree`, `log`,
`merge-base`); nothing reaches the remote.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from daimon_tui.store.daimon_api import team as daimon_team
from daimon_tui.store.daimon_api.public import config, store, teamsync

_CHECKPOINT = re.compile(r"(?:projects/(?:[^/]+/)+)?authors/([^/]+)/[^/]+\.json")
_QUARANTINES = re.compile(r"(?:projects/(?:[^/]+/)+)?authors/([^/]+)/quarantines\.jsonl")
_GIT_TIMEOUT = 15
_SHA = re.compile(r"[0-9a-f]{40,64}")


def _moves(clone: Path) -> list[tuple[int, str]]:
    """(epoch, commit) of each move of the clone's HEAD, oldest first, from its reflog file."""
    try:
        lines = (clone / ".git" / "logs" / "HEAD").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    moves = []
    for line in lines:
        parts = line.partition("\t")[0].split()
        try:
            if _SHA.fullmatch(parts[1]):
                moves.append((int(parts[-2]), parts[1]))
        except (IndexError, ValueError):
            continue
    return moves


def head_at(clone: Path, epoch: float) -> str | None:
    """The commit the clone's HEAD held at `epoch`, or None before its first."""
    held = None
    for when, commit in _moves(clone):
        if when <= epoch:
            held = commit
    return held


def _git(clone: Path, *argv: str) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", "-C", str(clone), *argv], capture_output=True, timeout=_GIT_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None


def arrival(clone: Path, path: str) -> int | None:
    """When `path` reached the clone: the first move of HEAD onto a commit that
    holds the commit adding it (HEAD only moves forward in a sync: commits and
    merges), found by bisecting the moves. None when git cannot say."""
    added = _git(clone, "log", "--format=%H", "--diff-filter=A", "-1", "HEAD", "--", path)
    commit = added.stdout.decode("ascii", "replace").strip() if added is not None and added.returncode == 0 else ""
    moves = _moves(clone)
    if not _SHA.fullmatch(commit) or not moves:
        return None
    low, high = 0, len(moves)
    while low < high:
        middle = (low + high) // 2
        holds = _git(clone, "merge-base", "--is-ancestor", commit, moves[middle][1])
        if holds is None:
            return None
        if holds.returncode == 0:
            high = middle
        else:
            low = middle + 1
    return moves[low][0] if low < len(moves) else None


def arrived(clone: Path, epoch: float) -> frozenset[str]:
    """Paths in the clone's tree at `epoch` (empty before its first commit or when git cannot say)."""
    commit = head_at(clone, epoch)
    if commit is None:
        return frozenset()
    listed = _git(clone, "ls-tree", "-r", "-z", "--name-only", commit)
    if listed is None or listed.returncode != 0:
        return frozenset()
    return frozenset(p for p in listed.stdout.decode("utf-8", "replace").split("\0") if p)


def checkpoint_arrival(clone: Path, author: str, session_id: str) -> int | None:
    """When the teammate's checkpoint file for `session_id` reached this clone."""
    own = store.project_slug(author) or author
    for adir in daimon_team.team_author_dirs(clone):
        path = adir / f"{session_id}.json"
        if adir.name == own and path.is_file():
            return arrival(clone, path.relative_to(clone).as_posix())
    return None


def copy_arrived(dst: Path, epoch: float) -> None:
    """Into the as-of copy's team dir `dst`: each clone's teammate checkpoints and
    scope file as they had arrived by `epoch`, and a teammate's published
    quarantines only if they had arrived (tombstones are never cut: a forget
    is not undone by going back)."""
    own = store.project_slug(config.author())
    for clone in teamsync.list_remotes():
        held = arrived(clone, epoch)
        target = dst / clone.name
        (target / ".git").mkdir(parents=True, exist_ok=True)  # daimon reads a clone by its `.git`
        for path in held:
            match = _CHECKPOINT.fullmatch(path)
            if not (match or path == "daimon-team.toml"):
                continue
            source = clone / path
            if source.is_file():  # checkpoint files are immutable once written
                (target / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / path)
        for copied in list(target.rglob("quarantines.jsonl")):
            relative = copied.relative_to(target).as_posix()
            match = _QUARANTINES.fullmatch(relative)
            if match and match.group(1) != own and relative not in held:
                copied.unlink()  # not on this machine yet at that moment
