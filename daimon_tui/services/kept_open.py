"""A later open's first frame: the briefing daimon last confirmed for this
open, its texts from the live checkpoint (`store.judging.kept_layout`), every
row provisional until daimon confirms. Imports neither daimon nor pydantic:
the frame is drawn before either is, and what this cannot vouch for reads as
None (then the open goes the usual way)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.judging import kept_layout, kept_layout_model


@dataclass(frozen=True, slots=True)
class KeptOpen:
    project: ProjectRef
    briefing: Briefing  # provisional, every item too
    receipt_failures: int
    writes_disabled: bool  # as at the last open, until daimon is asked


def _provisional(briefing: Briefing) -> Briefing:
    def each(items: tuple) -> tuple:
        return tuple(item.model_copy(update={"provisional": True}) for item in items)

    sections = tuple(s.model_copy(update={"items": each(s.items)}) for s in briefing.sections)
    return briefing.model_copy(update={"sections": sections, "resolved": each(briefing.resolved),
                                       "provisional": True, "kept_unchecked": False})


def read_kept(project_path: str | None, slug: str | None) -> KeptOpen | None:
    launch = kept_layout.launch_key(project_path, slug)
    found = kept_layout.read_tree(launch)
    if found is None:
        return None
    project_tree, tree = found
    project = kept_layout_model.project_from_tree(project_tree)
    briefing = kept_layout_model.briefing_from_tree(tree)
    if project is None or briefing is None or briefing.project != project or briefing.state == "unavailable":
        return None
    root = kept_layout.kept_root(launch)
    receipts = kept_layout.kept_receipt_failures(root[0], project.slug) if root else 0
    return KeptOpen(project, _provisional(briefing), receipts, kept_layout.kept_writes_disabled(launch))


def read_now(project_path: str | None, slug: str | None) -> KeptOpen | None:
    """The kept first frame of this open, or None. Never raises. A few ms (f-20k ~7): read
    before the app draws anything, as nothing can be drawn before it."""
    try:
        return read_kept(project_path, slug)
    except Exception:  # our own files are untrusted: the usual open follows
        return None


async def remember(project_path: str | None, slug: str | None, project: ProjectRef, disabled: bool) -> None:
    """Name this open's project for the next open (after the first frame: imports daimon)."""
    from daimon_tui.store.judging import kept_layout_save

    await asyncio.to_thread(kept_layout_save.remember_launch, project_path, slug, project, disabled)
