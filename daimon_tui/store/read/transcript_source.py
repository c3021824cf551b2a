"""Where daimon finds an item's transcript and whether it changed.

daimon's trust inspector (`why`) judges an item's source in steps, and this
module takes the same steps with daimon's own functions: the receipt's source,
or for an old item the source `inspector._legacy_source` infers from its
origin session (the two private names live in the adapter
`store/daimon_api/evidence.py`, contract `evidence.source`); daimon's strict `provenance.SourceResolver` over the
registered host roots (the `locator` state); `transcript.from_file` to parse;
`inspector._bytes_axis` for the `bytes` state (raw-file or rendered digest
against the receipt). The parse and the digest are kept per file stat, so a
cursor moving over items of one session pays them once; a file that changes
has a new stat. The agreement test (`tests/store/test_transcripts.py`)
compares the words with `why`'s axes.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import evidence as daimon_evidence
from daimon_tui.store.daimon_api.public import api, config, provenance, transcript
from daimon_tui.store.read import transcript_identity

# Parsed transcripts kept (a session's items share one; witnesses add a few).
KEPT = 24
# A resolver (its index of the host's transcripts) is kept at most this long.
RESOLVER_S = 5


@dataclass(frozen=True, slots=True)
class Parsed:
    messages: list[dict] | None  # None: daimon cannot parse it (binary, not UTF-8)
    stamp: tuple[int, int, int]


_kept: OrderedDict[tuple[str, tuple[int, int, int]], Parsed] = OrderedDict()
_digests: dict[tuple[str, tuple[int, int, int], str], str] = {}
_resolver: tuple[tuple, provenance.SourceResolver] | None = None


def resolver() -> provenance.SourceResolver:
    """daimon's resolver. It indexes the host's transcripts once per instance,
    so one is kept only while the Claude Code folders stand as they were, and
    for at most RESOLVER_S (Codex's dated folders are indexed too)."""
    global _resolver
    folders = transcript_identity.host_folders(config.claude_projects_dir())
    key = (folders, config.author(), int(time.monotonic() // RESOLVER_S))
    if _resolver is None or _resolver[0] != key:
        _resolver = (key, provenance.SourceResolver(claude_projects=config.claude_projects_dir(),
                                                     current_author=config.author()))
    return _resolver[1]


@dataclass(frozen=True, slots=True)
class Told:
    """What daimon's public `why` says of an item's transcript: the source it
    names and its `bytes` axis (safe mode: the steps `why` takes are private)."""

    source: dict | None
    bytes: str


def told_by_why(project_dir: Any, item_id: str) -> Told | None:
    """`api.why(include_source=True)`'s source and bytes axis for the item; None when it answers nothing."""
    result = api.why(project_dir, item_id, include_source=True)
    axes = result.get("axes") if isinstance(result, dict) else None
    if not isinstance(axes, dict):
        return None
    source = result.get("source")
    return Told(source=source if provenance.valid_source_ref(source) else None, bytes=str(axes.get("bytes")))


def receipt_of(copy: dict[str, Any]) -> dict | None:
    receipt = copy.get("quote_provenance")
    return receipt if provenance.valid_quote_receipt(receipt) else None


def locate(copy: dict[str, Any], finder: provenance.SourceResolver | None = None, told: Told | None = None,
           legacy: Callable[[dict[str, Any]], dict | None] | None = None,
           ) -> tuple[dict | None, provenance.SourceResolution]:
    """The source daimon names for `copy` (an item as stored, or a witness's
    projection; `told`: as `why` named it) and its resolver's decision; the
    transcript is not read. `legacy`: an old item's source for a pass over
    many items (`daimon_evidence.legacy_sources`)."""
    receipt = receipt_of(copy)
    if told is not None:
        source = told.source
    else:
        source = receipt["source"] if receipt is not None else (legacy or daimon_evidence.legacy_source)(copy)
    if source is None:
        return None, provenance.SourceResolution("unsupported")
    return source, (finder or resolver()).resolve(source)


def stamp_of(path: Path) -> tuple[int, int, int] | None:
    """The file's identity as it stands (inode, size, mtime): a change makes a new one."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def kept(path: Path) -> bool:
    """Whether the transcript at `path`, as it stands, is parsed and kept."""
    stamp = stamp_of(path)
    return stamp is not None and (str(path), stamp) in _kept


def parse(path: Path) -> Parsed | None:
    """daimon's parse of the transcript at `path`, kept per stat; None when it
    cannot be read at all."""
    transcript_identity.note(path)
    stamp = stamp_of(path)
    if stamp is None:
        return None
    key = (str(path), stamp)
    found = _kept.get(key)
    if found is not None:
        _kept.move_to_end(key)
        return found
    try:
        messages: list[dict] | None = transcript.from_file(path)
    except (OSError, UnicodeError, ValueError):
        messages = None
    found = Parsed(messages=messages, stamp=stamp)
    _kept[key] = found
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return found


def bytes_state(receipt: dict | None, resolution: provenance.SourceResolution, parsed: Parsed | None,
                told: Told | None = None) -> str:
    """daimon's `bytes` axis (unchanged | changed | unknown), kept per stat and receipt digest."""
    if told is not None:
        return told.bytes
    if receipt is None or resolution.path is None or parsed is None:
        return "unknown"
    key = (str(resolution.path), parsed.stamp, str(receipt["digest"].get("value")))
    if key not in _digests:
        if len(_digests) > 4 * KEPT:
            _digests.clear()
        _digests[key] = daimon_evidence.bytes_axis(receipt, resolution, parsed.messages)
    return _digests[key]
