"""What the adapters compose from daimon's PUBLIC names where daimon's own
answer is private: an item's line and mark, a section's field, the demotion
rule, a path's team clone, the drop order's constants and rank percentiles.

Each is pinned to daimon's private answer by a contract (`contracts`), so
this module asks no mode: the checks run it to decide the mode, and the
adapters (`rendering`, `reading`, `team`, `allocating`) guard it with theirs.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from daimon_briefing import briefing, config, marks, schema, store

# -- rendering (contract `rendering.item-line`) --------------------------------

_FIELDS = {(f.section, f.key): f for f in schema.ITEM_FIELDS}


def field_of(section: str) -> schema.ItemField:
    """The checkpoint field a briefing section shows (daimon's own map)."""
    return _FIELDS[briefing.SECTION_FIELD[section]]


@functools.cache
def _section_for(briefable: bool) -> str:
    """A section whose items render with (or without) a resolve handle."""
    return next(s for s in briefing.SECTION_ORDER
                if not field_of(s).singleton and (s in briefing.BRIEFABLE_SECTIONS) == briefable)


def rendered_line(item: dict, degraded: bool = False, briefable: bool = False) -> str:
    """A briefing of this one item, unbudgeted, cut below its section header."""
    section = _section_for(briefable)
    selection = briefing.Selection({section: [item]}, {}, {}, order=[], totals={}, cap=None, stale_days=None,
                                   budget=None, degraded=degraded, rulings=(), count_line=None, panels=[],
                                   overage=0, now=None)
    text = briefing.render_selection(selection)
    return text.partition(f"\n{briefing.SECTION_HEADERS[section]}\n")[2]


def label(rendered: str) -> str | None:
    """The mark inside a rendered item line's first brackets (`✓ verbatim`)."""
    bullet = next((m for m in marks.ITEM_MARKS if rendered.startswith(f"{m} [")), None)
    if bullet is None or "]" not in rendered:
        return None
    return rendered[len(bullet) + 2:].split("]", 1)[0]


@functools.lru_cache(maxsize=256)
def _mark_of(trust: Any, degraded: bool) -> str:
    return label(rendered_line({"trust": trust, "text": ""}, degraded)) or ""


def rendered_mark(item: Mapping, degraded: bool = False) -> str:
    """daimon's trust mark for the item's stored class (not aged): the mark of
    a one-item render holding only that class, kept per class."""
    trust = item.get("trust")
    try:
        return _mark_of(trust, bool(degraded))
    except TypeError:  # an unhashable class (hostile JSON): rendered, not kept
        return label(rendered_line({"trust": trust, "text": ""}, degraded)) or ""


# -- reading (contract `reading.demotes`) ---------------------------------------


def demotion_rule(row: dict, status: str) -> bool:
    """daimon's rule (`store._demotes`): a row demotes its item when it
    resolves it or is a machine's supersede guess. No mode check: the kept
    fold's loop over rows runs only once `install_kept_fold` checked its contracts."""
    return bool(store.is_resolved(row) or status.startswith("supersede-candidate"))


@functools.lru_cache(maxsize=4096)  # a ledger's rows share a few statuses; one may carry an id
def demotes_by_status(status: str) -> bool:
    """`demotion_rule` of a row whose status is `status` (text): daimon's
    `store.is_resolved` reads a row's status alone (contract `reading.demotes`),
    so it is asked once a status, not once a row (~0.2 s of a 200k-row build)."""
    return demotion_rule({"status": status}, status.lower())


# -- team (contract `team.clone-of`) -------------------------------------------


def clone_of(path: Any) -> str:
    """The team clone a path under daimon's team dir belongs to (its first
    segment), or "" (`store._remote_of`)."""
    try:
        return Path(path).relative_to(config.team_dir()).parts[0]
    except (ValueError, IndexError, TypeError):
        return ""


# -- allocating (contract `allocating.drop-order`) -----------------------------

# The drop order's constants, as daimon's allocator documents them: the
# section the reader needs least goes first on a tie; the background sections
# drop before the actionable ones; the newest native decisions and the first
# teammates are a protected floor; an item longer than this many characters is
# shortened (never a verbatim one) before any drops.
TIE_SECTION_RANK = {"beliefs": 0, "uncertainties": 1, "decisions": 2, "open_loops": 3, "external": 4,
                    "contradictions": 5}
BACKGROUND = frozenset({"beliefs", "uncertainties"})
TEAMMATE_FLOOR = 2
ITEM_TRUNCATE_CHARS = 400
PANEL_POINTERS = ("daimon request inbox", "daimon request list", "daimon request inbox")


def item_sections() -> tuple[str, ...]:
    """The sections that hold items (all but the singleton active topic), in print order."""
    return tuple(s for s in briefing.SECTION_ORDER if not field_of(s).singleton)


def weight_type(section: str) -> str:
    """The scoring type a section's items are weighed as (its field's, else its kind)."""
    field = field_of(section)
    return field.scoring_type or field.kind


def rank_fractions(weights: Sequence[float]) -> list[float]:
    """For each weight, the share of the weights strictly lighter than it (0.0:
    the lightest; equal weights share one). A NaN is lighter than nothing and
    has nothing lighter than it, as `<` says (`briefing._rank_pcts`' answer)."""
    n = len(weights)
    ordered = sorted(w for w in weights if w == w)
    return [(bisect_left(ordered, w) if w == w else 0) / n for w in weights]
