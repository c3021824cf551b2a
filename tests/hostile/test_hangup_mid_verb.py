"""The terminal closed mid-verb (issue 24, point 9): the real app, on a real
terminal (a pty), gets SIGHUP after its intent line and before daimon's
write. It restores the terminal and exits; the next start settles the intent
from daimon's ledgers and says so."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from tests.ui.settle import settle

from .test_concurrent_writers import _env
from .test_kill_mid_verb import NOW

APP = """
import asyncio, sys
from pathlib import Path
from daimon_tui.store.child import write_request
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ResolveModal
from daimon_tui.ui.app import DaimonTUI

project, marks, now = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
PlanPreviewModal.CONFIRM_DELAY_S = 0.0

def marking(cls, name):
    mounted = cls.on_mount
    def on_mount(self):
        (marks / name).write_text(name)
        return mounted(self)
    cls.on_mount = on_mount

marking(ResolveModal, "resolve")
marking(PlanPreviewModal, "preview")

async def held(*args, **kwargs):
    (marks / "writing").write_text("writing")
    await asyncio.sleep(3600)

write_request.apply = held
app = DaimonTUI(project_path=project, now=now)
app.run()
sys.exit(app.return_code or 0)
"""


def test_a_hangup_mid_verb_restores_the_terminal_and_the_next_start_settles_it(
        demo_store: demo.DemoStore, tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    marks = tmp_path / "marks"
    marks.mkdir()
    env = _env(demo_store)
    env.update({k: v for k, v in os.environ.items() if k.startswith("DAIMON_TUI_")})
    env.update({"DAIMON_TUI_LOG": str(log.path), "TERM": "xterm-256color",
                "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", APP, str(demo_store.project), str(marks), str(NOW)],
                            stdin=secondary, stdout=secondary, stderr=secondary, env=env, close_fds=True,
                            start_new_session=True)
    os.close(secondary)
    out = bytearray()

    def drain(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([primary], [], [], 0.05)[0]:
                try:
                    out.extend(os.read(primary, 65536))
                except OSError:
                    return

    def press_until(key: bytes, mark: str) -> None:
        deadline = time.monotonic() + 120
        while not (marks / mark).exists():
            assert proc.poll() is None, out[-2000:].decode("utf-8", "replace")
            assert time.monotonic() < deadline, f"never reached {mark}"
            os.write(primary, key)
            drain(1.0)

    try:
        drain(3.0)
        press_until(b"r", "resolve")
        press_until(b"\r", "preview")
        press_until(b"y", "writing")
        [intent] = log.pending()
        drain(0.5)
        seen = len(out)
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            drain(0.2)
        drain(0.5)
        assert proc.poll() is not None, "the app did not end on SIGHUP"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        os.close(primary)
    after = bytes(out[seen:])
    assert proc.returncode == 128 + signal.SIGHUP, proc.returncode  # it exited, not killed by the signal
    assert b"\x1b[?1049l" in after  # the terminal left the app's screen: restored

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW, action_log=log)

    async def restart() -> list[str]:
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot, rounds=5)
            return [n.message for n in app._notifications if n.title == "interrupted write"]

    import asyncio

    told = asyncio.run(restart())
    assert len(told) == 1 and intent.action_id in told[0] and "did not land" in told[0]
    assert log.pending() == [] and log.verify_chain().ok
