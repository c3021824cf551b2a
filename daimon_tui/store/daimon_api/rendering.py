"""Rendering: an item's mark and line as daimon's briefing renders them, and
the pieces of `daimon brief`'s text.

An item's line, its mark and its section's field come from daimon's PUBLIC
render (`briefing.Selection` of that one item, `briefing.render_selection`,
`SECTION_HEADERS`, `SECTION_FIELD`, `schema.ITEM_FIELDS`): the same bytes
`briefing._line` writes (contract `rendering.item-line` pins the equality).
Full mode renders the line with `briefing._line` itself, which is faster.
The panel pieces (`rendering.panel`) have no public equivalent: they serve
the briefed/not-briefed split only, off in safe mode.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from daimon_briefing import schema

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.composed import field_of, rendered_line, rendered_mark

_ITEM_LINE = "rendering.item-line"
_PANEL = "rendering.panel"

def section_field(section: str) -> schema.ItemField:
    mode.require(_ITEM_LINE)
    return field_of(section)


def line(item: dict, degraded: bool = False, briefable: bool = False) -> str:
    """The item's line (with its continuation lines) as `daimon brief` prints
    it; `Unavailable` when the contract that pins it to daimon's own broke.
    Full mode takes daimon's `briefing._line` (the same bytes, half the time)."""
    mode.require(_ITEM_LINE)
    if mode.full():
        return private.item_line(item, degraded, briefable)
    return rendered_line(item, degraded, briefable)


def mark(item: Mapping, degraded: bool = False) -> str:
    mode.require(_ITEM_LINE)
    return rendered_mark(item, degraded)


@functools.cache
def _words() -> dict[str, str]:
    return {
        rendered_mark({"trust": "verbatim"}): "verbatim",
        rendered_mark({"trust": "inferred"}): "inferred",
        rendered_mark({}): "untagged",
        rendered_mark({"trust": "verbatim"}, True): "unverified-verbatim",
    }


def mark_words() -> dict[str, str]:
    """daimon's four item marks -> our words for them."""
    mode.require(_ITEM_LINE)
    return _words()


def truncation_marker() -> str | None:
    """What daimon appends to a text it shortened for budget; None in safe
    mode, where nothing is read off daimon's budgeted render."""
    if not mode.allows(_PANEL):
        return None
    return private.truncation_marker()


def selected_line(selection: Any, section: str, item: Any) -> str:
    mode.require(_PANEL)
    return private.selected_line(selection, section, item)


def withheld_trailer(own: Any, team: Any) -> list:
    mode.require(_PANEL)
    return private.withheld_trailer(own, team)


def header_reserve(handoff: Any, checkpoint: Any, drift: Any) -> str:
    """The handoff, version note and drift lines `daimon brief` prints above the items."""
    mode.require(_PANEL)
    return private.header_reserve(handoff, checkpoint, drift)


def panel_lines(project_dir: Any, worldcheck_project: Any, snap: Any = None, notes: Any = ()) -> Any:
    mode.require(_PANEL)
    return private.panel_lines(project_dir, worldcheck_project, snap, notes)
