"""The kept events fold on disk: sizes, a digest and offsets, never a row.

One JSON file per ledger in our cache dir (`verdict_cache.cache_dir()`),
named by a hash of the checkpoint dir and the ledger's path, 0600 in a 0700
directory, replaced atomically. It says which bytes were folded (`size`,
`sha256`) and where the rows `kept_fold` keeps start: each ref's winner, each
witness, each ref's rows (refs named by a hash: a legacy ref may be text) and
the rows that may be tombstones. The rows themselves are read back from the
ledger, and only while its bytes hash the same. A file that is not a small
regular file of this format is ignored, and never opened blocking.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_briefing import config

from daimon_tui.domain.own_files import write_private_json
from daimon_tui.store.judging import verdict_cache

FORMAT = 1
_MAX_BYTES = 64 * 1024 * 1024


def cache_file(key: str) -> Path:
    """Where the kept fold of the ledger at absolute path `key` is kept."""
    name = hashlib.sha256(f"{config.checkpoint_dir()}\0{key}".encode()).hexdigest()[:32]
    return verdict_cache.cache_dir() / f"{name}.fold.json"


@dataclass(frozen=True)
class Spans:
    """A kept fold as numbers: the bytes it covers and where its rows start."""

    size: int
    digest: str
    winners: tuple[int, ...]
    witnesses: tuple[int, ...]
    refs: dict[str, list[int]]
    tombstones: list[int]


def save(key: str, spans: Spans) -> bool:
    """Write `spans` for the ledger `key` (atomic, 0600). Never raises."""
    record = {"format": FORMAT, "size": spans.size, "sha256": spans.digest, "winners": list(spans.winners),
              "witnesses": list(spans.witnesses), "refs": spans.refs, "tombstones": spans.tombstones}
    return write_private_json(cache_file(key), record, prefix=".fold-")


def _ints(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        return None
    return tuple(value)


def load(key: str) -> Spans | None:
    """The kept fold of the ledger `key` from disk, or None. Opened without
    blocking and without following a link; anything but a small regular file
    of our format is ignored."""
    try:
        fd = os.open(cache_file(key), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    size, digest = data.get("size"), data.get("sha256")
    winners, witnesses = _ints(data.get("winners")), _ints(data.get("witnesses"))
    refs, tombstones = data.get("refs"), _ints(data.get("tombstones"))
    if (type(size) is not int or not isinstance(digest, str) or winners is None or witnesses is None
            or tombstones is None or not isinstance(refs, dict)):
        return None
    if not all(isinstance(k, str) and _ints(v) is not None for k, v in refs.items()):
        return None
    return Spans(size, digest, winners, witnesses, refs, list(tombstones))


def discard(key: str) -> None:
    """Remove the kept fold of the ledger `key` from disk (it was found wrong)."""
    with contextlib.suppress(OSError):
        cache_file(key).unlink()
