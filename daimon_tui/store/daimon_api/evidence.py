"""Evidence: how daimon's trust inspector (`why`) names an old item's source
and judges a transcript's bytes, for the transcript excerpt
(`store/read/transcript_source.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from daimon_tui.store.daimon_api import mode, private


def refusal() -> str | None:
    """Why `why`'s private steps are off in this mode (safe mode), or None."""
    return mode.refusal("evidence.source")


def legacy_source(item: dict[str, Any]) -> dict | None:
    """The source `why` infers for an item with no quote receipt (its origin session)."""
    mode.require("evidence.source")
    return private.legacy_source(item)


def legacy_sources() -> Callable[[dict[str, Any]], dict | None]:
    """`legacy_source` for one pass over many items. `_legacy_source` reads
    only the item's `origin_session` and `origin_author`, and that session's
    file, parsed whole for its `source_ref` (~8 ms at 5,000 items, once per
    item): within the pass, the items of one session and author share one
    answer. An item whose two keys are not strings (or absent) is asked alone."""
    memo: dict[tuple[str | None, str | None], dict | None] = {}

    def source(item: dict[str, Any]) -> dict | None:
        key = (item.get("origin_session"), item.get("origin_author"))
        if not all(part is None or isinstance(part, str) for part in key):
            return legacy_source(item)
        if key not in memo:
            memo[key] = legacy_source(item)
        return memo[key]

    return source


def bytes_axis(receipt: dict, resolution: Any, messages: list[dict] | None) -> str:
    """`why`'s `bytes` axis: the transcript's digest against the receipt's."""
    mode.require("evidence.source")
    return str(private.bytes_axis(receipt, resolution, messages))
