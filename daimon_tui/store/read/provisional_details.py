"""An item's details answered from its own rows, while daimon's full fold runs elsewhere.

The first confirmation folds every ledger in the judging child (seconds on a
year of memory), and the child answers one request at a time: an item's
`why` behind it would wait for the whole fold. Yet daimon's events folds are
per ref, so what the detail pane shows of one item (its inspector, witnesses
and lifecycle) depends only on the rows addressed to its id and to its
corroboration ref, and both spell the id. So: a byte search of the events
ledger for the id (`bytes.find` over a map of the file), each hit's line
judged by daimon's own `jsonl.classify_line`, and daimon's own `view.snapshot`
and readers run over those rows alone (every other ledger of the bucket is
read whole, as daimon reads it).

What it cannot know is machine-wide: another bucket's forget of the same
value, a teammate's published forget (the local forget walk reads every
bucket's events ledger: the very cost avoided). It knows the item's own
tombstone and the ids the verdict cache saw forgotten. So the answer is
provisional, the pane says so, and the child's answer replaces it.

Nothing is memoized: the snapshot built here never reaches the shared memo
(`snapshot_share`) nor daimon's judge memo (both are bypassed inside
`_item_rows`), so no later read can be served the partial fold.
"""

from __future__ import annotations

import contextlib
import dataclasses
import mmap
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from daimon_briefing import jsonl, store, view
from daimon_briefing.jsonl import Health

from daimon_tui.models import ProjectRef
from daimon_tui.store.judging import snapshot_share, verdict_cache
from daimon_tui.store.read import details

LEDGER = "events.jsonl"
# An id spelled the same in every JSON writer's output (no escape can apply):
# then a byte search finds every row that names it.
_PLAIN = frozenset(map(ord, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:"))
_rows: ContextVar[jsonl.Read | None] = ContextVar("daimon_tui_item_rows", default=None)
_next_read: Any = None
_next_judge: Any = None
_installed = False
_walk_skipped: ContextVar[bool] = ContextVar("daimon_tui_walk_skipped", default=False)
_next_machine_sets: Any = None
_next_incomplete: Any = None


def _plain_id(item_id: str) -> bytes | None:
    raw = item_id.encode("ascii", "replace")
    return raw if raw and len(raw) == len(item_id) and all(b in _PLAIN for b in raw) else None


def item_lines(path: Path, item_id: str) -> list[str] | None:
    """Every line of the ledger at `path` that contains `item_id`, in file
    order, decoded as daimon decodes them; [] for an absent or empty ledger;
    None when it cannot be told from bytes (an id that JSON may escape, a
    ledger that is not a regular file, a read that fails)."""
    needle = _plain_id(item_id)
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
        if st.st_size == 0:
            return []
        with mmap.mmap(fd, st.st_size, access=mmap.ACCESS_READ) as data:
            return _lines_with(data, needle)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _lines_with(data: mmap.mmap, needle: bytes) -> list[str]:
    lines: list[str] = []
    at = data.find(needle)
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        lines.append(data[start:end].decode("utf-8", "surrogateescape"))
        at = data.find(needle, end)
    return lines


def item_read(path: Path, item_id: str) -> jsonl.Read | None:
    """The item's lines as daimon's `jsonl.read` would judge them (its own
    line classifier), or None when they cannot be found from bytes."""
    lines = item_lines(path, item_id)
    if lines is None:
        return None
    rows: list = []
    torn = garbage = 0
    for line in lines:
        kind, row = jsonl.classify_line(line)
        if kind == jsonl.ROW:
            rows.append(row)
        elif kind == jsonl.TORN:
            torn += 1
        else:
            garbage += 1
    if garbage:
        return jsonl.Read(Health.UNREADABLE, rows, torn, 0, garbage, "garbage")
    if torn:
        return jsonl.Read(Health.DEGRADED, rows, torn, 0, 0, "torn")
    return jsonl.Read(Health.OK if lines or path.exists() else Health.ABSENT, rows)


def _read(path: Any, **options: Any) -> jsonl.Read:
    held = _rows.get()
    if held is not None and not options and Path(path).name == LEDGER:
        return held
    return _next_read(path, **options)


def _judge(slug: Any, **options: Any) -> Any:
    held = _rows.get()
    if held is None:
        return _next_judge(slug, **options)
    # a judge of the partial rows is never memoized: daimon's memo would
    # serve it to later reads of the same files
    return view._read_judge(slug, options.get("forgotten") or frozenset())[0]


def _install() -> None:
    """Route daimon's events read and judge through here (idempotent), on top
    of the shared snapshot and the kept fold (installed first, so they stay under)."""
    global _next_read, _next_judge, _installed
    if _installed:
        return
    snapshot_share.install()
    _next_read, _next_judge = jsonl.read, view.judge
    jsonl.read = _read
    view.judge = _judge
    _installed = True


@contextlib.contextmanager
def _item_rows(read: jsonl.Read) -> Iterator[None]:
    _install()
    token = _rows.set(read)
    try:
        yield
    finally:
        _rows.reset(token)


def item_snapshot(project: ProjectRef, read: jsonl.Read, forgotten_ids: frozenset[str]) -> view.Snapshot:
    """daimon's own snapshot of the bucket with the events ledger reduced to
    `read`; the machine-wide forget walk left out (see the module doc), the
    ids the verdict cache knows as forgotten kept withheld."""
    with _item_rows(read), _no_machine_walk():
        snap = snapshot_share.daimons_snapshot(project.target)
    return dataclasses.replace(snap, forgotten_ids=snap.forgotten_ids | forgotten_ids)


def _machine_sets() -> tuple[frozenset, frozenset]:
    if _walk_skipped.get():
        return frozenset(), frozenset()
    return _next_machine_sets()


def _incomplete() -> frozenset:
    return frozenset() if _walk_skipped.get() else _next_incomplete()


@contextlib.contextmanager
def _no_machine_walk() -> Iterator[None]:
    global _next_machine_sets, _next_incomplete
    if _next_machine_sets is None:
        _next_machine_sets, _next_incomplete = view.machine_sets, store.forgotten_incomplete
        view.machine_sets = _machine_sets
        store.forgotten_incomplete = _incomplete
    token = _walk_skipped.set(True)
    try:
        yield
    finally:
        _walk_skipped.reset(token)


def read_provisional(project: ProjectRef, item_id: str, now: float | None = None) -> details.ItemDetails | None:
    """`details.read_details` answered from the item's own rows (see the
    module doc), or None when they cannot be found from bytes. Never raises."""
    bucket = view._bucket(project.target) if item_id else None
    if bucket is None:
        return None
    try:
        read = item_read(bucket / LEDGER, item_id)
        if read is None:
            return None
        cached = verdict_cache.load(project.slug)
        snap = item_snapshot(project, read, cached.forgotten_ids() if cached else frozenset())
        with _item_rows(read), _no_machine_walk(), snapshot_share.substitute(snap):
            return details.read_details(project, item_id, now)
    except Exception:  # the confirmed answer still comes from the child
        return None
