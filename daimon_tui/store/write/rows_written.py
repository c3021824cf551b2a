"""The rows daimon appended to one ledger during one write: what the action
log records, one record per row, with daimon's own word and time.

daimon's writers answer with a boolean or an id, not with the rows they
appended (a forget writes an id row, a key row and sibling rows in one
append; a lift one row per standing ref). So the ledger's size is taken
before the write and the rows after it are read back; rows another writer
appended meanwhile are left out by `keep`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Row(Record):
    """One appended row as the action log may hold it: ledger, the ref it is
    addressed to, daimon's word for it (`status` in events.jsonl, `event`
    elsewhere), daimon's own `ts`, and the source or channel that wrote it."""

    ledger: str
    ref: str
    word: str | None = None
    ts: str | None = None
    source: str | None = None


def _ref(row: dict) -> str:
    ref = row.get("item_ref")
    if isinstance(ref, str):
        return ref
    for key, value in row.items():
        if key.endswith("_id") and key != "event_id" and isinstance(value, str):
            return value
    return ""


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


class Tail:
    """A ledger's end, marked before a write."""

    def __init__(self, path: Path | None, ledger: str) -> None:
        self.path = path
        self.ledger = ledger
        try:
            self.offset = os.stat(path).st_size if path is not None else 0
        except OSError:
            self.offset = 0

    def rows(self, keep: Callable[[Row], bool] = lambda _row: True) -> tuple[Row, ...]:
        """Whole rows appended since the mark that `keep` claims; a torn or
        unreadable line is not a row daimon wrote."""
        if self.path is None:
            return ()
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return ()
        out = []
        for line in data.split(b"\n")[:-1]:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if not isinstance(row, dict):
                continue
            got = Row(ledger=self.ledger, ref=_ref(row), word=_str(row.get("status")) or _str(row.get("event")),
                      ts=_str(row.get("ts")), source=_str(row.get("source")) or _str(row.get("channel")))
            if keep(got):
                out.append(got)
        return tuple(out)
