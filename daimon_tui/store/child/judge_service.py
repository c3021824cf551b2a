"""The app's side of the judging child (`judge_child`): start it once, send
it reads, kill it when the app ends.

daimon's sandbox (tests, the demo, the benchmarks) is a ContextVar that never
reaches a subprocess, so the child gets daimon's effective settings exported:
every value of the active `config.settings_override` mapping, the checkpoint
and log dirs the overrides resolve, and `DAIMON_ENV_FILE` pointing at an empty
file (under an override daimon reads no env file; the child must not either).
Outside a sandbox the child simply inherits our environment.

One request at a time, each exchange whole under a lock; a request that
times out kills the child, and the next request starts a new one, as it does
for a child that died. Waiting requests are sent by priority (`PRIORITY`: what
a person waits on at the cursor first, the background audit last), and one
whose caller stopped waiting (the cursor moved on) is dropped unsent. A
read-ahead the child is answering when such a read is queued is asked to give
way (`judge_child.GIVE_WAY`).

At rest the child is given back: once no request came for `idle_s` (the
person's `judging_child_idle_s`), the sending thread asks it to end, under the
same lock as an exchange, so no request can cross its going: one asked
meanwhile waits and starts a new child, which reads its state back from the
kept fold on disk. A child still busy with work of its own (a kept fold being
built) answers "busy" and is asked again later.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import heapq
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from daimon_tui.models import ProjectRef
from daimon_tui.models.records import Record
from daimon_tui.store.child import early_child, judge_child
from daimon_tui.store.daimon_api import mode
from daimon_tui.store.daimon_api.public import config

TIMEOUT_S = 900.0
# Lower is sooner. A confirmed write, then a read a person waits on (the row
# under the cursor, a verb's preview, a search keystroke), before the confirming briefing and the
# search screen's warm-up, the audit and the evidence pane's read-ahead after all of them.
PRIORITY = {"write": -1, "details": 0, "plan": 0, "search": 0, "briefing": 1, "search-prepare": 1, "sessions": 1,
            "projects": 1, "diff": 1, "fold-check": 2, "audit": 2, "evidence-warm": 2}
CHILD_MODULE = early_child.CHILD_MODULE
# Give the child back after this long without a request (the settings' default);
# a child that was busy is asked again this much later; one that does not
# answer the request to end within REST_WAIT_S, or has not ended REST_EXIT_S
# after it said it would, is killed (it is idle: nothing waits on it, and a
# request asked meanwhile waits no longer than that for a new child).
IDLE_S = 60.0
REST_RETRY_S = 5.0
REST_WAIT_S = 10.0
REST_EXIT_S = 2.0
REST_REQUEST = b'{"what": "rest"}\n'

_EMPTY_ENV: Path | None = None

Model = TypeVar("Model", bound=BaseModel | Record)  # a pydantic model, or a record of `records`


class JudgeFailed(Exception):
    """The child did not answer; the message says why."""


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
    the calling context) exported in place of every inherited `DAIMON_*`;
    safe mode (`daimon_api.mode`) is passed on, so the child reads as we do."""
    env = dict(os.environ)
    if mode.current().safe:
        env[mode.ENV_SAFE] = "1"
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


class JudgeService:
    """One child, one request at a time. Blocking pipe I/O runs in a worker
    thread (no GIL held while waiting), so the service works from any event
    loop and from plain threads alike."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._env: dict[str, str] | None = None
        self._errors: Any = None
        self._lock = threading.Lock()
        # waiting requests: (priority, arrival, what, request, env, timeout, future)
        self._waiting: list[tuple] = []
        self._sending: str | None = None  # what the child is answering now
        self._arrival = itertools.count()
        self._ready = threading.Condition()
        self._sender: threading.Thread | None = None
        self.dropped = 0  # requests nobody waited for any more, never sent
        self.idle_s: float | None = IDLE_S  # None: the child is kept for the app's life
        self._used = time.monotonic()  # when the last exchange ended
        self._retry_at = 0.0  # a busy child is not asked to end again before this
        self.rested = 0  # children given back at rest

    def rest_after(self, seconds: float | None) -> None:
        """Give the child back after `seconds` without a request (None or 0: never)."""
        with self._ready:
            self.idle_s = seconds or None
            self._ready.notify()

    async def call(self, what: str, project: ProjectRef, *args: Any, model: type[Model],
                   timeout: float = TIMEOUT_S) -> Model:
        """Ask the child for `what(project, *args)`; raises `JudgeFailed`.
        Cancelling the awaiting task drops the answer but lets the exchange
        finish in its thread, so the child (and the snapshot it holds) lives
        on: a cursor that moves on must not cost the next read a new fold."""
        request = json.dumps({"what": what, "project": project.model_dump(mode="json"), "args": args})
        env = child_env()
        future: concurrent.futures.Future[bytes] = concurrent.futures.Future()
        with self._ready:
            heapq.heappush(self._waiting, (PRIORITY.get(what, 1), next(self._arrival), what,
                                           request.encode() + b"\n", env, timeout, future))
            sending = self._sending
            if sending in judge_child.GIVE_WAY and PRIORITY.get(what, 1) < PRIORITY.get(sending, 1):
                self._give_way()
            if self._sender is None or not self._sender.is_alive():
                self._sender = threading.Thread(target=self._send_waiting, name="judge-sender", daemon=True)
                self._sender.start()
            self._ready.notify()
        # Cancelling this await cancels a request still waiting (dropped);
        # one already sent finishes and its answer is let go.
        line = await asyncio.wrap_future(future)
        try:
            answer = json.loads(line)
        except ValueError as error:
            raise JudgeFailed(f"unreadable answer ({len(line)} bytes)") from error
        if not isinstance(answer, dict) or not answer.get("ok"):
            error = answer.get("error") if isinstance(answer, dict) else None
            raise JudgeFailed(str(error or "no answer")[:300])
        try:
            return model.model_validate(answer.get("value"))
        except ValidationError as error:
            raise JudgeFailed(f"answer is not a {model.__name__}: {str(error)[:200]}") from error

    def _send_waiting(self) -> None:
        """The one thread that talks to the child: the most urgent waiting
        request next; a request whose caller left is dropped unsent."""
        while True:
            with self._ready:
                while not self._waiting:
                    due = self._rest_in()
                    if due is not None and due <= 0:
                        break
                    if not self._ready.wait(timeout=30 if due is None else due) and due is None:
                        self._sender = None
                        return
                if not self._waiting:
                    job = None
                else:
                    _priority, _arrival, what, request, env, timeout, future = heapq.heappop(self._waiting)
                    job = future
            if job is None:
                self._rest()
                continue
            if not future.set_running_or_notify_cancel():
                self.dropped += 1
                continue
            with self._ready:
                self._sending = what
            try:
                future.set_result(self._exchange(request, env, timeout))
            except BaseException as error:  # the caller raises it
                future.set_exception(error)
            finally:
                with self._ready:
                    self._sending = None
                self._used = time.monotonic()

    def _give_way(self) -> None:
        """Ask the child to cut short the read-ahead it is answering
        (`judge_child.GIVE_WAY`): a read a person waits on is queued behind it."""
        pid = self.pid
        if pid is None or judge_child.GIVE_WAY_SIGNAL is None or CHILD_MODULE != early_child.CHILD_MODULE:
            return  # no child, no such signal here, or a test's stand-in child that does not expect it
        with contextlib.suppress(OSError):
            os.kill(pid, judge_child.GIVE_WAY_SIGNAL)

    def _rest_in(self) -> float | None:
        """Seconds until the child is due to be given back; None: no child, or never."""
        if self.idle_s is None or self.pid is None:
            return None
        return max(self._used + self.idle_s, self._retry_at) - time.monotonic()

    def _rest(self) -> None:
        """Ask the idle child to end (the sending thread, between exchanges)."""
        with self._lock:
            proc = self._proc
            due = self._rest_in()
            if proc is None or due is None or due > 0 or self._waiting:
                return  # asked meanwhile: not idle
            if not self._ends_at_rest(proc):
                self._retry_at = time.monotonic() + REST_RETRY_S
                return
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=REST_EXIT_S)
            self._close_locked()
            self.rested += 1

    def _ask(self, proc: subprocess.Popen[bytes], request: bytes, timeout: float) -> bytes:
        """One line to the child and its one line back; a child silent past
        `timeout` is killed (its line then comes back cut)."""
        assert proc.stdin is not None and proc.stdout is not None
        watchdog = threading.Timer(timeout, self._kill, args=(proc,))
        watchdog.start()
        try:
            proc.stdin.write(request)
            proc.stdin.flush()
            return proc.stdout.readline()
        finally:
            watchdog.cancel()

    def _ends_at_rest(self, proc: subprocess.Popen[bytes]) -> bool:
        """Ask the idle child to end: False if it is busy with work of its
        own. A child that answers anything else (or nothing) is ended too."""
        try:
            line = self._ask(proc, REST_REQUEST, REST_WAIT_S)
        except (OSError, ValueError):
            line = b""
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        return not (isinstance(answer, dict) and answer.get("value") == "busy")

    def _exchange(self, request: bytes, env: dict[str, str], timeout: float) -> bytes:
        with self._lock:
            if self._proc is not None and (self._proc.poll() is not None or env != self._env):
                self._close_locked()  # it died, or the sandbox changed (tests): a new child
            proc = self._proc or self._adopt(env) or self._start(env)
            try:
                line = self._ask(proc, request, timeout)
            except (OSError, ValueError) as error:
                self._close_locked()
                raise JudgeFailed(f"the child went away: {error}") from error
            if not line.endswith(b"\n"):
                tail = self._stderr_tail()
                timed_out = proc.poll() == -9
                self._close_locked()
                if timed_out:
                    raise JudgeFailed(f"no answer within {timeout:.0f} s")
                raise JudgeFailed(f"the child ended: {tail or 'no message'}")
            return line

    def _adopt(self, env: dict[str, str]) -> subprocess.Popen[bytes] | None:
        """The child the app started before its first paint (`early_child`),
        if it was started with the environment a new child would get here."""
        if CHILD_MODULE != early_child.CHILD_MODULE:
            return None  # a test's stand-in child: the early one is not it
        early = early_child.take(env)
        if early is None:
            return None
        self._proc, self._env, self._errors = early.proc, env, early.errors
        return early.proc

    def _start(self, env: dict[str, str]) -> subprocess.Popen[bytes]:
        # Open for the child's whole life (its stderr); closed with it.
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", CHILD_MODULE],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors, env=early_child.with_parent(env),
            )
        except OSError as error:
            raise JudgeFailed(f"could not start: {error}") from error
        self._env = env
        return self._proc

    def _stderr_tail(self) -> str:
        if self._errors is None:
            return ""
        with contextlib.suppress(OSError):
            self._errors.seek(0)
            lines = self._errors.read()[-4000:].decode("utf-8", "replace").strip().splitlines()
            return " / ".join(lines[-3:])
        return ""

    @staticmethod
    def _kill(proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(OSError):
            proc.kill()

    def started(self) -> bool:
        """A child runs already (or one started before the first paint waits
        to be taken): a request now costs no process start."""
        return self.pid is not None or early_child.waiting()

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def close(self) -> None:
        """End the child, if any. Safe from any thread: killing it first
        unblocks a request waiting on its answer."""
        early_child.discard()
        proc = self._proc
        if proc is not None:
            self._kill(proc)
        with self._lock:
            self._close_locked()

    def kill_now(self) -> None:
        """Kill the child (and an early one nobody took) at once, taking no
        lock and waiting for nothing: for a process that ends now."""
        for proc in (self._proc, early_child.current()):
            if proc is not None:
                self._kill(proc)

    def _close_locked(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            self._kill(proc)
            for pipe in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError, ValueError):
                    if pipe is not None:
                        pipe.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        if self._errors is not None:
            with contextlib.suppress(OSError):
                self._errors.close()
            self._errors = None


_SERVICE = JudgeService()
atexit.register(_SERVICE.close)


def service() -> JudgeService:
    """The process's one judging child."""
    return _SERVICE


async def read(what: str, project: ProjectRef, *args: Any) -> tuple[Any, JudgeFailed | None]:
    """`what` (a read of `judge_child.READS`) answered by the child; if it
    fails, the same read in a thread of this process, with the failure
    returned for the caller to show."""
    read_at, model_at = judge_child.READS[what]
    try:
        return await service().call(what, project, *args, model=judge_child.resolve(model_at)), None
    except JudgeFailed as failure:
        return await asyncio.to_thread(judge_child.resolve(read_at), project, *args), failure
