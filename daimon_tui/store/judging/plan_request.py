"""A verb's plan, asked of the judging child.

The plan reads what daimon says about each item now (`plans.build_plan`:
lineage, the live body, ledger health), and each of those reads needs the
folded snapshot. The judging child holds it, so asking there costs a few
lookups instead of a fold in the app's process. The plan logic itself stays
in `store.write.plans`; this only carries the request over the pipe.
"""

from __future__ import annotations

from typing import Any

from daimon_tui.domain import verbs
from daimon_tui.models import Frozen, ProjectRef
from daimon_tui.store.judging import judge_service

_INPUTS: dict[str, type[Frozen]] = {
    "resolve": verbs.ResolveInput,
    "retract": verbs.RetractInput,
    "reverify": verbs.ReverifyInput,
    "forget": verbs.ForgetInput,
}


def plan(project: ProjectRef, verb: str, item_ids: list[str], data: dict[str, Any] | None = None) -> verbs.Plan:
    """`plans.build_plan` from the request's JSON (the child's side)."""
    from daimon_tui.store.write import plans

    model = _INPUTS.get(verb)
    value = model.model_validate(data) if model is not None and data is not None else None
    return plans.build_plan(verb, tuple(item_ids), project, value)  # type: ignore[arg-type]


async def ask(project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...],
              data: verbs.VerbInput = None) -> verbs.Plan:
    """The plan, by the judging child; if it fails, built in this process."""
    dumped = data.model_dump(mode="json") if data is not None else None
    built, _failure = await judge_service.read("plan", project, verb, list(item_ids), dumped)
    return built
