"""Who wrote an intent, and whether that process still runs.

An intent line names its writer as `pid:start` (the process's start time in
clock ticks since boot, from `/proc/<pid>/stat`): a pid alone is reused, a pid
with its start time is one process. Another instance's start-up recovery
settles only intents whose writer is gone; one still running is writing (or
about to write) daimon, and its own outcome line settles it.
"""

from __future__ import annotations

import contextlib
import os

_ME: str | None = None


def _stat(pid: int) -> list[bytes] | None:
    """`/proc/<pid>/stat` from field 3 (the state) on: after the command's
    closing paren, which may itself hold spaces and parens."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:].split()


def _start_ticks(pid: int) -> str | None:
    """Field 22 of `/proc/<pid>/stat`, or None where it cannot be read."""
    fields = _stat(pid)
    return fields[19].decode() if fields is not None and len(fields) > 19 else None


def me() -> str:
    """This process, as an intent names its writer."""
    global _ME
    if _ME is None:
        _ME = f"{os.getpid()}:{_start_ticks(os.getpid()) or ''}"
    return _ME


def alive(writer: str | None) -> bool:
    """Whether the process that wrote an intent still runs. An intent from
    before writers were named (None), or a name that does not parse, is
    from a writer taken as gone (what every start assumed before)."""
    if not writer:
        return False
    pid_text, _, start = writer.partition(":")
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    if pid <= 0:
        return False
    if pid == os.getpid():
        return writer == me()
    fields = _stat(pid)
    if fields is not None and len(fields) > 19:
        if fields[0] in (b"Z", b"X"):  # exited, not yet reaped (a killed app's parent gone too): writes nothing more
            return False
        return not start or fields[19].decode() == start
    # no /proc: the pid alone (a signal 0 asks only whether it exists)
    with contextlib.suppress(PermissionError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
    return True
