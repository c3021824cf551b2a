"""Live team copy: say when `daimon team sync` (or a teammate's files) changed it.

Only local files are watched: the team directory daimon syncs into
(`config.team_dir()`), recursively. In each clone's `.git` only the reflogs
count (a fetch, a merge or a commit moves one: the last sync, what arrived,
the unpushed count); git's objects, index and lock files churn during a sync
and say nothing new. Nothing here runs git or reaches the remote.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from daimon_tui.store.daimon_api.public import config

# A sync is a burst of writes (fetch, merge, commit): coalesce it into one batch.
DEBOUNCE_MS = 200
POLL_SECONDS = 1.0


def team_root() -> Path:
    return config.team_dir()


def relevant(path: Path | str, root: Path) -> bool:
    """Whether a changed path under `root` can change what the team section shows."""
    try:
        parts = Path(path).relative_to(root).parts
    except ValueError:
        return False
    if not parts or parts[-1].endswith(".lock"):
        return False
    if ".git" in parts:
        return parts[parts.index(".git") + 1: parts.index(".git") + 2] == ("logs",)
    return True


def _stamp(root: Path) -> dict[str, tuple]:
    """Each relevant file's identity (inode, size, mtime): the poll's view of the copy."""
    out: dict[str, tuple] = {}
    for cur, dirnames, files in os.walk(root):
        here = Path(cur)
        if here.name == ".git":
            dirnames[:] = [d for d in dirnames if d == "logs"]
        for name in files:
            path = here / name
            if not relevant(path, root):
                continue
            try:
                st = path.stat()
            except OSError:
                continue
            out[str(path)] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return out


async def watch_team(root: Path, *, on_fallback: Callable[[str], None] | None = None,
                     stop: asyncio.Event | None = None) -> AsyncIterator[None]:
    """One item per burst of relevant changes under `root`. A missing team
    directory (no team yet) or a platform that cannot notify is polled."""
    if root.is_dir():
        try:
            from watchfiles import awatch

            async for _changes in awatch(root, watch_filter=lambda _c, p: relevant(p, root),
                                         debounce=DEBOUNCE_MS, step=50, stop_event=stop, recursive=True):
                yield None
            return
        except Exception as exc:  # no inotify, too many watches, the directory went away...
            if on_fallback is not None:
                on_fallback(f"team copy: live updates fall back to polling every {POLL_SECONDS}s "
                            f"({type(exc).__name__})")
    seen = await asyncio.to_thread(_stamp, root)
    while stop is None or not stop.is_set():
        await asyncio.sleep(POLL_SECONDS)
        now = await asyncio.to_thread(_stamp, root)
        if now != seen:
            seen = now
            yield None
