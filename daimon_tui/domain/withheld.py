"""One word, one number: what "withheld" counts on every surface.

Withheld = every item the briefing holds back from the agent: resolved
(daimon's own `brief` trailer calls them "resolved item(s) withheld"),
quarantined (a retract), forgotten, closed. The header counts it now; Health
and `stats` as the briefing stood at each session, and now. History lists
session files, so its column is another thing under another name, "withheld
now": of one session's items, how many the briefing withholds today.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `brief --as-daimon` imports this and must not load pydantic (tests/test_cli.py)
    from daimon_tui.models import Briefing

# `?` help and docs/views.md define each word in these terms.
WORDS: tuple[tuple[str, str], ...] = (
    ("withheld", "items the briefing holds back from the agent: resolved, retracted (quarantined), forgotten "
                 "or closed. The header counts them now (h shows them); Health and stats as the briefing "
                 "stood at each session, then now"),
    ("withheld now", "History: of that session's items, how many the briefing withholds today"),
)


def withheld_count(briefing: Briefing) -> int:
    """How many items `briefing` withholds (an entry without an id counts too)."""
    return len(briefing.resolved) + len(briefing.withheld)


def withheld_ids(briefing: Briefing) -> frozenset[str]:
    """The ids of the items `briefing` withholds."""
    return frozenset(i.id for i in briefing.resolved if i.id) | frozenset(w.id for w in briefing.withheld if w.id)


def withheld_now(session_items: Iterable[str], withheld: frozenset[str]) -> int:
    """Of one session's item ids, how many are withheld (`withheld_ids` of today's briefing)."""
    return len(set(session_items) & withheld)
