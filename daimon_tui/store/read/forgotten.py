"""Forgotten items, listed from daimon's tombstones: id, kind and when, never
text (there is none: the forget removed it everywhere).

Read from the snapshot daimon's briefing preparation already built
(`forgotten_ids`, `resolutions`), so listing them costs no second fold of
the events ledger."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from daimon_tui.models import ProjectRef, WithheldItem
from daimon_tui.store.daimon_api.public import schema, view


def _kind_of(item_id: str) -> str:
    """daimon mints an item id as `<list key's initial>-<hash>` (policy.stamp_item_ids);
    the initial names the kind even after the text is gone."""
    prefix = item_id.partition("-")[0]
    return next((f.kind for f in schema.ITEM_FIELDS if not f.singleton and f.key[:1] == prefix), "unknown")


def forgotten_items(forgotten_ids: Iterable[str], resolutions: Mapping,
                    skip: frozenset[str] = frozenset()) -> tuple[WithheldItem, ...]:
    """One withheld row per id whose latest event is still a tombstone (a lift
    or `daimon unforget` drops it), except the ids in `skip`; `when` is that
    tombstone's time."""
    out = []
    for item_id in sorted(str(i) for i in forgotten_ids):
        if item_id in skip:
            continue
        latest = resolutions.get(item_id)
        when = latest.get("ts") if isinstance(latest, Mapping) else None
        out.append(WithheldItem(id=item_id, kind=_kind_of(item_id), state="forgotten",
                                when=str(when) if when else None))
    return tuple(out)


def first_forget(project: ProjectRef, item_id: str) -> str | None:
    """When daimon's first tombstone for the item was written (None: never forgotten)."""
    stamps = sorted(e.ts for e in view.item_events(project.target, item_id) if e.tombstone and e.ts)
    return stamps[0] if stamps else None
