"""The one private daimon name transcript reading needs, in one place.

daimon's trust inspector (`why`) judges an item's source through
`inspector._Evidence`: the receipt's source (or, for an old item, the source
inferred from its origin session), daimon's strict `SourceResolver` over the
registered host roots, the parsed transcript, and the `bytes` axis (raw-file
or rendered digest against the receipt). Calling it, rather than re-deriving
each step, makes our locator and bytes words daimon's own, for the item and
for each witness's copy alike. The contract test
(`tests/store/test_transcripts.py::test_evidence_contract`) fails if its
shape moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_briefing import config, inspector, provenance


@dataclass(frozen=True)
class Judged:
    """daimon's judgement of one item's source."""

    source: dict | None
    locator: str  # SourceResolver state
    bytes: str  # unchanged | changed | unknown
    receipt: dict | None  # the valid quote receipt, else None
    path: Path | None  # internal: never rendered
    messages: list[dict] | None


def resolver() -> provenance.SourceResolver:
    """A fresh resolver (its host index is built once per instance, so a kept
    one would miss a transcript written since)."""
    return provenance.SourceResolver(claude_projects=config.claude_projects_dir(), current_author=config.author())


def locate(item: dict[str, Any]) -> tuple[dict | None, provenance.SourceResolution]:
    """Where daimon would look, without reading the transcript (a size check
    comes first)."""
    receipt = item.get("quote_provenance")
    if provenance.valid_quote_receipt(receipt):
        source: dict | None = receipt["source"]
    else:
        source = inspector._legacy_source(item)
    if source is None:
        return None, provenance.SourceResolution("unsupported")
    return source, resolver().resolve(source)


def judge(item: dict[str, Any]) -> Judged:
    """daimon's own evidence axes for `item` (its fields as stored: quote,
    quote_provenance, origin_session, origin_author)."""
    evidence = inspector._Evidence(item, resolver())
    return Judged(
        source=evidence.source if isinstance(evidence.source, dict) else None,
        locator=str(evidence.resolution.state),
        bytes=str(evidence.bytes),
        receipt=evidence.receipt if evidence.bound else None,
        path=evidence.resolution.path,
        messages=evidence.messages,
    )
