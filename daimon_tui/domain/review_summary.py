"""A review's summary: what the person resolved, retracted, restored,
reverified, undid and kept, and what is left. An act later undone is one
act, said undone ("resolved, then undone"), not a resolve and a restore. Pure: from our action log's entries
and the review state; ids only, as the log holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.review import ReviewState
from daimon_tui.models.records import Record

# The log's verb → the summary's word. An undo puts an item back: a restore.
VERB_WORDS = {"resolve": "resolved", "retract": "retracted", "restore": "restored", "undo": "restored",
              "reverify": "reverified", "forget": "forgotten"}
DONE = ("applied", "partial")
# The summary's words, in the order it lists them.
WORDS = ("resolved", "retracted", "restored", "reverified", "forgotten", "undone", "kept")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReviewSummary(Record):
    project: str
    since: str | None = None
    resolved: tuple[str, ...] = ()
    retracted: tuple[str, ...] = ()
    restored: tuple[str, ...] = ()
    reverified: tuple[str, ...] = ()
    forgotten: tuple[str, ...] = ()
    undone: tuple[tuple[str, str], ...] = ()  # (item id, what was undone: "resolved"…)
    kept: tuple[str, ...] = ()
    reviewed: int = 0
    total: int = 0
    left: tuple[tuple[str, str], ...] = ()  # (row key, what changed) not yet reviewed

    @property
    def acted(self) -> int:
        return len(self.resolved) + len(self.retracted) + len(self.restored) + len(self.reverified) + len(
            self.forgotten) + len(self.undone)

    def listed(self, word: str) -> tuple[str, ...]:
        """The rows under `word`, as the summary names them."""
        if word == "undone":
            return tuple(f"{key} ({done}, then undone)" for key, done in self.undone)
        return getattr(self, word)

    def lines(self) -> list[str]:
        out = [f"Review of {self.project}" + (f" since {self.since}" if self.since else "")]
        for word in WORDS:
            ids = self.listed(word)
            out.append(f"  {word:<11} {len(ids):>4}" + (f"  {', '.join(ids[:8])}" if ids else "")
                       + (" …" if len(ids) > 8 else ""))
        out.append(f"  left        {len(self.left):>4}  ({self.reviewed} of {self.total} reviewed)")
        return out


def summarize(project: str, entries: Iterable[ActionEntry], state: ReviewState, *, since: str | None,
              live_keys: Iterable[str], left: Iterable[tuple[str, str]]) -> ReviewSummary:
    """The log's applied verbs on `project` from `since` on (ISO, compared as
    text like the log's own stamps), the rows reviewed from then without a
    verb (kept), and the rows still new (`left`)."""
    acted: dict[str, list[str]] = {w: [] for w in set(VERB_WORDS.values())}
    touched: set[str] = set()
    mine = [e for e in entries
            if e.project == project and e.outcome in DONE and not (since and e.time < since)]
    # action id → the items its undo put back (an undo of an act in this review folds into it)
    undid: dict[str, set[str]] = {}
    for entry in mine:
        if entry.verb == "undo" and entry.undoes:
            undid.setdefault(entry.undoes, set()).update(_applied(entry))
    undone: list[tuple[str, str]] = []
    folded = {e.action_id for e in mine if e.action_id in undid}
    for entry in mine:
        word = VERB_WORDS.get(entry.verb)
        if word is None or (entry.verb == "undo" and entry.undoes in folded):
            continue
        ids = _applied(entry)
        for item_id in ids:
            if item_id in undid.get(entry.action_id, ()):
                if (item_id, word) not in undone:
                    undone.append((item_id, word))
                touched.add(item_id)
                continue
            if item_id not in acted[word]:
                acted[word].append(item_id)
            touched.add(item_id)
    live = list(live_keys)
    kept = tuple(k for k in live if k in state.rows and k not in touched and (not since or state.rows[k].at >= since))
    left_rows = tuple(left)
    return ReviewSummary(project=project, since=since, kept=kept, undone=tuple(undone),
                         reviewed=len(live) - len(left_rows), total=len(live), left=left_rows,
                         **{w: tuple(ids) for w, ids in acted.items()})


def _applied(entry: ActionEntry) -> tuple[str, ...]:
    return tuple(r.item_id for r in entry.records if r.outcome == "applied") or entry.item_ids
