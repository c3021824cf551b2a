"""What an item's evidence is a function of, said as one string, so the app
can keep an excerpt it was shown (in memory only, never in a file) and show
it again with no round trip to the judging child while none of it changed.

The evidence depends on the transcripts read (each one's device, inode, size
and mtime), on the snapshot its turns were masked against (the key the shared
snapshot is memoized on: every bucket ledger and daimon's machine-wide
forgotten stamp), on the checkpoint the item is read from (the bucket's
`latest.json`), on where daimon's locator looks (the host's project folders)
and on the mode (safe mode answers from `why`). The reader takes that state
before it reads and each transcript's identity before its bytes, so a file
that changes meanwhile makes the kept identity an old one: read again, never
shown stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path

from daimon_tui.models import ProjectRef
from daimon_tui.models.evidence import Evidence
from daimon_tui.store.daimon_api import evidence as daimon_evidence
from daimon_tui.store.daimon_api import mode
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import config

Stamp = tuple[int, int, int, int] | None

# The transcripts read under `reading`, with their identities as they were read.
_noted: ContextVar[list[tuple[str, Stamp]] | None] = ContextVar("daimon_tui_transcripts_read", default=None)


def file_identity(path: str | os.PathLike[str]) -> Stamp:
    """(device, inode, size, mtime) of the file; None when it cannot be statted."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def host_folders(root: Path) -> tuple:
    """The host folder and its project folders with their mtimes: a transcript
    written, moved or removed changes its folder's."""
    try:
        with os.scandir(root) as entries:
            inside = tuple(sorted((e.name, e.stat().st_mtime_ns) for e in entries if e.is_dir()))
        return (str(root), os.stat(root).st_mtime_ns, inside)
    except OSError:
        return (str(root), None, ())


def note(path: str | os.PathLike[str]) -> None:
    """A transcript about to be read (its identity now, before its bytes)."""
    noted = _noted.get()
    if noted is not None:
        noted.append((str(path), file_identity(path)))


def _state(project: ProjectRef) -> tuple | None:
    """Everything but the transcripts; None when the bucket cannot be told."""
    from daimon_tui.store.judging import snapshot_share

    target = project.target
    snapshot = snapshot_share.memo_key(target)
    try:
        bucket = daimon_reading.bucket_dir(target)
    except Exception:
        return None
    if snapshot is None or bucket is None:
        return None
    return (snapshot, file_identity(Path(bucket) / "latest.json"),
            host_folders(config.claude_projects_dir()),
            mode.current().safe, daimon_evidence.refusal())


def _said(state: tuple, files: Iterable[tuple[str, Stamp]]) -> str:
    return hashlib.sha256(json.dumps([state, sorted(set(files), key=str)], default=str).encode()).hexdigest()


@contextlib.contextmanager
def reading(project: ProjectRef) -> Iterator[Callable[[], tuple[tuple[str, ...], str | None]]]:
    """Around a read of `project`'s evidence: yields what tells, afterwards,
    the transcripts read and the identity of it all (None: cannot be told)."""
    state = _state(project)
    noted: list[tuple[str, Stamp]] = []
    token = _noted.set(noted)

    def told() -> tuple[tuple[str, ...], str | None]:
        paths = tuple(sorted({path for path, _stamp in noted}))
        return paths, None if state is None else _said(state, noted)

    try:
        yield told
    finally:
        _noted.reset(token)


def current(project: ProjectRef, sources: Iterable[str]) -> str | None:
    """The identity of the same evidence read now (a few stats; no file is read)."""
    state = _state(project)
    return None if state is None else _said(state, ((path, file_identity(path)) for path in sources))


def unchanged(project: ProjectRef, kept: Evidence) -> bool:
    """Whether evidence read before still stands: what it was read from is as it was."""
    return kept.identity is not None and current(project, kept.sources) == kept.identity
