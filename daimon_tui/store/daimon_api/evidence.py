"""Evidence: how daimon's trust inspector (`why`) names an old item's source
and judges a transcript's bytes, for the transcript excerpt
(`store/read/transcript_source.py`)."""

from __future__ import annotations

from typing import Any

from daimon_briefing import inspector

from daimon_tui.store.daimon_api import mode


def refusal() -> str | None:
    """Why `why`'s private steps are off in this mode (safe mode), or None."""
    return mode.refusal("evidence.source")


def legacy_source(item: dict[str, Any]) -> dict | None:
    """The source `why` infers for an item with no quote receipt (its origin session)."""
    mode.require("evidence.source")
    return inspector._legacy_source(item)


def bytes_axis(receipt: dict, resolution: Any, messages: list[dict] | None) -> str:
    """`why`'s `bytes` axis: the transcript's digest against the receipt's."""
    mode.require("evidence.source")
    return str(inspector._bytes_axis(receipt, resolution, messages))
