"""Our own append-only, hash-chained log of every action taken from the app.

One JSON line per action: applied, refused, failed, not-applied, or a
world-check run. Each line carries the SHA-256 of the previous line's bytes, so
an edited or deleted line breaks the chain from that point on; nothing after
the LAST line carries its hash, so a small head file beside the log (written
after every line) anchors it.

It is a write-ahead record: a verb that writes to daimon first appends an
`intent` line (fsynced) naming what it will write, and only then writes; an
outcome line with the same action id follows. An intent without an outcome is
an interrupted write, resolved at the next start (by the next run whose
writer process, named on the intent, is gone). A line that cannot be written
whole, or whose head cannot be written after it (a full disk), is cut back
off and raised as `ActionLogError`: never half a line, and never a line the
head disowns, so the app's own failed write is never read as tampering. An
outcome line refused that way is kept in memory and written before the next
line (`owed`); an action gets one outcome, whoever settles it. The log holds
ids, codes and daimon record references only: never item text, quotes, notes
or evidence (those live in daimon's ledgers, where daimon's forget reaches
them; a copy here would survive a forget).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import getpass
import json
import os
import stat
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from daimon_tui.domain.action_entries import (
    GENESIS,
    ActionEntry,
    ChainReport,
    LoggedRecord,
    LogLine,
    LogOutcome,
    UndoChoice,
    line_hash,
)
from daimon_tui.store import writer_process
from daimon_tui.store.own_files import no_room, read_regular, xdg_dir

LOG_ENV = "DAIMON_TUI_LOG"
HEAD_SUFFIX = ".head"


class ActionLogError(OSError):
    """The log (or its head) could not be written: names the file and the OS error."""

    def __init__(self, path: Path, exc: OSError | str) -> None:
        why = exc if isinstance(exc, str) else (
            f"{exc.strerror or type(exc).__name__}" + (f" (errno {exc.errno})" if exc.errno else ""))
        super().__init__(f"the action log {path} cannot be written: {why}")
        self.path = path


def default_path() -> Path:
    """`$DAIMON_TUI_LOG`, else `$XDG_STATE_HOME/daimon-tui/actions.jsonl`,
    else `~/.local/state/daimon-tui/actions.jsonl`."""
    override = os.environ.get(LOG_ENV)
    if override:
        return Path(override).expanduser()
    base = xdg_dir("XDG_STATE_HOME", Path.home() / ".local" / "state")
    return base / "daimon-tui" / "actions.jsonl"


def os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry and no LOGNAME: still log the action
        return "unknown"


def new_action_id() -> str:
    return "act-" + uuid.uuid4().hex[:12]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _last_complete_line(raw: bytes) -> tuple[bytes, int]:
    """The last newline-terminated line and how many such lines there are (a
    torn tail is not a line yet: it is reported as torn, never anchored)."""
    whole = raw[: raw.rfind(b"\n") + 1] if b"\n" in raw else b""
    lines = [chunk for chunk in whole.split(b"\n") if chunk]
    return (lines[-1] if lines else b""), len(lines)


# Held while this process writes a line and its head: a process that must end
# at once (`quiesce`) waits for the line in progress, never cuts it.
_WRITING = threading.Lock()


def quiesce(timeout: float) -> bool:
    """Wait up to `timeout` for a line being written, then let no other line
    start (for a process about to end at once); False if one was still
    being written."""
    return _WRITING.acquire(timeout=timeout)


def _os_error_text(exc: OSError) -> str:
    return f"{exc.strerror or type(exc).__name__}" + (f" (errno {exc.errno})" if exc.errno else "")


class ActionLog:
    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        # injectable so a full disk (ENOSPC, a short write) can be simulated
        self._write: Callable[[int, bytes], int] = os.write
        # outcome lines a full disk refused: written first by the next append
        self.owed: list[ActionEntry] = []

    @property
    def head_path(self) -> Path:
        return self.path.with_name(self.path.name + HEAD_SUFFIX)

    def _open(self) -> int:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # O_NONBLOCK: a FIFO put in the log's place must not hang the app
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK, 0o600)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ActionLogError(self.path, "it is not a regular file")
        return fd

    @contextlib.contextmanager
    def _locked(self) -> Iterator[int]:
        try:
            fd = self._open()
        except ActionLogError:
            raise
        except OSError as exc:
            raise ActionLogError(self.path, exc) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def _raw(self) -> bytes:
        """The log's bytes; a FIFO or device in its place is an error, never a hang."""
        try:
            return read_regular(self.path)
        except FileNotFoundError:
            return b""

    def probe(self) -> str | None:
        """Why a line could not be appended now (file and OS error), or None.
        Asked before a preview offers `y`: a verb whose intent cannot be
        logged is refused before the person confirms it: one whose file
        cannot be opened (read-only) or whose disk is full."""
        try:
            with self._locked():
                self._refuse_unanchored_tail(self._raw())
        except ActionLogError as exc:
            return str(exc)
        except OSError as exc:
            return str(ActionLogError(self.path, exc))
        full = no_room(self.path.parent)  # the open and the lock write nothing: a full disk passes them
        return str(ActionLogError(self.path, full)) if full else None

    def _refuse_unanchored_tail(self, raw: bytes) -> None:
        """Appending re-anchors the head, which would bury a forged or
        removed last line: refuse instead, and keep it detectable. A missing
        head is adopted (a log from before heads); one line past the head is
        what a kill between a line and its head leaves, and is anchored."""
        if not self.head_path.exists():
            return
        problem, unanchored = self._head_problem(raw)
        if problem and not unanchored:
            raise ActionLogError(self.path, f"{problem}; move the log and its .head file aside to start a new one")

    def _write_all(self, fd: int, data: bytes) -> None:
        """Every byte or none: a short write or an error cuts the file back
        to where it was, so a full disk never leaves a torn line."""
        size = os.fstat(fd).st_size
        try:
            done = 0
            while done < len(data):
                written = self._write(fd, data[done:])
                if written <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                done += written
            os.fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)
                os.fsync(fd)
            raise ActionLogError(self.path, exc) from exc

    def _write_head(self, last: bytes, count: int) -> None:
        body = json.dumps({"lines": count, "hash": line_hash(last)}).encode() + b"\n"
        tmp = self.head_path.with_name(self.head_path.name + ".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                done = 0
                while done < len(body):  # a short write on a full disk is not a head
                    written = os.write(fd, body[done:])
                    if written <= 0:
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                    done += written
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.head_path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise ActionLogError(self.head_path, exc) from exc

    def _append_locked(self, fd: int, entry: ActionEntry) -> ActionEntry:
        try:
            raw = self._raw()
        except OSError as exc:
            raise ActionLogError(self.path, exc) from exc
        self._refuse_unanchored_tail(raw)
        prefix = b""
        if raw and not raw.endswith(b"\n"):
            prefix = b"\n"
        last = raw.rstrip(b"\n").rsplit(b"\n", 1)[-1] if raw.strip() else b""
        chained = entry.model_copy(update={"prev": line_hash(last) if last else GENESIS})
        line = chained.model_dump_json().encode("utf-8")
        self._write_all(fd, prefix + line + b"\n")
        _, count = _last_complete_line(raw + prefix + line + b"\n")
        try:
            self._write_head(line, count)
        except ActionLogError:
            # The line is in, its head is not (a full disk): cut the line back
            # off, so the log ends where its head says and nothing reads as
            # forged once space returns; the caller is told nothing was logged.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, len(raw))
                os.fsync(fd)
            raise
        return chained

    def _outcome_of(self, raw: bytes, action_id: str) -> ActionEntry | None:
        from pydantic import ValidationError  # here: the app's first frame imports no pydantic

        """The outcome line already logged for `action_id`, if any."""
        needle = action_id.encode()
        if needle not in raw:
            return None
        for chunk in raw.split(b"\n"):
            if needle in chunk:
                with contextlib.suppress(ValidationError, ValueError):
                    entry = ActionEntry.model_validate_json(chunk)
                    if entry.action_id == action_id and entry.outcome != "intent":
                        return entry
        return None

    def append(self, entry: ActionEntry, *, once: bool = False) -> ActionEntry:
        """Append under an exclusive lock, chained to the last line, fsync'd,
        then anchor the head. A torn tail is closed with a newline first and
        chained like any line, so the chain still proves everything after it.
        Outcome lines owed from a full disk go first. `once`: an outcome for
        an action that already has one is not written; that one is returned.
        Raises `ActionLogError` when the line is not durably in the log."""
        with _WRITING, self._locked() as fd:
            while self.owed:
                owed = self.owed[0]
                if self._outcome_of(self._raw(), owed.action_id) is None:
                    self._append_locked(fd, owed)
                self.owed.pop(0)
            if once:
                existing = self._outcome_of(self._raw(), entry.action_id)
                if existing is not None:
                    return existing
            return self._append_locked(fd, entry)

    def record(self, *, project: str, verb: str, outcome: LogOutcome, item_ids: tuple[str, ...] = (),
               reason: str = "", records: tuple[LoggedRecord, ...] = (), undoes: str | None = None,
               action_id: str | None = None) -> ActionEntry:
        return self.append(self._entry(project=project, verb=verb, outcome=outcome, item_ids=item_ids,
                                       reason=reason, records=records, undoes=undoes, action_id=action_id))

    @staticmethod
    def _entry(*, project: str, verb: str, outcome: LogOutcome, item_ids: tuple[str, ...] = (), reason: str = "",
               records: tuple[LoggedRecord, ...] = (), undoes: str | None = None, action_id: str | None = None,
               writer: str | None = None) -> ActionEntry:
        return ActionEntry(action_id=action_id or new_action_id(), time=_now(), user=os_user(), project=project,
                           verb=verb, item_ids=item_ids, outcome=outcome, reason=reason, records=records,
                           undoes=undoes, writer=writer)

    # ---- write-ahead: intent, then outcome ------------------------------------------

    def intend(self, *, project: str, verb: str, item_ids: tuple[str, ...],
               planned: tuple[LoggedRecord, ...] = (), undoes: str | None = None) -> ActionEntry:
        """The intent line, durable BEFORE daimon is written. Its records are
        the planned writes (outcome `intent`); raises `ActionLogError` when it
        cannot be written, and then nothing may be written to daimon."""
        planned = tuple(r.model_copy(update={"outcome": "intent"}) for r in planned)
        return self.append(self._entry(project=project, verb=verb, outcome="intent", item_ids=item_ids,
                                       records=planned, undoes=undoes, writer=writer_process.me()))

    def settle(self, intent: ActionEntry, outcome: LogOutcome, *, reason: str = "",
               records: tuple[LoggedRecord, ...] = (), item_ids: tuple[str, ...] | None = None) -> ActionEntry:
        """The outcome line for `intent` (same action id), written once: an
        action someone else already settled keeps that outcome (returned).
        When a full disk refuses the line, it is owed: the next append writes
        it first (and this raises `ActionLogError`). Only an applied line names
        the action it undoes: a refused or failed undo is a refusal."""
        entry = self._entry(project=intent.project, verb=intent.verb, outcome=outcome,
                            item_ids=intent.item_ids if item_ids is None else item_ids, reason=reason,
                            records=records, undoes=intent.undoes if outcome == "applied" else None,
                            action_id=intent.action_id)
        try:
            return self.append(entry, once=True)
        except ActionLogError:
            if all(owed.action_id != entry.action_id for owed in self.owed):
                self.owed.append(entry)
            raise

    def pending(self, project: str | None = None) -> list[ActionEntry]:
        """Intents with no outcome line: writes interrupted before they were settled."""
        return [e for e in self.entries() if e.outcome == "intent" and (project is None or e.project == project)]

    def head_check(self) -> str | None:
        """Why the log's last line is not the one its head file anchors
        (a forged, added or removed last line), or None when they agree."""
        try:
            raw = self._raw()
        except OSError as exc:
            return f"the action log {self.path} cannot be read: {_os_error_text(exc)}"
        return self._head_problem(raw)[0]

    def _head_problem(self, raw: bytes) -> tuple[str | None, bool]:
        """(problem, unanchored): `unanchored` when the one line past the head
        chains to it, which is what a kill between the line and its head leaves."""
        last, count = _last_complete_line(raw)
        try:
            head = json.loads(self.head_path.read_bytes())
        except FileNotFoundError:
            return (None if count == 0 else f"the log's head file {self.head_path} is missing"), False
        except (OSError, ValueError) as exc:
            why = _os_error_text(exc) if isinstance(exc, OSError) else "not JSON"
            return f"the log's head file {self.head_path} cannot be read: {why}", False
        if not isinstance(head, dict):
            return f"the log's head file {self.head_path} is not a head record", False
        if head.get("lines") == count and head.get("hash") == (line_hash(last) if last else None):
            return None, False
        try:
            chained_to_head = head.get("lines") == count - 1 and json.loads(last).get("prev") == head.get("hash")
        except (ValueError, AttributeError):
            chained_to_head = False
        if chained_to_head:
            return ("the log's last line was written but never anchored in its head file (an interrupted "
                    "write, or an added line); the next logged action anchors it"), True
        return (f"the log's last line is not the one its head file anchors (head: {head.get('lines')} line(s), "
                f"log: {count}): a line was forged, added or removed"), False

    def lines(self) -> list[LogLine]:
        """Every line, oldest first. Never raises for bad content."""
        from pydantic import ValidationError  # here: the app's first frame imports no pydantic

        try:
            raw = self._raw()
        except OSError as exc:
            return [LogLine(number=0, problem=f"the action log {self.path} cannot be read: {_os_error_text(exc)}")]
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
        """One entry per action: its outcome line, or its intent while it has
        none (an interrupted write). `lines()` keeps every line."""
        parsed = [line.entry for line in self.lines() if line.entry is not None]
        settled = {e.action_id for e in parsed if e.outcome != "intent"}
        return [e for e in parsed if e.outcome != "intent" or e.action_id not in settled]

    def verify_chain(self) -> ChainReport:
        try:
            raw = self._raw()
        except OSError as exc:  # not a broken chain: a log we cannot open, named
            return ChainReport(ok=False, unreadable=f"the action log {self.path} cannot be read: "
                                                    f"{_os_error_text(exc)}")
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
        head, unanchored = self._head_problem(raw)
        return ChainReport(ok=broken is None and torn_at is None and not bad and head is None, lines=count,
                           broken_at=broken, torn_at=torn_at, bad_lines=tuple(bad), head_problem=head,
                           unanchored=unanchored)

    def undo_choice(self, project: str, verbs: frozenset[str], ops: frozenset[str]) -> UndoChoice:
        """The newest applied action of `verbs` in `project` that holds an
        applied record of `ops` and that no later applied undo compensated,
        with the newer applied actions that cannot be undone (they stand in
        between, and the preview must name them)."""
        entries = [e for e in self.entries() if e.project == project]
        undone = {e.undoes for e in entries if e.verb == "undo" and e.undoes and e.outcome == "applied"}
        skipped: list[ActionEntry] = []
        for entry in reversed(entries):
            if entry.verb == "undo" or entry.outcome != "applied" or entry.action_id in undone:
                continue
            undoable = entry.verb in verbs and any(r.outcome == "applied" and r.op in ops for r in entry.records)
            if undoable:
                return UndoChoice(entry=entry, skipped=tuple(skipped))
            skipped.append(entry)
        return UndoChoice(skipped=tuple(skipped))

    def find(self, action_id: str) -> ActionEntry | None:
        return next((e for e in self.entries() if e.action_id == action_id), None)

    def undone_by(self, action_id: str) -> str | None:
        """The applied undo that compensated `action_id`, if any."""
        return next((e.action_id for e in self.entries()
                     if e.verb == "undo" and e.undoes == action_id and e.outcome == "applied"), None)
