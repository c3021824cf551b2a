"""However the terminal ends, the app ends (issue 43, `ui/terminal_end.py`):
on a real terminal (a pty), a hangup, a kill, a closed terminal that sends
no signal and a failed write each end the process within 2 s, with an exit
code that says why; a stuck end is ended by the watchdog."""

from __future__ import annotations

import signal
import time
import uuid
from pathlib import Path

from daimon_tui.ui import terminal_end
from tests.ui.pty_run import PtyRun, left_after, python

# A plain Textual app with the workaround installed, as the app installs it.
# `mode`: "stuck" blocks its writer for good (the pinned Textual hang),
# "write-fails" makes a write to the terminal raise, "stuck-end" never
# finishes its own end (the watchdog's case), "idle" does nothing.
APP = """
import faulthandler, signal, sys, time
from pathlib import Path
from textual.app import App
from textual.widgets import Static
from daimon_tui.ui import terminal_end

marks, mode = Path(sys.argv[1]), sys.argv[2]
faulthandler.register(signal.SIGUSR1, file=open(marks / "stacks.txt", "w"), all_threads=True)

class Tiny(App):
    def compose(self):
        yield Static("tiny")

    def on_mount(self):
        terminal_end.install(self)
        self.set_timer(0.3, self.ready)

    def ready(self):
        if mode == "stuck":
            self._driver.write("x" * 4_000_000)
            for _ in range(40):
                self._driver.write("\\x1b[0m")
        elif mode == "write-fails":
            self._driver._writer_thread._queue.put(b"not text")  # its write raises
        (marks / "ready").write_text("")

    def on_unmount(self):
        if mode == "stuck-end":
            time.sleep(60)

app = Tiny()
app.run()
sys.exit(terminal_end.exit_code(app.return_code or 0))
"""


def start(tmp_path: Path, mode: str, *, under_shell: bool = True) -> PtyRun:
    run = PtyRun(python(APP, str(tmp_path), mode), under_shell=under_shell)
    assert run.drain(60, until=lambda: (tmp_path / "ready").exists()), run.out[-2000:]
    return run


def ended_within(run: PtyRun, seconds: float, *, drain: bool = False) -> tuple[int | None, float]:
    began = time.monotonic()
    if drain:
        run.drain(seconds, until=lambda: run.proc.poll() is not None)
    code = run.wait(seconds if not drain else 0.5)
    return code, time.monotonic() - began


def test_a_hangup_ends_the_app_even_with_its_writer_stuck(tmp_path: Path) -> None:
    run = start(tmp_path, "stuck")
    try:
        time.sleep(0.5)  # the writer is stuck and the queue full: Textual alone hangs here
        run.signal(signal.SIGHUP)
        code, took = ended_within(run, 5.0)
        assert code == terminal_end.HANGUP, (code, run.stacks(tmp_path / "stacks.txt") if code is None else "")
        assert took < 2.0
    finally:
        run.kill()


def test_a_closed_terminal_that_sends_no_signal_ends_the_app(tmp_path: Path) -> None:
    # Under a shell, the kernel's SIGHUP goes to the shell alone: the app sees
    # only its terminal's hangup.
    run = start(tmp_path, "idle")
    try:
        run.close_terminal()
        code, took = ended_within(run, 5.0)
        assert code == terminal_end.LOST and took < 2.0, (code, took)
    finally:
        run.kill()


def test_a_failed_write_ends_the_app(tmp_path: Path) -> None:
    run = start(tmp_path, "write-fails")
    try:
        code, took = ended_within(run, 5.0, drain=True)
        assert code == terminal_end.LOST and took < 2.0, (code, took)
    finally:
        run.kill()


def test_a_kill_with_the_terminal_still_there_restores_it(tmp_path: Path) -> None:
    run = start(tmp_path, "idle", under_shell=False)
    try:
        seen = len(run.out)
        run.proc.send_signal(signal.SIGTERM)
        code, took = ended_within(run, 5.0, drain=True)
        assert code == terminal_end.TERMINATED and took < 2.0, (code, took)
        assert b"\x1b[?1049l" in bytes(run.out[seen:])  # it left the app's screen
    finally:
        run.kill()


def test_an_end_that_does_not_finish_is_ended_by_the_watchdog(tmp_path: Path) -> None:
    run = start(tmp_path, "stuck-end")
    try:
        run.signal(signal.SIGHUP)
        code, took = ended_within(run, 5.0, drain=True)
        assert code == terminal_end.WATCHDOG and took < 2.5, (code, took)
    finally:
        run.kill()


def test_the_real_app_and_its_child_are_gone_2_s_after_the_terminal(tmp_path: Path) -> None:
    """The console entry on the demo store: its terminal closes (no signal to
    the app) once it has drawn; nothing of it is left, its store removed."""
    tag = uuid.uuid4().hex
    run = PtyRun(python("from daimon_tui.cli import main; raise SystemExit(main())", "--demo"),
                 env={"TMPDIR": str(tmp_path), "DAIMON_TUI_TEST_TAG": tag}, under_shell=True)
    try:
        assert run.drain(90, until=lambda: b"S-day" in run.out or b"demo store" in run.out), run.out[-2000:]
        run.drain(2.0)
        assert len(left_after(tag, 0)) >= 2, "the app and its judging child run"
        run.close_terminal()
        code, took = ended_within(run, 5.0)
        assert code == terminal_end.LOST and took < 2.0, (code, took)
        assert left_after(tag, 2.0) == []
        assert not list(tmp_path.glob("daimon-tui-demo-*")), "the demo store is removed"
    finally:
        run.kill()
