"""When each session's checkpoint was written, from what the store says of
it (`written_at`), and the events ledger's rows that say it: each session's
witness rows and the forget times (`session_rows`, `forget_times`), read once
per state of the ledger, or taken from daimon's whole read of it
(`status_rows_read`). Apart from `asof` (the copy itself), which cuts by the
moment worked out here."""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from daimon_tui.domain import verbs
from daimon_tui.models.history import parse_time
from daimon_tui.store.daimon_api.public import store


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# A capture writes its checkpoint within minutes of the session's end (its
# `created`). A file changed later than this (a forget scrub, an anchor, a
# heal of an old transcript, a copy) no longer says when it was first written.
WRITE_WINDOW_S = 3600


# A forget's scrub rewrites the session files holding the value right after its tombstone row.
REWRITE_S = 120


def written_at(path: Path | None, created: str, own_rows: tuple[str, ...] = (),
               rewrites: tuple[str, ...] = ()) -> str:
    """When the session's checkpoint was written. A capture appends its
    corroboration rows (`corroborated-by:<session>`: only that session's
    capture writes them) just before it writes the file, so those rows say
    when, even when the file was touched since; the rows of its first
    capture are the burst from the earliest one. Without such rows, the
    file's mtime (daimon's own write-side record:
    `store.checkpoints_written_since` counts by it) while it lies in the
    capture window after `created`, unless it is a forget's rewrite (within
    REWRITE_S after one of `rewrites`, the tombstones' times: the scrub, not
    the capture); with neither, `created`."""
    try:
        born = parse_time(created)
    except ValueError:
        return created
    seen = [born]
    stamps = sorted(t for t in (_moment(r) for r in own_rows) if t is not None)
    if stamps:
        # the capture's rows are append-only: a later edit of the file moves its mtime, never them
        seen.extend(t for t in stamps if t <= stamps[0] + timedelta(seconds=WRITE_WINDOW_S))
    else:
        # the receipt is written right after the file, and a hand edit of the file leaves it alone
        scrubs = [t for t in (_moment(r) for r in rewrites) if t is not None]
        for written in (_mtime(path.with_suffix(".receipt")) if path else None, _mtime(path)):
            if written is not None and any(t <= written <= t + timedelta(seconds=REWRITE_S) for t in scrubs):
                continue
            if written is not None and born <= written <= born + timedelta(seconds=WRITE_WINDOW_S):
                seen.append(written)
                break
    return stamp(max(seen))


def deciding_rows(own_rows: tuple[str, ...]) -> tuple[str, ...]:
    """The rows of `own_rows` `written_at` decides by (what Health keeps of a
    session's): the earliest, and the latest within WRITE_WINDOW_S of it."""
    timed = sorted((t, r) for r in own_rows if (t := _moment(r)) is not None)
    if not timed:
        return ()
    first = timed[0]
    last = max(pair for pair in timed if pair[0] <= first[0] + timedelta(seconds=WRITE_WINDOW_S))
    return (first[1],) if last == first else (first[1], last[1])


def _mtime(path: Path | None) -> datetime | None:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC) if path is not None else None
    except (OSError, ValueError):
        return None


def _moment(text: str) -> datetime | None:
    try:
        return parse_time(text)
    except ValueError:
        return None


def _status_rows(bucket: Path, spelled: str) -> tuple[tuple[str, str], ...]:
    """(status, ts) of the bucket's events rows whose line spells `spelled` (any case) and that have both.
    Read once per state of the ledger (its stat key, ctime included): Health
    works out every charted session's moment from the same rows."""
    path = bucket / "events.jsonl"
    try:
        st = path.stat()
    except OSError:
        return ()
    key = (str(path), _state(st), spelled)
    with _STATUS_LOCK:
        held = _STATUS.get(key)
    if held is None:
        held = _status_rows_of(key[0], spelled)
        _keep_status(key, held)
    return held


# (ledger, its stat key, spelled) -> `_status_rows`' answer, for the last few asked
_STATUS: dict[tuple[str, tuple[int, ...], str], tuple[tuple[str, str], ...]] = {}
_STATUS_SIZE = 4
_STATUS_LOCK = threading.Lock()
_SPELLED = ("forgotten:", verbs.WITNESS_PREFIX.casefold())  # what `forget_times` and `session_rows` ask for


def _state(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _keep_status(key: tuple[str, tuple[int, ...], str], held: tuple[tuple[str, str], ...]) -> None:
    with _STATUS_LOCK:
        _STATUS.pop(key, None)
        while len(_STATUS) >= _STATUS_SIZE:
            _STATUS.pop(next(iter(_STATUS)))
        _STATUS[key] = held


def _status_rows_of(path: str, spelled: str) -> tuple[tuple[str, str], ...]:
    out = []
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 (closed below; a missing file is no rows)
    except OSError:
        return ()
    with handle:
        for line in handle:
            if spelled not in line.casefold():
                continue
            row = _parsed(line)
            status = row.get("status") if row is not None else None
            ts = _time_of(row)
            if isinstance(status, str) and ts:
                out.append((status, ts))
    return tuple(out)


def status_rows_read(bucket: Path, st: os.stat_result, lines: list[str], rows: list[dict | None],
                     times: list[str | None]) -> None:
    """What `_status_rows` answers for the bucket's events ledger, from daimon's
    whole read of it (`LedgerPass.offer`: `lines` as a text read splits them,
    `rows` daimon's row of each, None for a blank line, `times` each row's
    `_time_of`) instead of parsing the lines that spell a status again. The
    ledger read whole is every line a row: the rows a line-by-line parse finds are these."""
    folded = list(map(str.casefold, lines))  # once for every status asked for
    for spelled in _SPELLED:
        out = []
        for line, row, ts in zip(folded, rows, times, strict=True):
            if row is None or spelled not in line:
                continue
            status = row.get("status")
            if isinstance(status, str) and ts:
                out.append((status, ts))
        _keep_status((str(bucket / "events.jsonl"), _state(st), spelled), tuple(out))


def forget_times(bucket: Path) -> tuple[str, ...]:
    """The `ts` of the bucket's forget tombstones (`forgotten:<key>` rows in its events ledger)."""
    return tuple(ts for status, ts in _status_rows(bucket, "forgotten:") if store.is_tombstone_status(status))


def session_rows(bucket: Path) -> dict[str, tuple[str, ...]]:
    """session id -> the `ts` of the rows its capture wrote naming it
    (`corroborated-by:<session>` in the bucket's events ledger)."""
    rows = _status_rows(bucket, verbs.WITNESS_PREFIX.casefold())
    return dict(_by_session(rows))


def session_moment_rows(bucket: Path) -> dict[str, tuple[str, ...]]:
    """session id -> its deciding witness rows (`deciding_rows`): `written_at`
    gives the same moment from these as from all of `session_rows`. Worked
    out once per state of the ledger: Health asks for every session file at
    every moment of its pass."""
    return _deciding(_status_rows(bucket, verbs.WITNESS_PREFIX.casefold()))


Rows = tuple[tuple[str, str], ...]
Answer = TypeVar("Answer")


def _kept_for_rows(compute: Callable[[Rows], Answer]) -> Callable[[Rows], Answer]:
    """`compute(rows)` kept for the last two rows asked: found by identity first
    (the rows `_status_rows` keeps for one state of the ledger: Health asks at
    each moment, and hashing ~100k pairs as an lru_cache key costs milliseconds
    each time), then by equality (the same rows read again)."""
    held: list[tuple[Rows, Answer]] = []
    lock = threading.Lock()

    @functools.wraps(compute)
    def answer(rows: Rows) -> Answer:
        with lock:
            found = next((value for seen, value in held if seen is rows), None)
            if found is None:
                found = next((value for seen, value in held if seen == rows), None)
        if found is not None:
            return found
        value = compute(rows)
        with lock:
            held[:] = [(rows, value), *held[:1]]
        return value

    return answer


@_kept_for_rows
def _deciding(rows: Rows) -> dict[str, tuple[str, ...]]:
    # keyed as `_by_session` is: the rows `_status_rows_of` kept for one state of the ledger
    return {sid: deciding_rows(own) for sid, own in _by_session(rows).items()}


@_kept_for_rows
def _by_session(rows: Rows) -> dict[str, tuple[str, ...]]:
    # keyed by the rows `_status_rows_of` kept for one state of the ledger (grouping them
    # costs a second); Health asks once per charted session
    out: dict[str, list[str]] = {}
    for status, ts in rows:
        if status.startswith(verbs.WITNESS_PREFIX):
            out.setdefault(status[len(verbs.WITNESS_PREFIX):].strip(), []).append(ts)
    return {sid: tuple(stamps) for sid, stamps in out.items()}


def _parsed(line: str) -> dict | None:
    try:
        row = json.loads(line)
    except ValueError:
        return None
    return row if isinstance(row, dict) else None


def _time_of(row: dict | None) -> str | None:
    """The row's `ts` normalised to daimon's stamp, or None when the row has
    no readable time (daimon folds such a row as oldest; we keep it)."""
    ts = row.get("ts") if row is not None else None
    if not isinstance(ts, str):
        return None
    try:
        moment = parse_time(ts)
    except ValueError:
        return None
    # already daimon's stamp (nearly every row): it is its own normal form, without
    # formatting it again (strftime was a third of reading a year's ledger)
    return ts if _STAMPED.fullmatch(ts) and moment.year >= 1000 else stamp(moment)


_STAMPED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
