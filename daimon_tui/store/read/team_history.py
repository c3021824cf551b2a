"""When teammates' files arrived on this machine, from the team clone's own history.

daimon's team clone is a git repository whose HEAD moves only when a sync
commits this machine's files or merges what it fetched. Its HEAD reflog (a
file) says which commit the clone held at any moment; that commit's tree is
what had arrived by then. Only the local clone is read (one `git ls-tree`);
nothing reaches the remote.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from daimon_briefing import config, store, teamsync

_CHECKPOINT = re.compile(r"(?:projects/(?:[^/]+/)+)?authors/([^/]+)/[^/]+\.json")
_QUARANTINES = re.compile(r"(?:projects/(?:[^/]+/)+)?authors/([^/]+)/quarantines\.jsonl")
_LS_TREE_TIMEOUT = 15


def head_at(clone: Path, epoch: float) -> str | None:
    """The commit the clone's HEAD held at `epoch`, or None before its first."""
    try:
        lines = (clone / ".git" / "logs" / "HEAD").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    held = None
    for line in lines:
        try:
            head, _tab, _message = line.partition("\t")
            parts = head.split()
            if int(parts[-2]) <= epoch:
                held = parts[1]
        except (IndexError, ValueError):
            continue
    return held


def arrived(clone: Path, epoch: float) -> frozenset[str]:
    """Paths in the clone's tree at `epoch` (empty before its first commit or when git cannot say)."""
    commit = head_at(clone, epoch)
    if commit is None or not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        return frozenset()
    try:
        listed = subprocess.run(["git", "-C", str(clone), "ls-tree", "-r", "-z", "--name-only", commit],
                                capture_output=True, timeout=_LS_TREE_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    if listed.returncode != 0:
        return frozenset()
    return frozenset(p for p in listed.stdout.decode("utf-8", "replace").split("\0") if p)


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
