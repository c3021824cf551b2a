"""What the kept fold's job modules are handed: the `KeptFold` that owns them,
as the protocol they type against (`KeptFoldJobs`), and a first full read
whose fold is built later (`Pending`). Below the jobs (`kept_fold_build`,
`_hooks`, `_persist`, `_check`) and above the pure fold (`kept_fold_rows`),
so no job names `kept_fold`, which imports them all."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from daimon_tui.store.daimon_api.public import jsonl
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.judging.kept_fold_rows import Kept


# mutable because daimon's fold of the rows is made once, on the first read that needs it
@dataclass(slots=True)
class Pending:
    """A full read whose kept fold is not built yet: while the ledger's stat
    key stands, every read is answered with daimon's own rows, and daimon's
    fold of them is made once (`winners`, keys kept) and reused by the build."""

    stat_key: tuple
    read: jsonl.Read
    data: bytes  # the bytes `read` read: the build places its rows in them
    winners: dict | None = None
    corroborations: dict | None = None  # daimon's `fold_corroborations` of the rows, once made


class KeptFoldJobs(Protocol):
    """The part of `kept_fold.KeptFold` its jobs read, change and call."""

    daimon: Daimon
    held: dict[str, Kept]  # ledger -> its kept fold
    persisted: dict[str, int]  # ledger -> the size its copy on disk covers
    pending: dict[str, Pending]  # ledger -> a full read whose fold is built later
    lock: threading.Lock
    build_lock: threading.Lock  # one build at a time
    builder: threading.Thread | None
    on_disk: ContextVar[bool]  # False: a fold is held in memory only (`in_memory_only`)
    handed: tuple[dict, Kept] | None  # the item fold last handed out, and the kept fold it is a copy of

    def active(self) -> AbstractContextManager[None]: ...

    def rows_of(self, ref: str) -> AbstractContextManager[None]: ...

    def read(self, path: Any, **options: Any) -> jsonl.Read: ...

    def latest_per_ref(self, rows: Any, *, keys: bool) -> dict: ...

    def build_pending(self) -> None: ...
