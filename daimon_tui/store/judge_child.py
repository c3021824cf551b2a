"""daimon's confirming read (`reader.load_briefing`) in a child process.

Why a child: the full read folds every ledger (hundreds of MB, seconds of pure
Python). In the app's process that fold holds the GIL against Textual and adds
its peak to the UI's; in a child the app stays small and responsive, and the
memory is returned the moment the child exits.

daimon's sandbox (tests, the demo, the benchmarks) is a ContextVar that never
reaches a subprocess, so the child gets daimon's effective settings exported:
every value of the active `config.settings_override` mapping, the checkpoint
and log dirs the overrides resolve, and `DAIMON_ENV_FILE` pointing at an empty
file (under an override daimon reads no env file; the child must not either).
Outside a sandbox the child simply inherits our environment.

The child answers with the `Briefing` as JSON on stdout, never persisted; it
also saves the verdict cache (ids and states only, see `verdict_cache`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

from daimon_briefing import config

from . import reader, verdict_cache
from .models import Briefing, ProjectRef

TIMEOUT_S = 900.0
_EMPTY_ENV: Path | None = None


class JudgeFailed(Exception):
    """The child did not answer with a briefing; the message says why."""


def _empty_env_file() -> Path:
    # mkstemp, not a fixed name in /tmp: nobody else can plant content there.
    global _EMPTY_ENV
    if _EMPTY_ENV is None or not _EMPTY_ENV.is_file():
        handle, name = tempfile.mkstemp(prefix="daimon-tui-empty-", suffix=".env")
        os.close(handle)
        _EMPTY_ENV = Path(name)
        atexit.register(lambda path=_EMPTY_ENV: path.unlink(missing_ok=True))
    return _EMPTY_ENV


def child_env() -> dict[str, str]:
    """Our environment, with daimon's sandbox settings (when one is active in
    the calling context) exported in place of every inherited `DAIMON_*`."""
    env = dict(os.environ)
    active = config.active_settings()
    if active is None:
        return env
    # DAIMON_TUI_* are ours (cache, log, config), not daimon's settings.
    env = {k: v for k, v in env.items() if not k.startswith("DAIMON_") or k.startswith("DAIMON_TUI_")}
    env.update({str(k): str(v) for k, v in active.items()})
    env["DAIMON_CHECKPOINT_DIR"] = str(config.checkpoint_dir())
    env["DAIMON_LOG_DIR"] = str(config.log_dir())
    env["DAIMON_ENV_FILE"] = str(_empty_env_file())
    return env


def _request(project: ProjectRef, now: float | None) -> bytes:
    return json.dumps({"project": project.model_dump(mode="json"), "now": now}).encode()


async def judge(project: ProjectRef, now: float | None = None, *, timeout: float = TIMEOUT_S) -> Briefing:
    """Run the confirming read in `python -m daimon_tui.store.judge_child`.
    Cancelling the awaiting task kills the child. Raises `JudgeFailed`."""
    out = await _run(_request(project, now), timeout)
    try:
        return Briefing.model_validate_json(out)
    except ValueError as error:
        raise JudgeFailed(f"unreadable answer ({len(out)} bytes): {str(error)[:200]}") from error


async def _run(request: bytes, timeout: float) -> bytes:
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", __name__,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=child_env(),
        )
    except OSError as error:
        raise JudgeFailed(f"could not start: {error}") from error
    try:
        out, err = await asyncio.wait_for(proc.communicate(request), timeout)
    except (asyncio.CancelledError, TimeoutError) as error:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(Exception):
            await asyncio.shield(proc.wait())
        if isinstance(error, TimeoutError):
            raise JudgeFailed(f"no answer within {timeout:.0f} s") from error
        raise
    if proc.returncode != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise JudgeFailed(f"exit {proc.returncode}: {' / '.join(tail) or 'no message'}")
    return out


def judge_here(project: ProjectRef, now: float | None) -> Briefing:
    """The confirming read in this process: daimon's verdicts, persisted (no text)."""
    # Fingerprint before the read: a write during it leaves a fingerprint that
    # no longer matches, so the next paint treats these verdicts as stale.
    digest = verdict_cache.fingerprint(project)
    confirmed = reader.load_briefing(project, now)
    verdict_cache.save(confirmed, digest)
    return confirmed


def main() -> int:
    request = json.loads(sys.stdin.buffer.read() or b"{}")
    project = ProjectRef.model_validate(request["project"])
    answer = sys.stdout.buffer
    # Anything daimon might print goes to stderr: stdout carries only the answer.
    sys.stdout = sys.stderr
    answer.write(judge_here(project, request.get("now")).model_dump_json().encode())
    answer.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
