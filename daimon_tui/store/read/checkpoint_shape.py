"""daimon's briefing build over a checkpoint that may hold wrong JSON types.

daimon's `briefing.build` iterates each item field and reads each item; a
field that is a number (`open_questions: 5`) or an item whose field has a
type daimon does not expect ends it with a TypeError, and `daimon brief` with
it. The app keeps daimon's answer for everything well formed: it asks daimon
first, and only when daimon's build raises does it leave out the field (then
the item) that makes it raise, saying which file, field and item.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from daimon_tui.models import Diagnostic
from daimon_tui.store.daimon_api.public import briefing, schema


def _note(where: str, message: str) -> Diagnostic:
    return Diagnostic(level="error", source="daimon-tui", message=f"{where}: {message}")


def _fails(call: Callable[[dict], Any], checkpoint: dict) -> str | None:
    try:
        call(checkpoint)
    except Exception as exc:  # daimon's own failure on this shape
        return f"{type(exc).__name__}: {str(exc)[:80]}"
    return None


def build(checkpoint: Mapping, now: float | None, where: str) -> tuple[dict | None, tuple[Diagnostic, ...]]:
    """`briefing.build(checkpoint, now)`, or, when daimon's build raises, its
    build over the checkpoint without what makes it raise; the notes name it."""
    try:
        return briefing.build(checkpoint, now), ()
    except Exception as exc:
        failed = f"{type(exc).__name__}: {str(exc)[:80]}"
    kept, notes = well_formed(checkpoint, lambda cp: briefing.build(cp, now), where)
    try:
        return briefing.build(kept, now), notes
    except Exception as exc:  # nothing left to narrow: the checkpoint shows no items
        return None, (*notes, _note(where, f"daimon cannot build a briefing from it ({failed}; then "
                                           f"{type(exc).__name__}); no item of it is shown"))


def well_formed(checkpoint: Mapping, call: Callable[[dict], Any], where: str) -> tuple[dict, tuple[Diagnostic, ...]]:
    """A copy of `checkpoint` on which `call` does not raise: blocks that are
    not objects emptied, list fields that are not lists emptied, then every
    item field rebuilt item by item, each item kept only if `call` still
    takes the checkpoint with it (so a clash between two items is caught
    too). Each removal is a note naming the field and the item."""
    kept: dict = copy.deepcopy(dict(checkpoint))
    notes: list[Diagnostic] = []
    for section in sorted({f.section for f in schema.ITEM_FIELDS}):
        if section in kept and kept[section] is not None and not isinstance(kept[section], Mapping):
            notes.append(_note(where, f"{section} is a {type(kept[section]).__name__}, not an object; "
                                      "its items are not shown"))
            kept[section] = {}
    held: list[tuple[schema.ItemField, Any]] = []
    for field in schema.ITEM_FIELDS:  # every item field emptied, then filled again one by one
        block = kept.get(field.section)
        if isinstance(block, dict) and block.get(field.key) is not None:
            held.append((field, block[field.key]))
            block[field.key] = None if field.singleton else []
    for field, value in held:
        block, name = kept[field.section], f"{field.section}.{field.key}"
        if field.singleton:
            block[field.key] = value
            if not isinstance(value, Mapping) or _fails(call, kept):
                notes.append(_note(where, f"{name} is not an item daimon can read; it is not shown"))
                block[field.key] = None
            continue
        if not isinstance(value, list):
            notes.append(_note(where, f"{name} is a {type(value).__name__}, not a list; nothing in it is shown"))
            continue
        for index, item in enumerate(value):
            block[field.key].append(item)
            why = _fails(call, kept)
            if why is None:
                continue
            block[field.key].pop()
            ident = item.get("id") if isinstance(item, Mapping) else None
            label = f"item {index + 1}" + (f" ({ident[:40]})" if isinstance(ident, str) else "")
            notes.append(_note(where, f"{name} {label} has a field daimon cannot read ({why}); it is not shown"))
    return kept, tuple(notes)
