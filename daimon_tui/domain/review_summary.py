"""A review's summary: what the person resolved, retracted, restored,
reverified and kept, and what is left. Pure: from our action log's entries
and the review state; ids only, as the log holds."""

from __future__ import annotations

from collections.abc import Iterable

from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.review import ReviewState
from daimon_tui.models import Frozen

# The log's verb → the summary's word. An undo puts an item back: a restore.
VERB_WORDS = {"resolve": "resolved", "retract": "retracted", "restore": "restored", "undo": "restored",
              "reverify": "reverified", "forget": "forgotten"}
DONE = ("applied", "partial")
# The summary's words, in the order it lists them.
WORDS = ("resolved", "retracted", "restored", "reverified", "forgotten", "kept")


class ReviewSummary(Frozen):
    project: str
    since: str | None = None
    resolved: tuple[str, ...] = ()
    retracted: tuple[str, ...] = ()
    restored: tuple[str, ...] = ()
    reverified: tuple[str, ...] = ()
    forgotten: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    reviewed: int = 0
    total: int = 0
    left: tuple[tuple[str, str], ...] = ()  # (row key, what changed) not yet reviewed

    @property
    def acted(self) -> int:
        return len(self.resolved) + len(self.retracted) + len(self.restored) + len(self.reverified) + len(
            self.forgotten)

    def lines(self) -> list[str]:
        out = [f"Review of {self.project}" + (f" since {self.since}" if self.since else "")]
        for word in WORDS:
            ids = getattr(self, word)
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
    for entry in entries:
        if entry.project != project or entry.outcome not in DONE or (since and entry.time < since):
            continue
        word = VERB_WORDS.get(entry.verb)
        if word is None:
            continue
        ids = tuple(r.item_id for r in entry.records if r.outcome == "applied") or entry.item_ids
        for item_id in ids:
            if item_id not in acted[word]:
                acted[word].append(item_id)
            touched.add(item_id)
    live = list(live_keys)
    kept = tuple(k for k in live if k in state.rows and k not in touched and (not since or state.rows[k].at >= since))
    left_rows = tuple(left)
    return ReviewSummary(project=project, since=since, kept=kept,
                         reviewed=len(live) - len(left_rows), total=len(live), left=left_rows,
                         **{w: tuple(ids) for w, ids in acted.items()})
