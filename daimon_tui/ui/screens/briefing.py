"""Moved to `daimon_tui.ui.briefing.screen` (the briefing view's folder); this
re-export keeps the old import path working while the other views move."""

from daimon_tui.ui.briefing.screen import (
    FILTER_MAX,
    BriefingScreen,
    Row,
    detail_extras,
    header_text,
    row_key,
    world_summary,
)

__all__ = ["FILTER_MAX", "BriefingScreen", "Row", "detail_extras", "header_text", "row_key", "world_summary"]
