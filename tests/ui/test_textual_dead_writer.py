"""Pins the Textual behaviour `daimon_tui.ui.terminal_end` works around
(issue 43): Textual 8.2.8's writer thread takes the app's output through a
bounded queue (30 slots, `drivers/_writer_thread.py`); once its consumer is
stuck on a terminal that stopped reading, or died on one that went away,
the next `put` blocks the event loop for good. An exit on SIGHUP (`App.exit`
from `loop.add_signal_handler`, what the app used to install) then hangs in
`App._shutdown`, restoring a terminal nobody reads.

If this test fails, Textual changed here: check whether the workaround is
still needed, and that it still works (`test_terminal_end.py`)."""

from __future__ import annotations

import signal
from pathlib import Path

import textual

from tests.ui.pty_run import PtyRun, python

# A plain Textual app. Its writer thread is made to block for good: one
# write far larger than a pty holds, never read, then `FLOOD` small writes
# queued behind it. SIGHUP then exits as the app's old handler did.
TINY = """
import asyncio, faulthandler, signal, sys
from functools import partial
from pathlib import Path
from textual.app import App
from textual.widgets import Static

marks, flood, workaround = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
faulthandler.register(signal.SIGUSR1, file=open(marks / "stacks.txt", "w"), all_threads=True)

class Tiny(App):
    def compose(self):
        yield Static("tiny")

    def on_mount(self):
        if workaround:
            from daimon_tui.ui import terminal_end
            terminal_end.install(self)
        else:
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGHUP, partial(self.exit, None, 128 + signal.SIGHUP))
        self.set_timer(0.3, self.flood)

    def flood(self):
        self._driver.write("x" * 4_000_000)
        for _ in range(flood):
            self._driver.write("\\x1b[0m")
        (marks / "flooded").write_text("")

app = Tiny()
app.run()
sys.exit(app.return_code)
"""

# The writer's queue holds 30; the first 10 of the exit's own writes
# (`stop_application_mode`) still fit behind 20, `_shutdown`'s do not.
FLOOD = 20


def hung_on_exit(tmp_path: Path, workaround: bool) -> tuple[int | None, str]:
    """Start the tiny app, block its writer, send SIGHUP, close the
    terminal: its exit code, or None and its stacks if it still runs 6 s later."""
    # Under a shell, as in a terminal window or a tmux pane: the kernel's
    # SIGCONT on a hangup goes to the shell. (Sent to Textual itself, its
    # SIGCONT handler restarts application mode from inside the blocked put,
    # which happens to free it.)
    run = PtyRun(python(TINY, str(tmp_path), str(FLOOD), "1" if workaround else "0"), under_shell=True)
    try:
        assert run.drain(60, until=lambda: (tmp_path / "flooded").exists()), run.out[-2000:]
        # From here nothing reads the terminal: the writer stays stuck in its write.
        import time

        time.sleep(0.5)
        run.signal(signal.SIGHUP)  # as tmux does to a pane's processes
        time.sleep(0.5)
        run.close_terminal()  # and then the terminal goes away altogether
        code = run.wait(6.0)
        if code is not None:
            return code, ""
        return None, run.stacks(tmp_path / "stacks.txt")
    finally:
        run.kill()


def test_textual_hangs_in_shutdown_on_a_writer_that_stopped(tmp_path: Path) -> None:
    code, stacks = hung_on_exit(tmp_path, workaround=False)
    assert code is None, (f"Textual {textual.__version__} exited ({code}) on a dead writer: the hang "
                          "`ui/terminal_end.py` works around may be fixed; re-check it")
    main = stacks.split("Current thread")[-1] if "Current thread" in stacks else stacks
    # The main thread: App._shutdown -> ... -> WriterThread.write -> Queue.put, for good.
    assert "in _shutdown" in main and "in put" in main and "_writer_thread.py" in main, stacks
