"""`daimon diff [--from N] [--to M]` as daimon answers it, without its usage
line (daimon's verb appends one to the store; a headless report writes nothing).

Every step is daimon's own (`daimon_api.diff_verb`): its pointer window, its
pick of the two generations and its refusals, its change rows, its `--json`
payload and its plain lines (the `Chain:` caveat included), and its exit codes:
0 answered, 1 nothing readable to compare, 2 a refused address or a read that
raised (its `guarded` rule: one line naming the exception's type, nothing shown).

What we add never touches those bytes: a session file changed after signing is
named in `notes`, which the report prints on stderr. In safe mode daimon's diff
steps (private) are off and nothing is read: `off` says why."""

from __future__ import annotations

import dataclasses
from typing import Any

from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import diff_verb
from daimon_tui.store.read.history import receipt_state


@dataclasses.dataclass(frozen=True, slots=True)
class DaimonDiff:
    """daimon's answer: `payload` and `lines` when it answered, else `refused`
    (its refusal, JSON `{"refused": …}` or `error: …`) or `failed` (a read that
    raised, on stderr only). `rc` is daimon's exit code. `off`: safe mode, daimon
    was not asked (the report refuses with its own code, none of daimon's; `rc` is unused)."""

    rc: int
    payload: dict[str, Any] | None = None
    lines: tuple[str, ...] = ()
    refused: str | None = None
    failed: str | None = None
    notes: tuple[Diagnostic, ...] = ()
    off: str | None = None


def _edited(entry: dict[str, Any]) -> Diagnostic | None:
    opened = entry["checkpoint"]
    if opened is None or receipt_state(opened.checkpoint) != "mismatch":
        return None
    return Diagnostic(level="warning", source="daimon-tui",
                      message=f"session {entry['session_id']}: its file was changed after signing (the receipt no "
                      f"longer matches); shown as {entry['pointer']} holds it, the copy daimon's `diff` reads")


def _answer(project: ProjectRef, frm: int | None, to: int | None) -> DaimonDiff:
    said = diff_verb.answer(project.target, frm, to)
    if said.message is not None:
        return DaimonDiff(rc=said.rc, refused=said.message)
    notes = tuple(n for n in map(_edited, said.ends) if n is not None)
    return DaimonDiff(rc=said.rc, payload=said.payload, lines=said.lines, notes=notes)


def daimon_diff(project: ProjectRef, frm: int | None = None, to: int | None = None) -> DaimonDiff:
    """daimon's `diff` of `project` between generations `frm` (older) and `to`."""
    refused = paths.refusals(project.slug)
    if refused:  # the one rule: nothing is read through a link out of the store
        return DaimonDiff(rc=2, failed="; ".join(refused))
    off = diff_verb.refusal()
    if off is not None:  # daimon's diff is its private steps: no public path prints its bytes
        return DaimonDiff(rc=2, off=off)
    try:
        return _answer(project, frm, to)
    except diff_verb.PRINTED_WHOLE as exc:  # daimon's `main` prints these whole
        return DaimonDiff(rc=2, failed=str(exc))
    except Exception as exc:  # daimon's `guarded`: the type, never the message (it can carry content)
        return DaimonDiff(rc=2, failed=f"diff could not be read ({type(exc).__name__}); nothing was shown")
