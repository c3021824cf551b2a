"""Whether a directory's filesystem has room for a verb's writes, asked before
a preview offers `y`: a full disk refuses the verb there, not after `y`."""

from __future__ import annotations

import errno
import os
from pathlib import Path

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
