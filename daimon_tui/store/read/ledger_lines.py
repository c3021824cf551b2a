"""The rows of the events ledger that spell a word, found by bytes, judged by daimon.

daimon's events folds are per ref, so an answer about one item (its `why`,
witnesses, lifecycle) or one kind of row (the handoff baton) depends only on
the rows that spell its id or kind. On a year of memory the whole ledger is
~200,000 rows of JSON; a byte search (a block at a time) finds those few lines in
milliseconds, and daimon's own `jsonl.classify_line` judges each one.

`events_as(read)` makes daimon's readers see only those rows in the current
context (a ContextVar, so it follows `asyncio.to_thread`): its events read
answers `read`, and its judge is read fresh and never memoized, so the
partial rows never reach a memo a later full read would be served from.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api.public import Health, jsonl
from daimon_tui.store.judging import snapshot_share

LEDGER = "events.jsonl"
# A word spelled the same in every JSON writer's output (no escape applies):
# then a byte search finds every row that spells it.
_PLAIN = frozenset(map(ord, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:"))
SEARCH_BLOCK = 1024 * 1024  # bytes read and searched at a time
_rows: ContextVar[jsonl.Read | None] = ContextVar("daimon_tui_ledger_lines", default=None)
_next_read: Any = None
_next_judge: Any = None
_installed = False


def plain(word: str) -> bytes | None:
    """`word` as bytes when JSON can spell it only one way, else None."""
    raw = word.encode("ascii", "replace")
    return raw if raw and len(raw) == len(word) and all(b in _PLAIN for b in raw) else None


def lines_spelling(path: Path, word: str) -> list[str] | None:
    """Every line of the ledger at `path` that contains `word`, in file order,
    decoded as daimon decodes them; [] for an absent or empty ledger; None
    when it cannot be told from bytes (a word JSON may escape, a ledger that
    is not a regular file, a read that fails)."""
    needle = plain(word)
    if needle is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return []
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        return _lines_in(fd, st.st_size, needle)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _lines_in(fd: int, size: int, needle: bytes) -> list[str]:
    """The lines of the first `size` bytes at `fd` that contain `needle`, read
    a block at a time: the app holds a block, never the whole ledger (a
    mapped ledger's pages counted in its peak memory: 34 MB on a year)."""
    lines: list[str] = []
    held = bytearray()  # whole lines not yet searched, then an unfinished one
    left = size
    while left > 0:
        block = os.read(fd, min(SEARCH_BLOCK, left))
        if not block:
            break
        left -= len(block)
        held += block
        whole = held.rfind(b"\n", len(held) - len(block)) + 1
        if whole:
            _lines_with(held, needle, whole, lines)
            del held[:whole]
    _lines_with(held, needle, len(held), lines)
    return lines


def _lines_with(data: bytearray, needle: bytes, stop: int, lines: list[str]) -> None:
    """Append to `lines` each line of `data[:stop]` (whole lines) holding `needle`."""
    at = data.find(needle, 0, stop)
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at, stop)
        end = stop if end < 0 else end
        lines.append(data[start:end].decode("utf-8", "surrogateescape"))
        at = data.find(needle, end, stop)


def judged(lines: list[str]) -> jsonl.Read:
    """`lines` as daimon's `jsonl.read` judges a file of them (its own line
    classifier; garbage is UNREADABLE, torn is DEGRADED)."""
    rows: list = []
    torn = garbage = undecodable = 0
    for line in lines:
        kind, row = jsonl.classify_line(line)
        if kind == jsonl.ROW:
            rows.append(row)
        elif kind == jsonl.TORN:
            torn += 1
        else:
            garbage += 1
            undecodable += any("\udc80" <= c <= "\udcff" for c in line)
    if garbage:
        return jsonl.Read(Health.UNREADABLE, rows, torn, 0, garbage, "garbage", undecodable)
    if torn:
        return jsonl.Read(Health.DEGRADED, rows, torn, 0, 0, "torn")
    return jsonl.Read(Health.OK, rows)


def rows_spelling(bucket: Path, word: str) -> jsonl.Read | None:
    """The bucket's events rows that spell `word`, judged; None when they
    cannot be found from bytes."""
    path = bucket / LEDGER
    lines = lines_spelling(path, word)
    if lines is None:
        return None
    if not lines and not path.exists():
        return jsonl.Read(Health.ABSENT, [])
    return judged(lines)


def _read(path: Any, **options: Any) -> jsonl.Read:
    held = _rows.get()
    if held is not None and not options and Path(path).name == LEDGER:
        return held
    return _next_read(path, **options)


def _judge(slug: Any, **options: Any) -> Any:
    if _rows.get() is None:
        return _next_judge(slug, **options)
    return daimon_judging.read_judge(slug, options.get("forgotten") or frozenset())[0]


def install() -> None:
    """Route daimon's events read and judge through here (idempotent), on top
    of the shared snapshot and the kept fold (installed first: they stay under).
    In safe mode nothing is routed: daimon reads the whole ledger (exact, slower)."""
    global _next_read, _next_judge, _installed
    if _installed:
        return
    snapshot_share.install()
    previous = daimon_judging.install_events_judge(_read, _judge)
    if previous is None:
        return  # safe mode: asked again, in case the mode is decided again (tests do)
    _next_read, _next_judge = previous
    _installed = True


@contextlib.contextmanager
def events_as(read: jsonl.Read) -> Iterator[None]:
    """In this context daimon's read of any events ledger answers `read`."""
    install()
    token = _rows.set(read)
    try:
        yield
    finally:
        _rows.reset(token)
