"""Allocating: the per-item terms of daimon's briefing allocator
(`briefing.select`) that `store/read/brief_allocation.py` orders by.

daimon defines what makes an item flagged, carried, stale or old, how the
decision cap splits decisions and how a panel collapses; these are its own
functions (private), called as they are. The drop order built from them, the
rank percentiles and the search for the first selection that fits are ours
(`brief_allocation`); the constants of that order are pinned to daimon's by
the `allocating.drop-order` contract.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from daimon_briefing import briefing, display

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.composed import ITEM_TRUNCATE_CHARS

DROP_ORDER = "allocating.drop-order"

def available() -> bool:
    """May our allocator call daimon's terms in this mode (not in safe mode)?"""
    return mode.allows(DROP_ORDER)


@dataclass(frozen=True, slots=True)
class Terms:
    """daimon's own definitions, one per term of the drop order."""

    is_flagged: Callable[[Any], bool]  # asks something of the reader: drops last
    is_carried: Callable[[Any], bool]  # inherited from an older checkpoint
    stale_days: Callable[[Any], float | None]  # carried past the staleness budget
    age_days: Callable[[Any, float], float]  # the tie-break's age
    decision_floor: Callable[[int], int]  # how many newest native decisions are protected
    split_decisions: Callable[[list, int, float], tuple[list, list]]  # the decision cap
    collapse_panel: Callable[[list, str], list]  # a request panel cut to its count line


def terms() -> Terms:
    """daimon's terms; `Unavailable` when this mode may not call them (daimon's own allocator answers then)."""
    mode.require(DROP_ORDER)
    return Terms(*private.drop_order_terms())


def shortened(item: dict) -> dict:
    """daimon's first budget stage for one item: a non-verbatim text cut to
    `ITEM_TRUNCATE_CHARS` (daimon's own cut, keeping its labelled sections),
    with daimon's stamp that its quote was judged against the stored text, so
    shortening never brings a hidden quote back. A verbatim item as it is."""
    mode.require(DROP_ORDER)
    if item.get("trust") == "verbatim":
        return item
    quote = item.get("quote")
    return {**item, "text": briefing.truncate_preserving_sections(item.get("text", ""), ITEM_TRUNCATE_CHARS),
            "_quote_in_text": bool(quote) and not display.quote_span(quote, item.get("text"))}


def share_lines(selection: briefing.Selection, cache: dict) -> None:
    """One cache of rendered lines for every selection of one allocation, as
    daimon's allocator shares it (a line is a function of its item alone)."""
    mode.require(DROP_ORDER)
    private.share_lines(selection, cache)
