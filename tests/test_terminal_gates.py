"""What a person meets before the app draws: a dumb terminal, and the demo
store's cleanup when the terminal goes away."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo


def test_a_dumb_terminal_gets_one_line_pointing_to_brief(empty_store: demo.DemoStore, monkeypatch,
                                                         capsys) -> None:
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli.main(["--project", str(empty_store.project)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "TERM=dumb" in err[0] and "daimon-tui brief" in err[0]


def _read_pty(primary: int, proc: subprocess.Popen, seconds: float, until: bytes | None = None) -> bytes:
    """What the app writes to its terminal, until `until` shows (None: until it
    ends) or `seconds` pass; the pty is kept drained so the app never blocks on it."""
    seen = b""
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline and (until is None or until not in seen):
        if select.select([primary], [], [], 0.2)[0]:
            try:
                seen += os.read(primary, 65536)
            except OSError:
                break
    return seen


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_the_demo_store_is_removed_when_the_terminal_goes(tmp_path: Path, sig: signal.Signals) -> None:
    primary, secondary = pty.openpty()
    env = {**os.environ, "TMPDIR": str(tmp_path), "TERM": "xterm-256color",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-m", "daimon_tui.cli", "--demo"], stdin=secondary,
                            stdout=secondary, stderr=secondary, env=env, close_fds=True)
    os.close(secondary)
    try:
        deadline = time.monotonic() + 90
        while not list(tmp_path.glob("daimon-tui-demo-*")) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert list(tmp_path.glob("daimon-tui-demo-*")), "the demo never started"
        # The app is up and drawing (its footer's `? help`), so its handlers are in place:
        # a fixed 3 s was not enough on a loaded machine (the signal came before the app mounted).
        assert b"help" in _read_pty(primary, proc, 90, b"help"), "the app never drew"
        proc.send_signal(sig)
        _read_pty(primary, proc, 30)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
    assert not list(tmp_path.glob("daimon-tui-demo-*"))


def test_esc_on_the_projects_screen_of_a_store_with_no_checkpoint_exits_1(empty_store: demo.DemoStore) -> None:
    """The process's own status, in a real terminal: no checkpoint opens the project
    switcher with nothing under it, and Esc there ends the app with status 1, not 0."""
    primary, secondary = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-m", "daimon_tui.cli", "--project", str(empty_store.project)],
                            stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True)
    os.close(secondary)
    try:
        seen = _read_pty(primary, proc, 60, b"No daimon checkpoint")
        assert b"No daimon checkpoint" in seen, "the project switcher never drew"
        time.sleep(0.5)  # the switcher takes keys
        os.write(primary, b"\x1b")
        _read_pty(primary, proc, 30)
        assert proc.wait(timeout=30) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
