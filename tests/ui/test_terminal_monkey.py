"""The monkey in a real terminal: the installed entry point on the demo store,
in tmux at 80x24, fed seeded random keys from the app's own key set (every
key the action registry and the screens bind, plus the keys everyone
presses). The app must still be running after every key, with no traceback
on its screen. The Pilot monkey (test_monkey.py) runs in-process; this one
meets what only a terminal has: key timing, suspends, a real event loop."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.action_specs import ACTIONS

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SEEDS = (1, 2, 3)
PRESSES = 400
PACE_S = 0.06  # between keys: faster than a person, slow enough that ESC is not read as alt+key
CHECK_EVERY = 5
# The legitimate ways out: a monkey never presses them (`q` only where it goes back).
QUITTING = frozenset({"ctrl+q", "ctrl+c"})
BRIEFING_FOOTER = "q quit"  # the briefing's footer: there `q` quits, as it should
PALETTE_KEYS = frozenset({"colon", "ctrl+p"})  # the palette holds Quit: it is only opened and closed
# Textual key names as tmux's send-keys names them.
TMUX_NAMES = {
    "escape": "Escape", "enter": "Enter", "tab": "Tab", "shift+tab": "BTab", "space": "Space",
    "backspace": "BSpace", "up": "Up", "down": "Down", "left": "Left", "right": "Right", "home": "Home",
    "end": "End", "pageup": "PPage", "pagedown": "NPage", "question_mark": "?", "colon": ":", "slash": "/",
}
EVERYONE = ("escape", "enter", "tab", "shift+tab", "space", "backspace", *"1234567", "j", "k", "slash",
            "question_mark", "colon", "ctrl+p", "z")
TYPED = (*"abxy3-", "backspace")
TRACEBACK_SIGNS = ("Traceback (most recent call last)", "ScreenStackError", "NoScreen")


def bound_keys() -> list[str]:
    """Every key bound in the action registry or on a screen or widget class of the app."""
    keys = {key for action in ACTIONS for key in action.keys.split(",")}
    ui = importlib.import_module("daimon_tui.ui")
    for module_info in pkgutil.walk_packages(ui.__path__, "daimon_tui.ui."):  # every view's folder too
        module = importlib.import_module(module_info.name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                for binding in cls.__dict__.get("BINDINGS", []):
                    key = binding.key if hasattr(binding, "key") else binding[0]
                    keys.update(k.strip() for k in key.split(","))
    return sorted(keys - QUITTING)


def tmux_keys(key: str) -> list[str]:
    if key in TMUX_NAMES:
        return [TMUX_NAMES[key]]
    if key.startswith("ctrl+"):
        return [f"C-{key.removeprefix('ctrl+')}"]
    assert len(key) == 1, f"no tmux name for {key!r}"
    return ["-l", "--", key]


class Terminal:
    """One tmux server of its own (its own socket), one session, one pane: the app."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        self.socket = socket
        self.env = env

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", str(self.socket), *args], env=self.env, check=True,
                              capture_output=True, text=True, timeout=30).stdout

    def start(self, config: Path, argv: list[str]) -> None:
        config.write_text("set -g remain-on-exit on\nset -g history-limit 5000\n")
        self.tmux("-f", str(config), "new-session", "-d", "-s", "app", "-x", "80", "-y", "24",
                  " ".join(argv))

    def send(self, key: str) -> None:
        self.tmux("send-keys", "-t", "app", *tmux_keys(key))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app", "-S", "-200")

    def dead(self) -> bool:
        return self.tmux("display", "-p", "-t", "app", "#{pane_dead}").strip() == "1"

    def status(self) -> str:
        """The app's exit status once its pane is dead."""
        return self.tmux("display", "-p", "-t", "app", "#{pane_dead_status}").strip()

    def respawn(self, argv: list[str]) -> None:
        self.tmux("respawn-pane", "-k", "-t", "app", shlex.join(argv))

    def close(self) -> None:
        subprocess.run(["tmux", "-S", str(self.socket), "kill-server"], env=self.env, check=False,
                       capture_output=True, timeout=30)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    env = {**os.environ, "TMPDIR": str(tmp_path), "PAGER": "true", "EDITOR": "true",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    env.pop("TMUX", None)  # a tmux of its own, never the one the tests may run in
    sockets = Path(tempfile.mkdtemp(prefix="dtui-tmux-"))  # short: a socket's path has a length limit
    term = Terminal(sockets / "monkey", env)
    try:
        yield term
    finally:
        # Killing the server ends the app (SIGHUP), which removes the demo store.
        term.close()
        shutil.rmtree(sockets, ignore_errors=True)


def wait_for(term: Terminal, text: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    shown = ""
    while time.monotonic() < deadline:
        shown = term.screen()
        if text in shown or term.dead():
            return shown
        time.sleep(0.3)
    return shown


def on_briefing(term: Terminal, seen: list[str]) -> bool:
    """Whether the briefing's footer shows, once the screen has stopped
    changing (the keys before may still be landing): there `q` quits."""
    before = term.screen()
    for _ in range(20):
        time.sleep(0.2)
        now = term.screen()
        if now == before:
            break
        before = now
    seen[:] = [before]
    lines = before.rstrip("\n").splitlines()
    return not lines or BRIEFING_FOOTER in lines[-1]


def check_alive(term: Terminal, seed: int, done: list[str], before_q: list[str]) -> None:
    shown = term.screen()
    where = f"seed {seed}, after {len(done)} keys, the last ones {done[-12:]}:\n{shown}"
    if "q" in done[-CHECK_EVERY - 2:] and before_q:
        where += f"\nbefore the last q:\n{before_q[0]}"
    assert not term.dead(), f"the app ended: {where}"
    assert not any(sign in shown for sign in TRACEBACK_SIGNS), f"a traceback on screen: {where}"


# Keys before the last check in which a `q` may still be ending the app.
QUIT_WINDOW = 4 * CHECK_EVERY


def quit_or_alive(term: Terminal, seed: int, done: list[str], before_q: list[str], checked: int,
                  argv: list[str]) -> int:
    """`check_alive`, but a clean quit (status 0) after a `q` sent lately is the
    briefing's own `q` (the quit takes a moment, so a check may still have seen
    the app): the screen capture that let that `q` through can lag the keys
    still landing (an Esc back to the briefing on a loaded machine). Such a
    quit is let be and the app opened again; any other end fails."""
    if term.dead() and term.status() == "0" and "q" in done[max(0, checked - QUIT_WINDOW):]:
        shown = term.screen()
        assert not any(sign in shown for sign in TRACEBACK_SIGNS), f"a traceback on screen: {shown}"
        term.respawn(argv)
        opened = wait_for(term, "Briefing ·", 120)
        assert "Briefing ·" in opened and not term.dead(), f"seed {seed}: the demo never opened again:\n{opened}"
    else:
        check_alive(term, seed, done, before_q)
    return len(done)


@pytest.mark.slow
@pytest.mark.timeout(300)  # ~40 s of keys and checks, ~10 s to start, a loaded machine
@pytest.mark.parametrize("seed", SEEDS)
def test_random_keys_in_a_real_terminal_never_end_the_app(terminal: Terminal, tmp_path: Path, seed: int) -> None:
    argv = [sys.executable, "-m", "daimon_tui.cli", "--demo"]
    terminal.start(tmp_path / "tmux.conf", argv)
    shown = wait_for(terminal, "Briefing ·", 120)
    assert "Briefing ·" in shown and not terminal.dead(), f"the demo never opened:\n{shown}"
    rng = random.Random(seed)
    keys = bound_keys()
    pool = [*keys, *EVERYONE, *EVERYONE, *TYPED]
    done: list[str] = []
    before_q: list[str] = []
    checked = 0  # keys sent before the last check
    for number in range(PRESSES):
        key = rng.choice(pool)
        if key == "q" and on_briefing(terminal, before_q):
            key = "escape"
        terminal.send(key)
        done.append(key)
        time.sleep(PACE_S)
        if key in PALETTE_KEYS:
            time.sleep(0.3)
            terminal.send("escape")
            done.append("escape")
            time.sleep(PACE_S)
        if number % CHECK_EVERY == 0:
            checked = quit_or_alive(terminal, seed, done, before_q, checked, argv)
    time.sleep(1.0)  # the last keys' work lands
    quit_or_alive(terminal, seed, done, before_q, checked, argv)
