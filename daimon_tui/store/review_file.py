"""The review state's file: one per project, under the app's XDG state
directory, beside the action log. Untrusted input like every file of ours:
one that cannot be read (torn, wrong types, a FIFO, an unknown format) is
named, set aside under a new name for the person to inspect, and the review
starts afresh; nothing is lost and nothing crashes.

Location: `$XDG_STATE_HOME/daimon-tui/reviews/<hash>.json` (else
`~/.local/state/...`); the file name is a hash because a bucket slug spells
the project's path. 0600 in a 0700 folder.
"""

from __future__ import annotations

import errno
import json
import os
import threading
import time
from pathlib import Path

from daimon_tui.domain.review import FORMAT, ReviewState
from daimon_tui.store.own_files import read_regular, write_private_json, xdg_dir

# A review of tens of thousands of rows is a few MB; more is not ours.
MAX_BYTES = 32 * 1024 * 1024


def review_dir() -> Path:
    return xdg_dir("XDG_STATE_HOME", Path.home() / ".local" / "state") / "daimon-tui" / "reviews"


class Unreadable(Exception):
    """The file exists but is not a review state we can trust."""


# A row on disk is `[[text, mark, [badges], state], at]` (format 1, from when `Seen` and `Reviewed` were tuples).
_SEEN = ("text", "mark", "badges", "state")
_REVIEWED = ("seen", "at")


def _named(value: object, names: tuple[str, ...]) -> object:
    """An array as the object of `names`; anything else as it is, for the check to refuse."""
    return dict(zip(names, value, strict=False)) if isinstance(value, list) and len(value) <= len(names) else value


def _row_read(row: object) -> object:
    row = _named(row, _REVIEWED)
    return {**row, "seen": _named(row["seen"], _SEEN)} if isinstance(row, dict) and "seen" in row else row


def _on_disk(state: ReviewState) -> dict:
    dumped = state.model_dump(mode="json")
    dumped["rows"] = {key: [[row["seen"][name] for name in _SEEN], row["at"]] for key, row in dumped["rows"].items()}
    return dumped


def _parse(raw: bytes) -> ReviewState:
    if len(raw) > MAX_BYTES:
        raise Unreadable(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        record = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Unreadable(f"not JSON ({type(exc).__name__})") from exc
    if not isinstance(record, dict):
        raise Unreadable("not a JSON object")
    if record.get("format") != FORMAT:
        raise Unreadable(f"unknown format {str(record.get('format'))[:20]!r}")
    if isinstance(record.get("rows"), dict):
        record = {**record, "rows": {key: _row_read(row) for key, row in record["rows"].items()}}
    from pydantic import ValidationError  # here: validating imports it anyway

    try:
        return ReviewState.model_validate(record)
    except ValidationError as exc:
        raise Unreadable(f"unexpected content ({exc.error_count()} problem(s))") from exc


def peek(path: Path) -> tuple[ReviewState | None, str | None]:
    """Read without changing anything (the headless report): the state, or
    None and why (None, None: there is none yet)."""
    try:
        return _parse(read_regular(path)), None
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"the review state {path} cannot be read: {exc.strerror or type(exc).__name__}"
    except Unreadable as exc:
        return None, f"the review state {path} is unreadable: {exc}"


def load(path: Path) -> tuple[ReviewState, str | None]:
    """The state, or a fresh one and a message naming the file and where it was set aside."""
    state, problem = peek(path)
    if state is not None:
        return state, None
    if problem is None:
        return ReviewState(), None
    aside = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, aside)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return ReviewState(), None
        return ReviewState(), f"{problem}; it could not be set aside ({exc.strerror}): a fresh review starts"
    return ReviewState(), f"{problem}; set aside as {aside.name}: a fresh review starts"


class StateWriter:
    """Writes states in order from any thread: a slower, older write never
    lands over a newer one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._written = -1

    def write(self, state: ReviewState, sequence: int) -> bool:
        with self._lock:
            if sequence <= self._written:
                return True
            ok = write_private_json(self.path, _on_disk(state), prefix=".review-")
            if ok:
                self._written = sequence
            return ok
