"""The session files and receipts of a kept as-of copy (`as_of(into=)`:
Health's pass keeps one copy for all its moments): each written once and kept
while neither what it was written from nor the file in the copy changed, so a
later moment does not delete and write them again (~90 files a moment on a
large store)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

# What a kept copy's file was written from: ("file", source path, its stat key) or ("bytes", the bytes).
Source = tuple
# file name in the copy's checkpoint dir -> (what it was written from, the file's stat key after)
Written = dict[str, tuple[Source, tuple[int, ...] | None]]

_BY_COPY: dict[str, Written] = {}  # a kept copy's checkpoint dir -> its files written
_COPIES_HELD = 4  # one per pass running; the oldest let go


def written_in(checkpoints: Path) -> Written:
    """The files written in this kept copy's checkpoint dir so far."""
    key = str(checkpoints)
    if key not in _BY_COPY:
        while len(_BY_COPY) >= _COPIES_HELD:
            del _BY_COPY[next(iter(_BY_COPY))]
        _BY_COPY[key] = {}
    return _BY_COPY[key]


def stat_key(path: Path) -> tuple[int, ...] | None:
    """A file's state: a write moves its ctime, a replace its inode."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def copy(src: Path, dst: Path, written: Written | None) -> None:
    """`shutil.copy2(src, dst)`, unless `dst` is still the copy of `src` as it stands."""
    _put(("file", str(src), stat_key(src)), dst, written, lambda: shutil.copy2(src, dst))


def write(dst: Path, data: bytes, written: Written | None) -> None:
    """`dst.write_bytes(data)`, unless `dst` still holds exactly these bytes written here."""
    _put(("bytes", data), dst, written, lambda: dst.write_bytes(data))


def _put(source: Source, dst: Path, written: Written | None, write_it: Callable[[], object]) -> None:
    held = written.get(dst.name) if written is not None else None
    if held is not None and held[0] == source and source[-1] is not None and stat_key(dst) == held[1]:
        return
    write_it()
    if written is not None:
        written[dst.name] = (source, stat_key(dst))


def drop_others(checkpoints: Path, written: Written, placed: set[str]) -> None:
    """Remove the files written in an earlier moment that this one did not place."""
    for name in [name for name in written if name not in placed]:
        (checkpoints / name).unlink(missing_ok=True)
        del written[name]
