"""The judging child started at the very start of the interactive app, before
Textual is imported, so its own start overlaps the app's first paint.

A first confirmation waits on the child's start (Python, daimon and our
store: ~0.5 s), daimon's machine-wide forget walk and the bucket's snapshot.
Started only after the first paint, all of that came after it; started here,
it runs on the other core while the app imports Textual and paints, and the
child warms the project named on the command line before any request
(`judge_child.main`, `--warm`).

Sound because the warm only fills what the first request's own warm fills
(daimon's memos, keyed on each ledger's stat, and the shared snapshot, dropped
when stale) and every request warms again. The service (`judge_service`)
adopts this child only when the environment it would give a new child is
exactly the one this child got (a sandbox or safe mode decided since: a new
child, and this one is ended).

Only the standard library here: it runs before anything heavy is imported.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import IO

CHILD_MODULE = "daimon_tui.store.child.judge_child"
WARM_FLAG = "--warm"
# The app's pid, given to every judging child it starts: the child ends once
# its parent is gone (`judge_child.watch_parent`).
PARENT_ENV = "DAIMON_TUI_PARENT_PID"


def with_parent(env: dict[str, str]) -> dict[str, str]:
    """`env` naming this process as the child's parent."""
    return {**env, PARENT_ENV: str(os.getpid())}


@dataclass(frozen=True, slots=True)
class Early:
    proc: subprocess.Popen[bytes]
    env: dict[str, str]
    errors: IO[bytes]  # the child's stderr, for as long as it lives


_early: Early | None = None


def spawn(path: str | None, slug: str | None, env: dict[str, str] | None = None) -> None:
    """Start the judging child now, to warm `--project PATH` / `--slug SLUG`
    (the working directory by default). A failure here is no failure: the
    first request starts a child as it always did."""
    global _early
    if _early is not None:
        return
    env = dict(os.environ if env is None else env)
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (open for the child's life)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE, WARM_FLAG, json.dumps({"path": path, "slug": slug})],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=with_parent(env),
        )
    except OSError:
        errors.close()
        return
    _early = Early(proc, env, errors)
    atexit.register(discard)


def waiting() -> bool:
    """An early child runs and nobody took it yet."""
    early = _early
    return early is not None and early.proc.poll() is None


def current() -> subprocess.Popen[bytes] | None:
    """The early child's process, if one was started and nobody took it."""
    early = _early
    return early.proc if early is not None else None


def take(env: dict[str, str]) -> Early | None:
    """The early child, handed over once: only if it still runs and was
    started with exactly `env`; otherwise it is ended and None."""
    global _early
    early, _early = _early, None
    if early is None:
        return None
    if early.proc.poll() is None and early.env == env:
        return early
    _end(early)
    return None


def discard() -> None:
    """End an early child nobody took (the app quit before its first read)."""
    global _early
    early, _early = _early, None
    if early is not None:
        _end(early)


def _end(early: Early) -> None:
    with contextlib.suppress(OSError):
        early.proc.kill()
    for pipe in (early.proc.stdin, early.proc.stdout, early.errors):
        with contextlib.suppress(OSError, ValueError):
            if pipe is not None:
                pipe.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        early.proc.wait(timeout=5)
