"""daimon's `diff` verb, run on daimon's own steps without its usage line.

`cli.history._cmd_diff` first appends a usage line to the store, then reads;
a headless report writes nothing. So its steps after that line run here, in
its order: `view.snapshot`, `view.pointers`, each pointer as its endpoint
entry, its pick of the two generations (and its refusals), `changes`, its
`--json` payload and its plain lines, all daimon's own functions (the private
ones through `private`, contract `diff_verb.steps`, whose check pins that the
verb is still that usage line and these steps). Only the order is ours.

In safe mode the private steps are off, and there is no public way to print
daimon's diff: `answer` raises `mode.Unavailable` (the reader refuses with it).
The differential tests (tests/test_diff_cli.py, tests/store/test_differential.py)
hold the answer to daimon's bytes and exit codes, plain and `--json`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from daimon_briefing import config, jsonl, store, view

from daimon_tui.store.daimon_api import mode, private, registry

_STEPS = "diff_verb.steps"
# What daimon's `main` prints whole (its `guarded` passes them through); any other exception is named by type only.
PRINTED_WHOLE: tuple[type[Exception], ...] = (jsonl.Refused, view.ScopeRefused)


@dataclass(frozen=True, slots=True)
class Answer:
    """daimon's answer: `payload` and `lines` when it answered, else its
    refusal `message` and exit code; `ends` the two generations compared
    (`checkpoint` is daimon's `view.Opened`), for what we say beside it."""

    rc: int
    payload: dict[str, Any] | None
    lines: tuple[str, ...]
    message: str | None
    ends: tuple[dict[str, Any], ...]


def refusal() -> str | None:
    """Why `diff` is off in this mode (safe mode: daimon's diff steps are private), or None."""
    current = mode.current()
    if current.allows(_STEPS):
        return None
    return (f"diff is off in safe mode: it is daimon's own `diff`, which needs daimon's diff helpers "
            f"({registry.by_id(_STEPS).where}), and this daimon release does not offer them as tested "
            f"({current.why()}); nothing was read")


def answer(target: str, frm: int | None, to: int | None) -> Answer:
    """`daimon diff [--from frm] [--to to]` of the project `target` (a directory or a slug)."""
    mode.require(_STEPS)
    from daimon_briefing.cli import history  # daimon's CLI module: imported when a diff is asked for

    snap = view.snapshot(target)
    entries = [private.diff_pointer_entry(p) for p in view.pointers(target, snap=snap)]
    older, newer, skipped, rc, message = private.diff_pick(entries, argparse.Namespace(frm=frm, to=to))
    if message is not None:
        return Answer(rc, None, (), message, ())
    if not any(e["checkpoint"] is not None for e in entries):
        return Answer(1, None, (), "no checkpoints in this project yet — nothing to compare", ())
    depth = config.checkpoint_history()
    rows = [] if older is None else history.changes(older["checkpoint"], newer["checkpoint"], snap)
    payload = {
        "schema_version": history.SCHEMA_VERSION,
        "project_slug": store.project_slug(target),
        "history": depth,
        "retained": len(entries),
        "truncated": len(entries) >= depth,
        "from": private.diff_endpoint(older),
        "to": private.diff_endpoint(newer),
        "skipped": skipped,
        "changes": rows,
    }
    return Answer(0, payload, tuple(private.diff_lines(payload, entries[-1]["pointer"])), None,
                  tuple(e for e in (older, newer) if e is not None))
