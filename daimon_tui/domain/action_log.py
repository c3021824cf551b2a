"""Our own append-only, hash-chained log of every action taken from the app.

One JSON line per action: applied, refused, failed, not-applied, or a
world-check run. Each line carries the SHA-256 of the previous line's bytes, so
an edited or deleted line breaks the chain from that point on. The log holds
ids, codes and daimon record references only: never item text, quotes, notes
or evidence (those live in daimon's ledgers, where daimon's forget reaches
them; a copy here would survive a forget).
"""

from __future__ import annotations

import contextlib
import fcntl
import getpass
import hashlib
import json
import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from daimon_tui.models import Frozen

LOG_ENV = "DAIMON_TUI_LOG"
GENESIS = "0" * 64
LogOutcome = Literal["applied", "refused", "failed", "not-applied", "world-check"]


def default_path() -> Path:
    """`$DAIMON_TUI_LOG`, else `$XDG_STATE_HOME/daimon-tui/actions.jsonl`,
    else `~/.local/state/daimon-tui/actions.jsonl`."""
    override = os.environ.get(LOG_ENV)
    if override:
        return Path(override).expanduser()
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state).expanduser() if state else Path.home() / ".local" / "state"
    return base / "daimon-tui" / "actions.jsonl"


def os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry and no LOGNAME: still log the action
        return "unknown"


class LoggedRecord(Frozen):
    """One record written (or attempted) in daimon's ledgers: references only.
    `status` is a lifecycle word from the app's own vocabulary, never free text."""

    item_id: str
    op: str
    outcome: LogOutcome
    reason: str = ""
    ledger: str | None = None
    ref: str | None = None
    status: str | None = None
    ts: str | None = None
    undid: str | None = None


class ActionEntry(Frozen):
    action_id: str
    time: str
    user: str
    project: str
    verb: str
    item_ids: tuple[str, ...] = ()
    outcome: LogOutcome
    reason: str = ""
    records: tuple[LoggedRecord, ...] = ()
    undoes: str | None = None
    prev: str = GENESIS


class LogLine(Frozen):
    """One line as read: the entry when it parsed, else `problem`."""

    number: int
    entry: ActionEntry | None = None
    problem: str | None = None


class ChainReport(Frozen):
    ok: bool
    lines: int = 0
    broken_at: int | None = None
    torn_at: int | None = None
    bad_lines: tuple[int, ...] = Field(default=())

    @property
    def message(self) -> str:
        if self.ok:
            return f"chain intact ({self.lines} line(s))"
        parts = []
        if self.broken_at is not None:
            parts.append(f"chain broken at line {self.broken_at}: it does not carry the previous line's hash")
        if self.torn_at is not None:
            parts.append(f"torn last line {self.torn_at} (an interrupted write)")
        if self.bad_lines:
            parts.append("unreadable line(s) " + ", ".join(map(str, self.bad_lines)))
        return "; ".join(parts)


def line_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def new_action_id() -> str:
    return "act-" + uuid.uuid4().hex[:12]


class ActionLog:
    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[int]:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _raw(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""

    def append(self, entry: ActionEntry) -> ActionEntry:
        """Append under an exclusive lock, chained to the last line, fsync'd.
        A torn tail is closed with a newline first and chained like any line,
        so the chain still proves everything after it."""
        with self._locked() as fd:
            raw = self._raw()
            prefix = b""
            if raw and not raw.endswith(b"\n"):
                prefix = b"\n"
            last = raw.rstrip(b"\n").rsplit(b"\n", 1)[-1] if raw.strip() else b""
            chained = entry.model_copy(update={"prev": line_hash(last) if last else GENESIS})
            line = chained.model_dump_json().encode("utf-8")
            os.write(fd, prefix + line + b"\n")
            os.fsync(fd)
        return chained

    def record(self, *, project: str, verb: str, outcome: LogOutcome, item_ids: tuple[str, ...] = (),
               reason: str = "", records: tuple[LoggedRecord, ...] = (), undoes: str | None = None,
               action_id: str | None = None) -> ActionEntry:
        entry = ActionEntry(
            action_id=action_id or new_action_id(),
            time=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            user=os_user(), project=project, verb=verb, item_ids=item_ids, outcome=outcome,
            reason=reason, records=records, undoes=undoes)
        return self.append(entry)

    def lines(self) -> list[LogLine]:
        """Every line, oldest first. Never raises for bad content."""
        try:
            raw = self._raw()
        except OSError as exc:
            return [LogLine(number=0, problem=f"log unreadable ({type(exc).__name__})")]
        out = []
        chunks = raw.split(b"\n")
        torn = bool(raw) and not raw.endswith(b"\n")
        for index, chunk in enumerate(chunks, start=1):
            if not chunk:
                continue
            last = index == len(chunks)
            try:
                entry = ActionEntry.model_validate_json(chunk)
            except (ValidationError, ValueError):
                out.append(LogLine(number=index, problem="torn" if (torn and last) else "unreadable"))
                continue
            out.append(LogLine(number=index, entry=entry))
        return out

    def entries(self) -> list[ActionEntry]:
        return [line.entry for line in self.lines() if line.entry is not None]

    def verify_chain(self) -> ChainReport:
        try:
            raw = self._raw()
        except OSError:
            return ChainReport(ok=False, broken_at=0)
        if not raw:
            return ChainReport(ok=True)
        torn_at = None
        chunks = raw.split(b"\n")
        if not raw.endswith(b"\n"):
            torn_at = len(chunks)
        previous = None
        broken = None
        bad = []
        count = 0
        for number, chunk in enumerate(chunks, start=1):
            if not chunk:
                continue
            count += 1
            try:
                prev = json.loads(chunk).get("prev")
                parsed = True
            except (ValueError, AttributeError):
                prev, parsed = None, False
                if number != torn_at:
                    bad.append(number)
            expected = line_hash(previous) if previous is not None else GENESIS
            # an unreadable line is reported as such; the next line still
            # proves (or not) that these bytes are the ones it chained to
            if broken is None and parsed and prev != expected:
                broken = number
            previous = chunk
        return ChainReport(ok=broken is None and torn_at is None and not bad, lines=count,
                           broken_at=broken, torn_at=torn_at, bad_lines=tuple(bad))

    def last_undoable(self, project: str, verbs: frozenset[str]) -> ActionEntry | None:
        """The newest applied action of `verbs` in `project` that no later
        applied undo already compensated."""
        entries = self.entries()
        undone = {e.undoes for e in entries if e.verb == "undo" and e.undoes and e.outcome == "applied"}
        for entry in reversed(entries):
            if entry.project != project or entry.verb not in verbs:
                continue
            if entry.action_id in undone:
                continue
            if any(r.outcome == "applied" for r in entry.records):
                return entry
        return None
