"""The Search view's single truth: the scope asked (every project or this one,
teammates shown or hidden), daimon's last answer and the hits it lists, the
live hits marked for a verb, and whether the recall index is ready. The screen
draws from it; typing, the toggles, answers and marks write into it."""

from __future__ import annotations

from dataclasses import dataclass, field

from daimon_tui.domain.search_query import parse_query
from daimon_tui.models.search import SearchHit, SearchResult


def _asks(text: str, all_projects: bool, team: bool) -> tuple:
    """What a query asks daimon: two texts that ask the same (a trailing
    space, a doubled one) share one answer."""
    parsed = parse_query(text)
    return (" ".join(parsed.words.split()), parsed.facets, parsed.excluded, all_projects, team)


# mutable because it is the view's one state: every keystroke, toggle, answer and mark moves it
@dataclass(slots=True)
class SearchState:
    all_projects: bool = False
    team: bool = True
    result: SearchResult | None = None
    hits: list[SearchHit] = field(default_factory=list)
    # item ids of live hits of this project
    marked: set[str] = field(default_factory=set)
    # True once daimon's recall index is readied (its cold costs paid); `warmup` is that read
    ready: bool = False
    warmup: SearchResult | None = None
    # True once an answer has been drawn: the first one always is, even with no hits
    shown: bool = False

    def empty(self, text: str) -> SearchResult:
        """The answer to a blank query, in the scope asked now: no hits, daimon not asked."""
        return SearchResult(query=text, all_projects=self.all_projects, team=self.team)

    def same_answer(self, text: str) -> SearchResult | None:
        """The last answer, if `text` asks daimon what it asked (the query as typed now)."""
        last = self.result
        if last is None or not last.query.strip():
            return None
        if _asks(last.query, last.all_projects, last.team) != _asks(text, self.all_projects, self.team):
            return None
        return last.model_copy(update={"query": text})

    def answered(self, result: SearchResult) -> bool:
        """Take `result`; whether its hits are to be drawn again (a keystroke that
        leaves the hits as they were keeps the list, and its cursor, untouched)."""
        self.result = result
        redraw = list(result.hits) != self.hits or not self.shown
        if redraw:
            self.hits = list(result.hits)
            self.marked &= {h.item_id for h in self.hits if h.live and h.item_id}
        self.shown = True
        return redraw

    def warmed(self, warmup: SearchResult) -> None:
        self.warmup, self.ready = warmup, True

    def asked_nothing(self) -> bool:
        """No query typed yet (or only spaces): the detail pane invites one."""
        return self.result is None or not self.result.query.strip()

    def hit(self, key: int | None) -> SearchHit | None:
        """The hit a list row's key names, if any (a heading has none)."""
        return self.hits[key] if key is not None and key < len(self.hits) else None

    def toggle_mark(self, item_id: str) -> bool:
        """Mark or unmark a live hit; whether it is marked now."""
        self.marked.symmetric_difference_update({item_id})
        return item_id in self.marked

    def targets(self, current: SearchHit | None) -> list[SearchHit]:
        """What a verb acts on: the marked hits, else the one under the cursor."""
        if self.marked:
            return [h for h in self.hits if h.item_id in self.marked]
        return [current] if current else []
