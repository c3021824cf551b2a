"""The kept fold's reads of an events ledger's bytes: a row's line where it
starts, a window of lines, where every line starts, a hash a block at a time.

Nothing here holds state: each function reads an open file (or bytes) and
returns. The kept bytes were judged every-line-a-row by daimon's read, and
their digest still matches: parsing a line is all `classify_line` would do.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

LEDGER = "events.jsonl"
LINE_READ_BYTES = 1024  # one row's line is read this much at a time (a row is ~200 bytes)
HASH_BLOCK_BYTES = 1024 * 1024  # the kept bytes are hashed this much at a time, never held whole
WINDOW_BYTES = 64 * 1024  # kept rows are read back this much at a time where they are
# reads the rows whose lines start at the (sorted) offsets: {start: row}, or
# None when one is not a row's line (`rows_in_file`)
RowsAt = Callable[[list[int]], dict[int, dict] | None]


def row_at(data: bytes, start: int, size: int) -> dict | None:
    """The row whose line starts at `start`, None when no row starts there."""
    if not 0 <= start < size or (start and data[start - 1] != 0x0A):
        return None
    end = data.find(b"\n", start, size)
    try:
        row = json.loads(data[start:end if end >= 0 else size].decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        return None
    return row if isinstance(row, dict) else None


def line_in_file(fd: int, start: int, size: int) -> bytes | None:
    """The line starting at `start` within the first `size` bytes of the open
    file `fd` (its newline and what follows it may come along), reading only
    that line (`os.pread`: the handle's position is left alone); None when no
    line starts there."""
    if not 0 <= start < size or (start and os.pread(fd, 1, start - 1) != b"\n"):
        return None  # not where a line starts
    line = b""
    while b"\n" not in line and start + len(line) < size:
        more = os.pread(fd, min(LINE_READ_BYTES, size - start - len(line)), start + len(line))
        if not more:
            return None
        line += more
    return line


def row_in_file(fd: int, start: int, size: int) -> dict | None:
    """`row_at` over the first `size` bytes of the open file `fd`, reading only that line."""
    line = line_in_file(fd, start, size)
    return None if line is None else row_at(line, 0, len(line))


def rows_in_file(fd: int, starts: list[int], size: int) -> dict[int, dict] | None:
    """The rows whose lines start at the sorted `starts` within the first
    `size` bytes of the open file `fd`, in one parse (the lines joined as one
    JSON array: the parser's loop, not ours); None when a start is not a
    line's. Read a window at a time (`os.pread`) where those lines are, never
    the file whole: lines close together share a window."""
    lines = []
    base, window = 0, b""
    for start in starts:
        if not 0 <= start < size:
            return None
        low = max(start - 1, 0)  # the newline before the line, when not the first
        inside = base <= low and start < base + len(window)
        end = window.find(b"\n", start - base) if inside else -1
        if not inside or (end < 0 and base + len(window) < size):
            base, window = low, b""
            while True:
                more = os.pread(fd, min(WINDOW_BYTES, size - base - len(window)), base + len(window))
                if not more:
                    return None
                window += more
                end = window.find(b"\n", start - base)
                if end >= 0 or base + len(window) >= size:
                    break
        if start and window[start - base - 1] != 0x0A:
            return None  # not where a line starts
        lines.append(window[start - base:end if end >= 0 else len(window)])
    return parsed_lines(lines, starts)


def parsed_lines(lines: list[bytes], starts: list[int]) -> dict[int, dict] | None:
    """The rows of `lines` (starting at `starts`) as one JSON array; None when one is not a row."""
    try:
        rows = json.loads(b"[" + b",".join(lines) + b"]")
    except (ValueError, RecursionError):
        return None
    if len(rows) != len(starts) or not all(isinstance(row, dict) for row in rows):
        return None
    return dict(zip(starts, rows, strict=True))


def line_starts(data: bytes, base: int) -> list[int]:
    """Where each line `jsonl.read` keeps (every one not blank) starts."""
    starts: list[int] = []
    at = 0
    for line in data.split(b"\n"):
        if line.decode("utf-8", "surrogateescape").strip():
            starts.append(base + at)
        at += len(line) + 1
    return starts


def hashed(handle: Any, size: int) -> Any:
    """The sha256 of the next `size` bytes of `handle`, read a block at a
    time; None when the file ends before."""
    digest = hashlib.sha256()
    while size:
        block = handle.read(min(HASH_BLOCK_BYTES, size))
        if not block:
            return None
        digest.update(block)
        size -= len(block)
    return digest


def stat_id(st: os.stat_result) -> tuple:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def stat_key(st: os.stat_result) -> tuple:
    # daimon's own memo key (its view's stat key): ctime moves on any write or chmod
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)
