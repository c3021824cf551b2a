"""The app's own files (log, cache, settings) are untrusted too.

Where they live follows the XDG base-directory spec, which says a relative
value is invalid and must be ignored (honouring it would put the log and the
cache in whatever directory the app was started from). And they are opened
only as regular files, without blocking: a FIFO put in a cache file's place
would otherwise hang the app at start-up for good. And a write of ours that
a person confirms asks first whether the disk has room (`no_room`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO


def xdg_dir(variable: str, fallback: Path) -> Path:
    """`$variable` when it is set to an absolute path, else `fallback`."""
    value = os.environ.get(variable)
    return Path(value) if value and os.path.isabs(value) else fallback


def cache_dir() -> Path:
    """Our cache: `$DAIMON_TUI_CACHE`, else `$XDG_CACHE_HOME/daimon-tui`, else `~/.cache/daimon-tui`."""
    override = os.environ.get("DAIMON_TUI_CACHE")
    if override:
        return Path(override)
    return xdg_dir("XDG_CACHE_HOME", Path.home() / ".cache") / "daimon-tui"


@contextlib.contextmanager
def open_regular(path: Path | str) -> Iterator[BinaryIO]:
    """Open `path` for reading if it is a regular file; a FIFO, device,
    socket or directory raises OSError (EINVAL) at once instead of blocking."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield handle


def read_regular(path: Path | str) -> bytes:
    with open_regular(path) as handle:
        return handle.read()


def write_private_json(target: Path, record: Any, *, prefix: str) -> bool:
    """Replace `target` with `record` as JSON, atomically and readable by its
    owner only (0600, in a 0700 folder). False, never an exception, when the
    file system says no: a cache that cannot be written is only a slower start."""
    return write_private_bytes(target, json.dumps(record, separators=(",", ":")).encode(), prefix=prefix)


def write_private_bytes(target: Path, data: bytes, *, prefix: str) -> bool:
    """`write_private_json` for bytes already made."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=".tmp")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


# An intent line, its head, the outcome line: a few kilobytes. Below this much
# free the disk is full for our purpose (a write may still fit, then fail on the next).
NEEDED_BYTES = 64 * 1024


def no_room(directory: Path, needed: int = NEEDED_BYTES) -> OSError | None:
    """ENOSPC when the filesystem holding `directory` has less than `needed`
    bytes free for this user (root may use the reserved blocks too); None when
    there is room or the filesystem cannot tell (the write itself will say)."""
    try:
        found = os.statvfs(directory)
    except OSError:
        return None
    if found.f_blocks == 0:  # a filesystem that reports no sizes (some FUSE, /proc)
        return None
    blocks = found.f_bfree if os.geteuid() == 0 else found.f_bavail
    free = blocks * found.f_frsize
    if free >= needed:
        return None
    return OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)}: {free:,} bytes free")
