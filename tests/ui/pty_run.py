"""A program on a real terminal (a pty) for the terminal-end tests: its
output drained (or deliberately not), the terminal closed from our side,
and its threads' stacks dumped on SIGUSR1 (`faulthandler`) when it hangs."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class PtyRun:
    """`argv` started on a fresh pty, in a session of its own (the pty is its
    controlling terminal, as in a terminal window). `under_shell`: a shell
    leads the session and runs `argv` as its child, as a terminal window or
    a tmux pane does; a closed terminal then signals the shell alone (the
    kernel's SIGHUP and SIGCONT go to the session leader)."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None, size: tuple[int, int] = (100, 30),
                 under_shell: bool = False) -> None:
        if under_shell:
            # The shell outlives the hangup (a trap, not an ignore: the child
            # keeps the default disposition) to hand on the program's exit code.
            argv = ["/bin/sh", "-c", 'trap : HUP; "$@"; exit $?', "sh", *argv]
        self.under_shell = under_shell
        self.primary, secondary = pty.openpty()
        import fcntl
        import struct
        import termios

        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        full = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT), **(env or {})}
        self.proc = subprocess.Popen(argv, stdin=secondary, stdout=secondary, stderr=secondary, env=full,
                                     close_fds=True, start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(secondary)
        self.out = bytearray()

    @property
    def pid(self) -> int:
        """The program's pid (under a shell: the shell's child)."""
        if not self.under_shell:
            return self.proc.pid
        end = time.monotonic() + 30
        while time.monotonic() < end:
            children = _read(Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")).split()
            if children:
                return int(children[0])
            time.sleep(0.05)
        raise AssertionError("the shell never started the program")

    def signal(self, sig: int) -> None:
        os.kill(self.pid, sig)

    def drain(self, seconds: float, until: Callable[[], bool] | None = None) -> bool:
        """Read what the program writes for up to `seconds`; True once `until` holds."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if until is not None and until():
                return True
            if self.primary >= 0 and select.select([self.primary], [], [], 0.05)[0]:
                try:
                    self.out.extend(os.read(self.primary, 65536))
                except OSError:
                    time.sleep(0.05)
            elif self.primary < 0:
                time.sleep(0.05)
        return until is not None and until()

    def write(self, data: bytes) -> None:
        os.write(self.primary, data)

    def close_terminal(self) -> None:
        """The terminal goes away: our side of the pty closed (a closed
        window, a dropped connection)."""
        if self.primary >= 0:
            os.close(self.primary)
            self.primary = -1

    def wait(self, seconds: float) -> int | None:
        """The exit code, or None if it still runs after `seconds`."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.proc.wait(timeout=seconds)
        return None

    def stacks(self, dump: Path, seconds: float = 5.0) -> str:
        """Every thread's stack of a hung program that registered
        `faulthandler` on SIGUSR1 to write to `dump`."""
        self.signal(signal.SIGUSR1)
        end = time.monotonic() + seconds
        while time.monotonic() < end and "Current thread" not in _read(dump) and "Thread 0x" not in _read(dump):
            time.sleep(0.1)
        time.sleep(0.3)
        return _read(dump)

    def kill(self) -> None:
        if self.proc.poll() is None or self.under_shell:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self.close_terminal()


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def python(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


def tagged_pids(tag: str) -> list[int]:
    """The live processes whose environment carries `DAIMON_TUI_TEST_TAG=tag`
    (the app and every child it started: they inherit it); zombies left out."""
    needle = f"DAIMON_TUI_TEST_TAG={tag}".encode() + b"\0"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def left_after(tag: str, seconds: float) -> list[int]:
    """The tagged processes still alive after waiting up to `seconds` for none."""
    end = time.monotonic() + seconds
    while (alive := tagged_pids(tag)) and time.monotonic() < end:
        time.sleep(0.1)
    return alive
