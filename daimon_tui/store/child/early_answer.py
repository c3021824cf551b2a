"""The named project's briefing, judged by the early child before the app asks.

A child started before the app's first paint (`early_child`) warms the project
named on the command line. Right after that warm it judges that project's
briefing exactly as the app's first confirming request will ask for it
(`briefing`, on daimon's clock), so the answer waits for the request instead
of the request waiting for the answer (~70 ms at 20k ledger rows). It is
judged and encoded without pydantic, as a headless report is (`records`):
importing pydantic and our models (~0.1 s) comes after it, while the child
waits for the request, not before.

The kept answer stands for that exact request only, once (the first briefing
request ends it, whatever it asks), and only while nothing it was judged on
has moved since: every ledger, the latest pointer and daimon's machine-wide
forget stamp (`verdict_cache.fingerprint`, taken before the read, as
`first_paint.confirm` takes it), and the session files and their receipts
(`paths.session_files_stamp`). Ages are said from the moment it was judged,
so it is used only within `FRESH_S` of that moment. Anything else is read
afresh, as before.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from daimon_tui.models import ProjectRef
    from daimon_tui.models.records import Record

FRESH_S = 2.0


@dataclass(frozen=True, slots=True)
class Judged:
    request: dict[str, Any]  # the request it answers, as the app sends it
    project: ProjectRef  # that request's project
    stamp: tuple[Any, ...]  # what it was judged on (`_stamp`), taken before the read
    answer: bytes  # the answer line, as `judge_child._answer` would write it
    at: float  # time.monotonic() when judged


_judged: Judged | None = None


def _stamp(project: Any) -> tuple[Any, ...]:
    from daimon_tui.store import paths
    from daimon_tui.store.judging import verdict_cache

    return verdict_cache.fingerprint(project), paths.session_files_stamp()


def judge(path: str | None, slug: str | None, confirm: Callable[[ProjectRef, float | None], Record]) -> None:
    """Judge the briefing of the project `--project PATH` / `--slug SLUG` names
    (resolved as the app resolves it) with `confirm` (the `briefing` read) and
    keep the answer line, as `judge_child._answer` would write it (the value as
    `model_dump_json(round_trip=True)` has it, which the app validates back);
    a read that fails keeps nothing (the request reads again and says why)."""
    global _judged
    from daimon_tui.store.read import reader

    project = reader.resolve_project(path, slug)
    request = {"what": "briefing", "project": project.json_tree(), "args": [None]}
    stamp = _stamp(project)
    value = json.dumps(confirm(project, None).json_tree(computed=False))
    _judged = Judged(request, project, stamp, b'{"ok": true, "value": ' + value.encode() + b"}", time.monotonic())


def take(request: Any) -> bytes | None:
    """The kept answer, if `request` is the one it answers and nothing it was
    judged on has moved; None otherwise. The first briefing request ends it,
    whatever it asks; another read (the cursor row's, asked first) leaves it."""
    global _judged
    judged = _judged
    if judged is None or not isinstance(request, dict) or request.get("what") != "briefing":
        return None
    _judged = None
    if request != judged.request or time.monotonic() - judged.at > FRESH_S:
        return None
    try:
        moved = _stamp(judged.project) != judged.stamp
    except Exception:  # cannot tell: read afresh
        return None
    return None if moved else judged.answer
