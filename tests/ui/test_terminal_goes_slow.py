"""The terminal goes away at any moment (issue 43), as a person's would: the
real app (`python -m daimon_tui.cli`) runs in a tmux pane, and the tmux
server is killed (the pty closes, the pane's processes get SIGHUP) at one
of `MOMENTS`. 5 s later no process of the app or of its judging child is
left; after all moments, the next start leaves no unsettled intent in the
action log, the log's chain holds, and every line of daimon's ledgers parses.

Run on the demo store (every moment), a generated heavy store and a store of
large transcripts (`EXTRA_MOMENTS` there, to keep the slow pass within its
minutes; `DAIMON_TUI_HANGUP_ALL=1` runs every moment on every store).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from tests.ui.pty_run import ROOT, left_after, tagged_pids

# 20 starts of the app, each waited out to its end: far past the default 120 s on a loaded machine
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900),
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

PAINTED = "Briefing ·"
Step = tuple[str, object]

# (name, steps): keys pressed, screen text or action-log lines waited for;
# the terminal goes right after the last step.
MOMENTS: list[tuple[str, list[Step]]] = [
    ("at-start", []),
    ("importing", [("sleep", 0.4)]),
    ("before-first-paint", [("sleep", 1.0)]),
    ("first-paint-confirming", [("screen", PAINTED)]),
    ("just-after-paint", [("screen", PAINTED), ("sleep", 0.3)]),
    ("settled", [("screen", PAINTED), ("sleep", 2.0)]),
    ("cursor-read", [("screen", PAINTED), ("key", "j")]),
    ("o-reads-evidence", [("screen", PAINTED), ("key", "o")]),
    ("o-item-view", [("screen", PAINTED), ("key", "o"), ("sleep", 0.4)]),
    ("O-reads-transcript", [("screen", PAINTED), ("key", "O")]),
    ("O-in-pager", [("screen", PAINTED), ("key", "O"), ("sleep", 1.5)]),
    ("verb-modal", [("screen", PAINTED), ("key", "r"), ("screen", "enter continue")]),
    ("verb-preview", [("screen", PAINTED), ("key", "r"), ("screen", "enter continue"), ("key", "Enter"),
                      ("screen", "y confirm")]),
    ("y-pressed", [("screen", PAINTED), ("key", "r"), ("screen", "enter continue"), ("key", "Enter"),
                   ("screen", "y confirm"), ("sleep", 0.5), ("key", "y")]),
    ("after-intent", [("screen", PAINTED), ("key", "r"), ("screen", "enter continue"), ("key", "Enter"),
                      ("screen", "y confirm"), ("sleep", 0.5), ("key", "y"), ("log", "intent")]),
    ("after-outcome", [("screen", PAINTED), ("key", "r"), ("screen", "enter continue"), ("key", "Enter"),
                       ("screen", "y confirm"), ("sleep", 0.5), ("key", "y"), ("log", "outcome")]),
    ("help", [("screen", PAINTED), ("key", "?"), ("sleep", 0.3)]),
    ("history-loading", [("screen", PAINTED), ("key", "2")]),
    ("audit-loading", [("screen", PAINTED), ("key", "4"), ("sleep", 0.2)]),
    ("quitting", [("screen", PAINTED), ("key", "q")]),
]
EXTRA_MOMENTS = ("first-paint-confirming", "o-reads-evidence", "O-in-pager", "verb-preview", "after-intent")
LEFT_WAIT_S = 5.0
STEP_WAIT_S = 60.0


@dataclass
class Store:
    root: Path  # everything of the store's (and its action log) lives under it
    project: str
    env: dict[str, str]

    @property
    def log(self) -> ActionLog:
        return ActionLog(Path(self.env["DAIMON_TUI_LOG"]))


class Pane:
    """The app in a tmux pane of its own server (a unique socket: xdist-safe)."""

    def __init__(self, store: Store, tag: str, *, under_shell: bool) -> None:
        self.socket = f"dtui-hangup-{uuid.uuid4().hex[:12]}"
        env = {**store.env, "DAIMON_TUI_TEST_TAG": tag}
        exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.items() if k.isidentifier())
        app = f"{shlex.quote(sys.executable)} -m daimon_tui.cli --project {shlex.quote(store.project)}"
        # a shell leads the pane (as a terminal window's does), or the app itself does
        script = store.root / f"run-{tag}.sh"
        script.write_text(f"{exports}{app}\nexit $?\n" if under_shell else f"{exports}exec {app}\n")
        self.tmux("new-session", "-d", "-s", "app", "-x", "140", "-y", "40", f"sh {shlex.quote(str(script))}")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True,
                              text=True, timeout=30, check=False)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app")

    def key(self, key: str) -> None:
        self.tmux("send-keys", "-t", "app", *(["-l", key] if len(key) == 1 else [key]))

    def close(self) -> None:
        """The terminal goes: the server, its panes and their ptys with it."""
        self.tmux("kill-server")


def until(what: Callable[[], bool], seconds: float = STEP_WAIT_S) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(0.02)
    return False


def logged(log: ActionLog, kind: str, before: int) -> bool:
    # every line, not `entries()`: that folds an intent into its outcome, so a
    # write that settles between two polls would never show its intent
    entries = [line.entry for line in log.lines()[before:] if line.entry is not None]
    return any((e.outcome == "intent") == (kind == "intent") and e.verb == "resolve" for e in entries)


def since(log: ActionLog, before: int) -> str:
    """The log's lines since the trial began (ids and outcomes), for a failure's message."""
    return "\n".join(f"{line.entry.verb} {line.entry.outcome} {line.entry.action_id}" if line.entry
                     else f"line {line.number}: {line.problem}" for line in log.lines()[before:])


def trial(store: Store, name: str, steps: list[Step], *, under_shell: bool) -> None:
    tag = uuid.uuid4().hex
    before = len(store.log.lines())
    pane = Pane(store, tag, under_shell=under_shell)
    try:
        for kind, what in steps:
            if kind == "sleep":
                time.sleep(float(what))  # type: ignore[arg-type]
            elif kind == "key":
                pane.key(str(what))
            elif kind == "screen":
                assert until(lambda w=str(what): w in pane.screen()), f"{name}: never showed {what!r}\n{pane.screen()}"
            elif kind == "log":
                assert until(lambda w=str(what): logged(store.log, w, before)), (
                    f"{name}: no {what} line\n{pane.screen()}\n{since(store.log, before)}")
        pane.close()
        left = left_after(tag, LEFT_WAIT_S)
        assert left == [], f"{name}: {len(left)} process(es) of the app left 5 s after its terminal went"
    finally:
        pane.close()
        for pid in tagged_pids(tag):
            with contextlib.suppress(OSError):
                os.kill(pid, 9)


def next_start_settles(store: Store) -> None:
    """A later start settles every intent a killed run left, the log's chain
    holds, and every line of daimon's ledgers (every JSONL under the store) parses."""
    tag = uuid.uuid4().hex
    pane = Pane(store, tag, under_shell=False)
    try:
        assert until(lambda: PAINTED in pane.screen()), pane.screen()
        assert until(lambda: store.log.pending() == [], 60), [e.action_id for e in store.log.pending()]
        pane.key("q")
        until(lambda: not tagged_pids(tag), 10)
    finally:
        pane.close()
    assert store.log.verify_chain().ok, store.log.verify_chain().message
    for ledger in store.root.rglob("*.jsonl"):
        for number, line in enumerate(ledger.read_bytes().splitlines(), 1):
            if line.strip():
                try:
                    json.loads(line)
                except ValueError as error:
                    raise AssertionError(f"{ledger}:{number} does not parse") from error


def run_moments(store: Store, names: tuple[str, ...] | None = None) -> None:
    if os.environ.get("DAIMON_TUI_HANGUP_ALL"):
        names = None
    chosen = [(n, s) for n, s in MOMENTS if names is None or n in names]
    for number, (name, steps) in enumerate(chosen):
        trial(store, name, steps, under_shell=number % 2 == 0)
    next_start_settles(store)


def _own_env(root: Path) -> dict[str, str]:
    """Our own files (action log, settings, cache) under the store's root; a pager that shows and waits."""
    return {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PAGER": "less",
            "DAIMON_TUI_LOG": str(root / "state" / "actions.jsonl"), "XDG_STATE_HOME": str(root / "state"),
            "DAIMON_TUI_CONFIG": str(root / "config.toml"), "DAIMON_TUI_CACHE": str(root / "cache")}


@contextlib.contextmanager
def demo_like(root: Path, *, transcript_turns: dict[str, tuple] | None = None) -> Iterator[Store]:
    from tests.transcript_store import transcript_store

    with transcript_store(root, transcript_turns) as st:
        demo.tamper(st.checkpoint_dir, "S-day2")
        yield Store(root, str(st.project), {**judge_service.child_env(), **_own_env(root)})


def test_the_terminal_goes_at_20_moments_on_the_demo_store(sandbox_root: Path) -> None:
    with demo_like(sandbox_root) as store:
        run_moments(store)


def test_the_terminal_goes_on_a_store_of_large_transcripts(sandbox_root: Path) -> None:
    from daimon_tui.store.demo import transcripts as demo_transcripts

    # Each demo session's turns, then ~12 MB more said after them.
    filler = ("assistant", "Working through the upload retry logs, line by line. " * 40)
    turns = {sid: (*said, *(filler,) * 6000) for sid, said in demo_transcripts.DEMO_TURNS.items()}
    with demo_like(sandbox_root, transcript_turns=turns) as store:
        run_moments(store, EXTRA_MOMENTS)


def test_the_terminal_goes_on_a_heavy_store(sandbox_root: Path) -> None:
    from tests.store.test_reader_compat import BENCHMARKS

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import generate_store
        import manifest
    finally:
        sys.path.remove(str(BENCHMARKS))
    made = generate_store.generate(sandbox_root / "heavy", projects=3, sessions=30, items=60, events=30_000,
                                   log=False)
    env = {**manifest.child_env(made), **_own_env(sandbox_root)}
    run_moments(Store(sandbox_root, made["main_project"], env), EXTRA_MOMENTS)
