"""Spawn to a text on screen in a real terminal: tmux at 120x40, polled.

Each run starts a fresh tmux session (on a tmux server of its own, started once
and kept, so the server's start is never timed) running one command, then
polls `tmux capture-pane -p` until a needle (the first item's text) is on the
screen, and, for our app, until the briefing's "confirming" line has gone too.
The session is then killed (a hangup, as a closed terminal) and the run waits
for its process to end, so the next run does not share the cores with it.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SIZE = (120, 40)
SOCKET = f"bench-floor-{os.getpid()}"
POLL_S = 0.01
TIMEOUT_S = 120.0
CONFIRMING = "confirming with daimon"

# The floor: a Textual app that shows one line, the same needle ours shows.
ONE_LINE_APP = """
import sys
from textual.app import App
from textual.widgets import Static

class One(App):
    def compose(self):
        yield Static(sys.argv[1])

One().run()
"""

# Ours, as the `daimon-tui` console script starts it.
OUR_APP = "import sys; from daimon_tui.cli import main; sys.exit(main())"


@dataclass(frozen=True)
class Seen:
    shown_s: float  # spawn to the needle on screen
    settled_s: float | None  # spawn to the needle on screen with no "confirming" line (ours only)


def _tmux(*args: str, check: bool = True) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=check)
    return done.stdout


def start_server() -> None:
    """A server of our own with one idle session, so each timed session starts on a running server."""
    _tmux("-f", "/dev/null", "new-session", "-d", "-s", "idle", "-x", str(SIZE[0]), "-y", str(SIZE[1]), "sleep 86400")


def stop_server() -> None:
    with contextlib.suppress(subprocess.CalledProcessError):
        _tmux("kill-server")


def _terminal_type() -> str:
    return _tmux("show-options", "-gv", "default-terminal").strip() or "screen"


def _command(argv: list[str], env: dict[str, str]) -> str:
    """`argv` under exactly `env` (and the pane's TERM), whatever the server's own environment holds."""
    pairs = [f"{k}={v}" for k, v in env.items() if k not in ("TERM", "TMUX", "TMUX_PANE")]
    return shlex.join(["env", "-i", *pairs, f"TERM={_terminal_type()}", *argv])


def _pane_pid(name: str) -> int | None:
    out = _tmux("list-panes", "-t", name, "-F", "#{pane_pid}", check=False).strip()
    return int(out) if out.isdigit() else None


def _wait_gone(pid: int | None, limit_s: float = 10.0) -> None:
    if pid is None:
        return
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.02)


def _settle() -> None:
    """Until the processes of the previous run (its judging child too) have left the cores."""
    time.sleep(0.3)


def run_once(name: str, argv: list[str], env: dict[str, str], cwd: str, needle: str, *,
             until_confirmed: bool = False) -> Seen:
    """Spawn `argv` in a new 120x40 tmux session; the times until `needle` is on screen."""
    command = _command(argv, env)
    start = time.perf_counter()
    _tmux("new-session", "-d", "-s", name, "-x", str(SIZE[0]), "-y", str(SIZE[1]), "-c", cwd, command)
    pid = _pane_pid(name)
    shown: float | None = None
    settled: float | None = None
    try:
        while time.perf_counter() - start < TIMEOUT_S:
            screen = _tmux("capture-pane", "-p", "-t", name, check=False)
            now = time.perf_counter() - start
            if needle in screen:
                shown = now if shown is None else shown
                if not until_confirmed or CONFIRMING not in screen:
                    settled = now
                    break
            time.sleep(POLL_S)
        if shown is None:
            screen = _tmux("capture-pane", "-p", "-t", name, check=False)
            raise RuntimeError(f"{needle!r} not on screen after {TIMEOUT_S:.0f} s:\n{screen}")
    finally:
        _tmux("kill-session", "-t", name, check=False)
        _wait_gone(pid)
        _settle()
    return Seen(shown, settled if until_confirmed else None)


def floor_argv(needle: str) -> list[str]:
    return [sys.executable, "-c", ONE_LINE_APP, needle]


def ours_argv() -> list[str]:
    return [sys.executable, "-c", OUR_APP]


def with_tree(env: dict[str, str], tree: Path | None = None) -> dict[str, str]:
    """`tree` (by default the checkout this script is in) wins over the installed package, in the app
    and its judging child."""
    tree = Path(__file__).resolve().parents[1] if tree is None else tree
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH", "")) if p)}
