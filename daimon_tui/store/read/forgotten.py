"""Forgotten items, listed from daimon's standing tombstones: id, kind and
when, never text (there is none: the forget removed it everywhere)."""

from __future__ import annotations

from daimon_briefing import api, schema, store, view

from daimon_tui.models import ProjectRef, WithheldItem


def _kind_of(item_id: str) -> str:
    """daimon mints an item id as `<list key's initial>-<hash>` (policy.stamp_item_ids);
    the initial names the kind even after the text is gone."""
    prefix = item_id.partition("-")[0]
    return next((f.kind for f in schema.ITEM_FIELDS if not f.singleton and f.key[:1] == prefix), "unknown")


def forgotten_items(project: ProjectRef, skip: frozenset[str] = frozenset()) -> tuple[WithheldItem, ...]:
    """Every id a standing tombstone still withholds in this project (a lift
    or `daimon unforget` drops it), except the ids in `skip`."""
    target = project.target
    out = []
    for standing in store.project_standing(target).values():
        for item_id in standing.ids:
            if item_id in skip:
                continue
            looked = api.lookup(target, item_id)
            kind = looked.kind if isinstance(looked, view.Withheld) else "unknown"
            if kind == "unknown":
                kind = _kind_of(item_id)
            stamps = [e.ts for e in view.item_events(target, item_id) if e.ts and e.tombstone]
            out.append(WithheldItem(id=item_id, kind=str(kind), state="forgotten",
                                    when=max(stamps) if stamps else None))
    return tuple(out)
