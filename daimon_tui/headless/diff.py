"""`daimon-tui diff [--from N] [--to M]`: what changed between two retained
generations of the project, as `daimon diff` prints it (read-only).

stdout is daimon's bytes, plain and `--json` (its `Chain:` caveat, its
`schema_version`, `history`, `retained`, `truncated`, stored values as
stored), made inert where a stored text holds a character that would act on a
terminal. The exit code is daimon's: 0 answered (a chain too thin to compare
is an answer), 1 nothing readable to compare, 2 a refused address or a read
that failed. Our own notes (a session edited after signing) go to stderr. In
safe mode daimon's diff steps are off: refused, with our own code (4), so a
script never takes it for one of daimon's answers."""

from __future__ import annotations

import json
from typing import Any, TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.headless.exit_codes import Exit
from daimon_tui.services.diff import DaimonDiff


def inert_tree(value: Any) -> Any:
    """Every string of a JSON value inert; numbers, booleans and nulls as they are."""
    if isinstance(value, str):
        return inert(value, limit=None)
    if isinstance(value, dict):
        return {inert(k, limit=None): inert_tree(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [inert_tree(v) for v in value]
    return value


def _refuse_off(why: str, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    err.write(f"daimon-tui: {inert(why, limit=None)}\n")  # our own sentence, whole: it names what is off
    if as_json:  # as every refusal before daimon reads: a machine caller never parses stderr
        out.write(json.dumps({"refused": [inert(why, limit=None)]}, indent=2, ensure_ascii=False) + "\n")
    return Exit.REFUSED


def run_diff(answer: DaimonDiff, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    if answer.off is not None:
        return _refuse_off(answer.off, as_json=as_json, out=out, err=err)
    for note in answer.notes:
        err.write(f"daimon-tui: ⚠ {inert(note.message)}\n")
    if answer.failed is not None:
        err.write(f"daimon-tui: {inert(answer.failed)}\n")
    elif answer.refused is not None:
        if as_json:  # daimon's contract: a machine caller never parses stderr to learn it said no
            out.write(json.dumps({"refused": inert(answer.refused, limit=None)}, indent=2, ensure_ascii=False) + "\n")
        else:
            err.write(f"daimon-tui: {inert(answer.refused)}\n")
    elif as_json:
        out.write(json.dumps(inert_tree(answer.payload), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write("".join(inert(line, limit=None) + "\n" for line in answer.lines))
    return answer.rc
