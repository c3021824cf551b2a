"""A search of what daimon remembers, as the Search view and `daimon-tui
search` hold it: recall's hits, each with what it is now (read by
`store/read/search.py`)."""

from __future__ import annotations

import dataclasses
from typing import Literal

from daimon_tui.models import Diagnostic
from daimon_tui.models.records import Record

# One search's answer size.
LIMIT = 50

HitState = Literal["active", "carried", "resolved", "superseded", "contradicted", "quarantined", "forgotten",
                   "withheld", "not carried"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SearchHit(Record):
    """One recalled item and what daimon says it is now."""

    item_id: str | None
    text: str
    quote: str | None = None
    kind: str
    trust: str | None = None
    mark: str
    project_slug: str | None = None
    session_id: str | None = None
    created: str | None = None
    author: str | None = None
    stated_by: str | None = None
    teammate: bool = False
    # a teammate's copy of the project searched from: its slug (daimon files
    # the copy under the teammate's own checkout, `project_slug`)
    shared_project: str | None = None
    state: HitState
    state_detail: str | None = None
    live: bool = False  # in the latest checkpoint of the project searched from
    score: float = 0.0

    @property
    def said_detail(self) -> str | None:
        """The state's detail where it adds to the state ("merged"), not where it repeats it ("resolved")."""
        return self.state_detail if self.state_detail and self.state_detail != self.state else None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SearchResult(Record):
    query: str
    hits: tuple[SearchHit, ...] = ()
    notes: tuple[Diagnostic, ...] = ()
    all_projects: bool = False
    team: bool = True
    seconds: float = 0.0
    # a counted search (`count=True`): how many hits there are, of which `hits` holds
    # recall's first `limit`; `total_capped`: at least that many (the count stopped)
    total: int | None = None
    total_capped: bool = False
    limit: int = LIMIT
