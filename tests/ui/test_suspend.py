"""ctrl+z / fg and programs run in the app's terminal never deadlock the app
(issue 43, `ui/suspend.py`; Textual #6692), on a real terminal (a pty)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.ui.pty_run import PtyRun, python

# A Textual app as the app sets itself up (`terminal_end.install`), repainting
# ten times a second (the #6692 path needs writes after a failed resume).
# `o` runs argv[3:] under suspend, as the pager and $EDITOR run; `x` quits.
APP = """
import sys
from pathlib import Path
from textual.app import App
from textual.widgets import Static
from daimon_tui.ui import terminal_end
from daimon_tui.ui.item.evidence import run_suspended

marks, program = Path(sys.argv[1]), sys.argv[2:]

class Tiny(App):
    BINDINGS = [("o", "open", "open"), ("x", "quit_now", "quit")]

    def compose(self):
        yield Static("0", id="clock")

    def on_mount(self):
        terminal_end.install(self)
        self.ticks = 0
        self.set_interval(0.1, self.tick)
        (marks / "ready").write_text("")

    def tick(self):
        self.ticks += 1
        self.query_one("#clock", Static).update(str(self.ticks))
        (marks / "ticks").write_text(str(self.ticks))

    def action_open(self):
        code = run_suspended(self, program)
        (marks / "back").write_text(str(code))

    def action_quit_now(self):
        self.exit(0)

app = Tiny()
app.run()
sys.exit(app.return_code or 0)
"""


def start(tmp_path: Path, program: list[str]) -> PtyRun:
    run = PtyRun(python(APP, str(tmp_path), *program))
    assert run.drain(60, until=lambda: (tmp_path / "ready").exists()), run.out[-2000:]
    return run


def ticks(tmp_path: Path) -> int:
    try:
        return int((tmp_path / "ticks").read_text() or 0)
    except (OSError, ValueError):
        return 0


def state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize(("program", "code"), [
    (["/nonexistent/pager"], "127"),  # cannot start: said, and the app is back
    (["/bin/sh", "-c", "kill -INT $PPID; sleep 0.3; exit 3"], "3"),  # ctrl+c is the program's
], ids=["missing-program", "ctrl-c-in-program"])
def test_a_program_that_fails_under_suspend_leaves_the_app_running(tmp_path: Path, program: list[str],
                                                                     code: str) -> None:
    run = start(tmp_path, program)
    try:
        run.write(b"o")
        assert run.drain(15, until=lambda: (tmp_path / "back").exists()), run.out[-2000:]
        assert (tmp_path / "back").read_text() == code
        before = ticks(tmp_path)
        assert run.drain(5, until=lambda: ticks(tmp_path) >= before + 5), "the app did not come back"
        run.write(b"x")
        assert run.drain(10, until=lambda: run.proc.poll() is not None)
        assert run.proc.returncode == 0
    finally:
        run.kill()


def test_ctrl_z_and_fg_suspend_and_resume_while_the_app_repaints(tmp_path: Path) -> None:
    run = start(tmp_path, ["true"])
    pid = run.proc.pid
    try:
        for how in ("ctrl+z", "ctrl+z", "SIGTSTP", "ctrl+z", "SIGTSTP"):
            seen = len(run.out)
            if how == "ctrl+z":
                run.write(b"\x1a")
            else:
                run.proc.send_signal(signal.SIGTSTP)
            assert run.drain(10, until=lambda: state(pid) == "T"), f"{how} did not stop the app"
            run.drain(0.5)  # what it wrote before it stopped
            assert b"\x1b[?1049l" in bytes(run.out[seen:]), "the terminal was not given back"
            seen, before = len(run.out), ticks(tmp_path)
            run.proc.send_signal(signal.SIGCONT)  # fg
            assert run.drain(10, until=lambda b=before: ticks(tmp_path) >= b + 3), f"no resume after {how}"
            assert b"\x1b[?1049h" in bytes(run.out[seen:]), "the app did not take the terminal back"
        run.write(b"x")
        assert run.drain(10, until=lambda: run.proc.poll() is not None)
        assert run.proc.returncode == 0
    finally:
        run.kill()
