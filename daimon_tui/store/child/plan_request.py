"""A verb's plan, asked of the judging child.

The plan reads what daimon says about each item now (`plans.build_plan`:
lineage, the live body, ledger health), and each of those reads needs the
folded snapshot. The judging child holds it, so asking there costs a few
lookups instead of a fold in the app's process. The plan logic itself stays
in `store.write.plans`; this only carries the request over the pipe.
"""

from __future__ import annotations

from typing import Any

from daimon_tui.domain import undo_plan, verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.models import ProjectRef
from daimon_tui.models.records import Record
from daimon_tui.store.child import judge_service

_INPUTS: dict[str, type[Record]] = {
    "resolve": verbs.ResolveInput,
    "retract": verbs.RetractInput,
    "reverify": verbs.ReverifyInput,
    "forget": verbs.ForgetInput,
}


def plan(project: ProjectRef, verb: str, item_ids: list[str], data: dict[str, Any] | None = None) -> verbs.Plan:
    """`plans.build_plan` from the request's JSON (the child's side); for
    `undo`, `plans.build_undo_plan` of the logged action it names."""
    from daimon_tui.store.write import plans

    if verb == "undo":
        undo = data or {}
        return plans.build_undo_plan(project, ActionEntry.model_validate(undo.get("entry")),
                                     tuple(ActionEntry.model_validate(e) for e in undo.get("skipped") or ()))
    model = _INPUTS.get(verb)
    value = model.model_validate(data) if model is not None and data is not None else None
    return plans.build_plan(verb, tuple(item_ids), project, value)  # type: ignore[arg-type]


async def ask(project: ProjectRef, verb: verbs.VerbName, item_ids: tuple[str, ...],
              data: verbs.VerbInput = None) -> verbs.Plan:
    """The plan, by the judging child; if it fails, built in this process."""
    dumped = data.model_dump(mode="json") if data is not None else None
    built, _failure = await judge_service.read("plan", project, verb, list(item_ids), dumped)
    return built


async def ask_undo(project: ProjectRef, entry: ActionEntry | None,
                   skipped: tuple[ActionEntry, ...] = ()) -> verbs.Plan:
    """The plan undoing `entry` (the action `z` chose, stepping over
    `skipped`), by the judging child; if it fails, built in this process."""
    if entry is None:
        return undo_plan.nothing_to_undo(project.slug, skipped)
    data = {"entry": entry.model_dump(mode="json"), "skipped": [e.model_dump(mode="json") for e in skipped]}
    built, _failure = await judge_service.read("plan", project, "undo", list(entry.item_ids), data)
    return built
