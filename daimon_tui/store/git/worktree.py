"""Where a project's git worktree is, found without GitPython.

A world-check opens the repository only when there is one: finding none
(`NoRepository`) needs no GitPython import (~60 ms of a small report), which
`gitread` pulls in to read refs and objects.
"""

from __future__ import annotations

import stat
from pathlib import Path


class RepoUnreadable(Exception):
    """The repository exists but cannot be read safely."""


class NoRepository(Exception):
    """No git repository at or above the project root."""


def find_worktree(root: Path) -> Path:
    """The nearest directory at or above `root` holding a `.git` entry that is a
    directory or a small regular file (never a FIFO or device)."""
    for candidate in (root, *root.parents):
        dot = candidate / ".git"
        try:
            st = dot.stat()
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) or (stat.S_ISREG(st.st_mode) and st.st_size <= 4096):
            return candidate
        raise RepoUnreadable(f"{dot} is neither a directory nor a small file")
    raise NoRepository(f"no git repository at or above {root}")
