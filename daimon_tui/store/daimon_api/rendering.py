"""Rendering: an item's mark and line as daimon's briefing renders them, and
the pieces of `daimon brief`'s text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from daimon_briefing import briefing, render

from daimon_tui.store.daimon_api import mode

_ITEM_LINE = "rendering.item-line"
_PANEL = "rendering.panel"


def mark_words() -> dict[str, str]:
    """daimon's four item marks -> our words for them."""
    mode.require(_ITEM_LINE)
    return {
        briefing._VERBATIM_MARK: "verbatim",
        briefing._INFERRED_MARK: "inferred",
        briefing._UNTAGGED_MARK: "untagged",
        briefing._DEGRADED_MARK: "unverified-verbatim",
    }


def mark(item: Mapping, degraded: bool = False) -> str:
    mode.require(_ITEM_LINE)
    return briefing._mark(item, degraded)


def line(item: dict, degraded: bool = False, briefable: bool = False) -> str:
    mode.require(_ITEM_LINE)
    return briefing._line(item, degraded, briefable)


def section_field(section: str) -> Any:
    mode.require(_ITEM_LINE)
    return briefing._section_field(section)


def truncation_marker() -> str:
    mode.require(_PANEL)
    return briefing._TRUNCATION_MARKER


def selected_line(selection: Any, section: str, item: Any) -> str:
    mode.require(_PANEL)
    return briefing._sel_line(selection, section, item)


def withheld_trailer(own: Any, team: Any) -> list:
    mode.require(_PANEL)
    from daimon_briefing.cli import brief as cli_brief  # the CLI's import is paid only by its own text

    return cli_brief._withheld_trailer(own, team)


def header_reserve(handoff: Any, checkpoint: Any, drift: Any) -> str:
    """The handoff, version note and drift lines `daimon brief` prints above the items."""
    mode.require(_PANEL)
    return render._format_handoff(handoff) + render._format_version_note(checkpoint) + render._format_drift(drift)


def panel_lines(project_dir: Any, worldcheck_project: Any, snap: Any = None, notes: Any = ()) -> Any:
    mode.require(_PANEL)
    return render._panel_lines(project_dir, worldcheck_project, snap, notes)
