"""An item's evidence, for the briefing's detail pane, the item view (`o`)
and the person's own tools: daimon's details about the item, the transcript
around its quote and each witness's words (the judging child answers them
from the snapshot it holds), the world's lines and commits, and the masked
copy of the whole transcript the pager gets.

The value types are the adapters' frozen models, re-exported for the views'
type hints: they carry data only, never a call back into a store.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from pathlib import Path

from daimon_tui.models import Item, ProjectRef
from daimon_tui.models.details import ItemDetails
from daimon_tui.models.evidence import Evidence, FullTranscript, Warmed
from daimon_tui.store.child import judge_service
from daimon_tui.store.read import provisional_details, transcript_identity
from daimon_tui.store.world import evidence as world
from daimon_tui.store.world.evidence import FileEvidence, RefEvidence, WorldEvidence

__all__ = [
    "FileEvidence", "RefEvidence", "WorldEvidence", "full_transcript", "item_details", "kept_now",
    "provisional_item_details", "read_ahead", "transcript_excerpt", "witness_words", "world_evidence",
]


async def item_details(project: ProjectRef, item_id: str, now: float | None) -> ItemDetails:
    """daimon's `why`, the witnesses and the lifecycle of the item (the child answers)."""
    details, _failure = await judge_service.read("details", project, item_id, now)
    return details


async def provisional_item_details(project: ProjectRef, item_id: str, now: float | None) -> ItemDetails | None:
    """The same from the item's own rows while daimon confirms the briefing (None: not answerable yet)."""
    return await asyncio.to_thread(provisional_details.read_provisional, project, item_id, now)


# The excerpts and witnesses' words last shown, in memory only (never in a
# file), each with the identity of what it was read from: `o` again on an
# item shows them with no round trip to the judging child (which waits on the
# app's own busy thread twice: ~50 ms of a 60 ms `o` on an idle machine)
# while none of it changed (`transcript_identity`: a few stats).
KEPT_SHOWN = 32
_shown: OrderedDict[tuple[str, str, str, bool], Evidence] = OrderedDict()


async def _evidence(project: ProjectRef, item_id: str, part: str, brief: bool) -> Evidence:
    key = (project.model_dump_json(), item_id, part, brief)
    kept = _shown.pop(key, None)
    if kept is not None and transcript_identity.unchanged(project, kept):
        _shown[key] = kept
        return kept
    evidence, _failure = await judge_service.read("evidence", project, item_id, part, brief)
    if evidence.identity is not None:
        _shown[key] = evidence
        while len(_shown) > KEPT_SHOWN:
            _shown.popitem(last=False)
    return evidence


def kept_now(project: ProjectRef, item_id: str, part: str, brief: bool) -> Evidence | None:
    """What `transcript_excerpt` ("item") or `witness_words` ("witnesses") would answer now
    from memory, with no read: the evidence kept for it while what it was read from is as it
    was (a few stats). None: it would be read."""
    kept = _shown.get((project.model_dump_json(), item_id, part, brief))
    return kept if kept is not None and transcript_identity.unchanged(project, kept) else None


async def transcript_excerpt(project: ProjectRef, item_id: str, brief: bool) -> Evidence:
    """The turns around the item's quote in its transcript, or why not."""
    return await _evidence(project, item_id, "item", brief)


async def witness_words(project: ProjectRef, item_id: str, brief: bool) -> Evidence:
    """Each corroboration witness's own words, in its own transcript."""
    return await _evidence(project, item_id, "witnesses", brief)


async def read_ahead(project: ProjectRef) -> Warmed:
    """One more quoted item's transcript read ahead, while the person reads."""
    warmed, _failure = await judge_service.read("evidence-warm", project, 1)
    return warmed


async def full_transcript(project: ProjectRef, item_id: str) -> FullTranscript:
    """The whole transcript, masked and inert, with the quoted turn's line (for the pager)."""
    full, _failure = await judge_service.read("transcript", project, item_id)
    return full


async def world_evidence(root: Path, item: Item) -> WorldEvidence:
    """The files the item names, their diff since its session, and its refs' commits (git, offline)."""
    return await asyncio.to_thread(world.world_evidence, root, item.text, item.quote, item.first_seen)
