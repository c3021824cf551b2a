"""The judging child: a long-lived process that answers the app's reads that
fold daimon's ledgers (the confirming briefing, an item's details, the audit,
the session list and diffs, search) and carries out a verb's confirmed writes
(`write_request`), one JSON line per request and per answer.

Why a child: a full read folds every ledger (hundreds of MB, seconds of pure
Python). In the app's process that fold holds the GIL against Textual (a
`why` behind a cursor move stalled the next keys) and adds its peak to the
UI's. Here the app stays small and responsive, and the child keeps one shared
snapshot (`snapshot_share`) that every later read reuses until a ledger
changes.

The first request folds with daimon alone imported: our models (pydantic)
are imported after the fold's temporaries are freed, so they reuse that
memory instead of adding to the peak. Before every read, daimon's
machine-wide forget walk runs on its own, then the bucket's snapshot (see
`_warm`): this keeps the peak near one copy of the largest ledger. Started
by the app before its first paint (`early_child`, `--warm`), the child does
that warm for the project named on the command line before any request, in
a thread of its own at a lower priority (`warm_early`), then judges that
project's briefing for the app's first confirming request (`early_answer`,
without pydantic), which is answered as soon as it comes, while the other
reads' modules still import.

Requests are answered one at a time; a read-ahead gives way to a read a
person waits on when the app signals it (`GIVE_WAY`). Answers are never
persisted; the confirming read saves the verdict cache (ids and states only,
see `verdict_cache`), and a ledger read whole (a first open) is kept
(`kept_fold`) after its answer is sent, not before. Anything daimon prints
goes to stderr: stdout carries only answers.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from daimon_tui.domain.at_rest import AtRest
from daimon_tui.store import process_memory
from daimon_tui.store.child import early_answer, early_child


def _warm(request: dict) -> None:
    """Fold the requested bucket's ledgers, in the order that keeps the peak
    low, before the read that needs them (and, on the first request, before
    our own modules load)."""
    from daimon_tui.store.child.swaps import install_swaps
    from daimon_tui.store.daimon_api import reading as daimon_reading
    from daimon_tui.store.daimon_api.public import surfaces, view
    from daimon_tui.store.judging import kept_fold, snapshot_share

    install_swaps()  # every lasting swap, before the early answer (none imports a model)
    kept_fold.defer_builds()  # a first open is answered first; `main` builds its kept fold after
    project = request.get("project") or {}
    target = project.get("path") or project.get("slug")
    # A failure here is reported properly by the real read that follows.
    with contextlib.suppress(Exception):
        bucket = daimon_reading.bucket_dir(target) if isinstance(target, str) else None
        # Only plain files: a FIFO or device as a ledger would block the
        # read; the real read refuses such a bucket with a diagnostic.
        if bucket is not None and all(_plain_or_absent(bucket / name) for name in surfaces.bucket_ledger_names()):
            # daimon memoizes the machine-wide forget walk (every bucket's
            # events ledger) per process. Walked here first, it is freed
            # before the snapshot reads this bucket's ledgers; walked inside
            # the snapshot, it read the same events ledger a second time while
            # the first copy was held (peak 498 MB instead of ~300 MB).
            snapshot_share.drop_stale(target)
            with kept_fold.active():
                view.machine_sets()
            view.snapshot(target)


def _plain_or_absent(path: Any) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


# The reads the child answers: request -> (the read, the model of its answer),
# as "module:name", imported only when first needed. The app's
# side (`judge_service.read`) takes both from here too: the same function is
# its in-process fallback, the same model validates the child's answer.
READS: dict[str, tuple[str, str]] = {
    "briefing": ("daimon_tui.store.child.first_paint:confirm", "daimon_tui.models:Briefing"),
    "details": ("daimon_tui.store.read.details:read_details", "daimon_tui.models.details:ItemDetails"),
    "evidence": ("daimon_tui.store.read.transcripts:read_evidence", "daimon_tui.models.evidence:Evidence"),
    "evidence-warm": ("daimon_tui.store.read.transcripts:warm", "daimon_tui.models.evidence:Warmed"),
    "transcript": ("daimon_tui.store.read.transcripts:read_full_transcript",
                   "daimon_tui.models.evidence:FullTranscript"),
    "audit": ("daimon_tui.store.read.audit:load_audit", "daimon_tui.domain.audit_report:AuditReport"),
    "sessions": ("daimon_tui.store.read.history:sessions", "daimon_tui.models.history:SessionListing"),
    "diff": ("daimon_tui.store.read.history:diff", "daimon_tui.models.history:DiffReport"),
    "search": ("daimon_tui.store.read.search:search", "daimon_tui.models.search:SearchResult"),
    "search-prepare": ("daimon_tui.store.read.search:prepare", "daimon_tui.models.search:SearchResult"),
    "plan": ("daimon_tui.store.child.plan_request:plan", "daimon_tui.domain.verbs:Plan"),
    "team": ("daimon_tui.store.read.team:load_team", "daimon_tui.models.team:TeamView"),
    "projects": ("daimon_tui.store.read.project_index:listing",
                 "daimon_tui.models.projects:ProjectListing"),
    "fold-check": ("daimon_tui.store.judging.kept_fold_check:check",
                   "daimon_tui.store.judging.kept_fold_check:FoldCheck"),
}
# Not reads: a verb's writes, over the snapshot held here. The app logs the
# intent before asking and has its own fallback (`write_request.apply`).
WRITES: dict[str, tuple[str, str]] = {
    "write": ("daimon_tui.store.child.write_request:write", "daimon_tui.store.child.write_request:Written"),
}


def resolve(where: str) -> Any:
    """A "module:name" of `READS` as the object it names."""
    import importlib

    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


def _calls() -> dict[str, Callable[..., Any]]:
    """The reads and writes, loaded; with them every lasting swap of daimon's functions."""
    from daimon_tui.store.child.swaps import install_swaps

    calls = {what: resolve(call) for what, (call, _model) in (READS | WRITES).items()}
    install_swaps()
    return calls


def _answer(calls: dict[str, Callable[..., Any]], request: dict) -> bytes:
    from daimon_tui.models import ProjectRef

    what = request.get("what")
    call = calls.get(what if isinstance(what, str) else "")
    if call is None:
        return json.dumps({"ok": False, "error": f"unknown request {str(what)[:40]!r}"}).encode()
    try:
        project = ProjectRef.model_validate(request["project"])
        with _WRITING if what in WRITES else contextlib.nullcontext():
            value = call(project, *request.get("args", ()))
        # round_trip: computed fields left out, so the app can validate it back.
        return b'{"ok": true, "value": ' + value.model_dump_json(round_trip=True).encode() + b"}"
    except Exception as error:
        return json.dumps({"ok": False, "error": f"{type(error).__name__}: {str(error)[:300]}"}).encode()


# A read-ahead (one quoted item's transcript: a cold parse of the largest, up to
# 0.6-0.8 s at 25 MB) gives way to a read a person waits on: the app sends
# this signal when one is queued behind it (`judge_service`), and the
# read-ahead is answered as reading nothing. SIGURG: ignored by default, so a
# child that has not yet set its handler, or a platform without it, ignores it.
GIVE_WAY = frozenset({"evidence-warm"})
GIVE_WAY_SIGNAL = getattr(signal, "SIGURG", None)
GAVE_WAY = b'{"ok": true, "value": {"read": 0, "left": 0}}'
_may_give_way = False


class GaveWay(BaseException):
    """Raised in the main thread by the signal, only while a read-ahead runs;
    a BaseException, so no `except Exception` of the read swallows it."""


def _give_way(_signum: int, _frame: Any) -> None:
    global _may_give_way
    if _may_give_way:
        _may_give_way = False
        raise GaveWay


def _answer_or_give_way(calls: dict[str, Callable[..., Any]], request: dict) -> bytes:
    """`_answer`, cut short by the signal for a read-ahead; nothing it keeps
    (parsed files, matches, excerpts) is stored before it is whole."""
    global _may_give_way
    if request.get("what") not in GIVE_WAY:
        return _answer(calls, request)
    try:
        _may_give_way = True
        try:
            return _answer(calls, request)
        finally:
            _may_give_way = False
    except GaveWay:
        return GAVE_WAY


# A first open's kept fold is built once no request has come for this long:
# the reads that follow a confirmation (the row under the cursor, the audit)
# are answered first, not beside the build.
BUILD_AFTER_IDLE_S = 1.0
_idle_since: float | None = None  # when the last answer was sent; None while one is being made


def _until_idle() -> None:
    while (since := _idle_since) is None or time.monotonic() - since < BUILD_AFTER_IDLE_S:
        time.sleep(0.1)


# The warm before the first request runs this much nicer than the rest of the
# child (its own thread: Linux sets a thread's nice value alone), so on a
# machine with no spare core the app's first paint is not slowed by it.
WARM_NICE = 10


@dataclass(frozen=True, slots=True)
class FirstTurn:
    """The early warm and the request loop, around the first request: the
    loop waits until the kept answer is judged; the warm imports the other
    reads once that request is answered (importing them beside it held the
    GIL the answer's own check needed: ~30 ms at 20k ledger rows)."""

    judged: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)


# How long the warm waits for the first request before importing the other reads anyway.
FIRST_REQUEST_WAIT_S = 2.0


def warm_early(hint: str, turn: FirstTurn | None = None) -> dict[str, Callable[..., Any]] | None:
    """A child started before the app's first paint (`early_child`): the
    project named on the command line warmed, its briefing judged
    (`early_answer`), then the reads imported, in the first request's order
    (daimon's fold before our models). None if anything fails: the first
    request does it."""
    try:
        return _warm_early(hint, turn)
    finally:
        if turn is not None:
            turn.judged.set()


def _warm_early(hint: str, turn: FirstTurn | None) -> dict[str, Callable[..., Any]] | None:
    with contextlib.suppress(Exception):
        with contextlib.suppress(OSError, AttributeError):  # no per-thread priority here: warmed as it is
            thread = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + WARM_NICE)
        named = json.loads(hint)
        slug, path = named.get("slug"), named.get("path")
        if isinstance(slug, str) and slug:
            project = {"slug": slug}
        else:
            from daimon_tui.store.daimon_api.public import config

            project = {"path": config.resolve_read_project(path if isinstance(path, str) else None)}
        _warm({"project": project})
        # the app's first confirming request, answered before it comes (`early_answer`),
        # before the other reads' modules (and pydantic) are imported
        with contextlib.suppress(Exception):
            early_answer.judge(path if isinstance(path, str) else None, slug if isinstance(slug, str) else None,
                               resolve(READS["briefing"][0]))
        if turn is not None:
            turn.judged.set()
            turn.answered.wait(timeout=FIRST_REQUEST_WAIT_S)
        return _calls()
    return None


# Freed memory goes back to the system once no request came for this long and
# no kept fold is being built: a first open's full read, a fold check or a
# burst of verbs is not kept resident while the app sits open.
GIVE_BACK_AFTER_S = 3.0


def _give_back_at_rest(rest: AtRest, stop: threading.Event) -> None:
    from daimon_tui.store.judging import kept_fold

    while not stop.wait(0.5):
        rest.tick(busy=_idle_since is None or kept_fold.building())


# The child never outlives the app: once its parent is gone it ends within
# `PARENT_WATCH_S`, mid-fold or not (a fold holds the GIL in pure Python; this
# thread still gets its turn). A verb's write under way is let finish first,
# for at most `WRITE_FINISH_S`. Not PR_SET_PDEATHSIG: that fires when the
# spawning *thread* ends, and the app spawns from a worker thread.
PARENT_WATCH_S = 0.25
WRITE_FINISH_S = 1.0
PARENT_GONE = 129  # as a hangup: the app's terminal (or the app) went away
_WRITING = threading.Lock()


def watch_parent(parent: str | None) -> None:
    """From now on, end this process once `parent` (a pid, as the app gave
    it in `early_child.PARENT_ENV`) is no longer its parent."""
    if not (parent or "").isdigit():
        return

    def watch() -> None:
        while os.getppid() == int(parent):
            time.sleep(PARENT_WATCH_S)
        _WRITING.acquire(timeout=WRITE_FINISH_S)
        os._exit(PARENT_GONE)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    watch_parent(os.environ.get(early_child.PARENT_ENV))
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr
    rest, stop = AtRest(GIVE_BACK_AFTER_S, lambda collect: process_memory.give_back(collect)), threading.Event()
    threading.Thread(target=_give_back_at_rest, args=(rest, stop), name="give-back", daemon=True).start()
    handled = GIVE_WAY_SIGNAL is not None and threading.current_thread() is threading.main_thread()
    before = signal.signal(GIVE_WAY_SIGNAL, _give_way) if handled else None
    try:
        _serve(answers, rest, argv)
    finally:
        stop.set()
        if handled and before is not None:
            signal.signal(GIVE_WAY_SIGNAL, before)
    return 0


# The app retires an idle child (`judge_service`) by asking it this; the child
# ends only when nothing of its own still runs, else it answers "busy".
REST = "rest"


def may_rest(warming: threading.Thread | None) -> bool:
    """Nothing would be lost by ending now: the early warm is over and no kept
    fold is being built (or waiting to be: its thread waits for the idle time)."""
    if warming is not None and warming.is_alive():
        return False
    from daimon_tui.store.judging import kept_fold

    return not kept_fold.building()


def _serve(answers: Any, rest: AtRest, argv: list[str]) -> None:
    global _idle_since
    calls: dict[str, Callable[..., Any]] | None = None
    warmed: list[dict[str, Callable[..., Any]] | None] = []
    warming: threading.Thread | None = None
    turn = FirstTurn()
    if len(argv) == 2 and argv[0] == early_child.WARM_FLAG:
        # in a thread of its own, at its own (lower) priority; the first request waits for it
        warming = threading.Thread(target=lambda: warmed.append(warm_early(argv[1], turn)), name="warm",
                                   daemon=True)
        warming.start()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            answers.write(b'{"ok": false, "error": "unreadable request"}\n')
            answers.flush()
            continue
        if isinstance(request, dict) and request.get("what") == REST:
            # not work: the idle clock a kept fold's build waits on keeps running
            resting = may_rest(warming)
            answers.write(json.dumps({"ok": True, "value": "resting" if resting else "busy"}).encode() + b"\n")
            answers.flush()
            if resting:
                return
            continue
        _idle_since = None
        if warming is not None:
            turn.judged.wait()  # the kept answer may answer this request before the other reads are imported
        answer = early_answer.take(request)
        if answer is None and warming is not None:
            turn.answered.set()
            warming.join()
            calls, warming = (warmed or [None])[0], None
        if answer is None:
            # Cheap when daimon's memos still hold; a search keystroke skips even
            # that (its view's `search-prepare` warmed the bucket) once the shared
            # snapshot is installed by a first request.
            if request.get("what") != "search" or calls is None:
                _warm(request)
            if calls is None:
                calls = _calls()
            answer = _answer_or_give_way(calls, request)
        answers.write(answer + b"\n")
        answers.flush()
        turn.answered.set()
        _idle_since = time.monotonic()
        rest.active()
        # With the answer sent: a ledger read whole for it (a first open) is
        # kept once the child is idle, so the next run (and, once built, the
        # next request) folds only appends. In a thread: a request meanwhile
        # is answered, not queued behind the build.
        from daimon_tui.store.judging import kept_fold

        kept_fold.build_in_background(_until_idle)


if __name__ == "__main__":
    raise SystemExit(main())
