"""The mark an item shows, in daimon's own words: read off the line daimon's
brief prints for it, else daimon's mark rule on its stored trust class.
Shared by the briefing (`reader`) and search, which needs it without the
briefing's models."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from daimon_tui.domain.badges import MARKS
from daimon_tui.store.daimon_api import composed, rendering

if TYPE_CHECKING:
    from daimon_tui.models import Mark


def stored_mark(item: Mapping, degraded: bool) -> Mark:
    """daimon's mark rule on the item's stored trust class."""
    return rendering.mark_words().get(rendering.mark(item, degraded), "untagged")  # type: ignore[return-value]


_SHOWN_WORD = {style.label: word for word, style in MARKS.items()}


def line_mark(line: str) -> Mark | None:
    """The mark daimon's rendered line leads with, if it is one we know."""
    return _SHOWN_WORD.get(composed.label(line) or "")  # type: ignore[return-value]


def shown_mark(item: Mapping, degraded: bool) -> Mark:
    """The mark daimon's brief prints for a prepared item, read off daimon's
    own line (`? unverified` past the staleness budget, `⚠ unverified
    (verbatim)` on a failed receipt): what every surface shows for it."""
    return line_mark(rendering.line(dict(item), degraded)) or stored_mark(item, degraded)
