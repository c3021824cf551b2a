"""The Queue view's single truth: the queue as read, the entry the cursor is on
(by position: past the last entry is the sitting's summary), what this sitting
did to each entry, the entries seen, the world-check's findings, and whether a
verb is running. The screen draws from it; its controllers write their results
into it and ask the screen to draw again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from daimon_tui.domain import queue_order

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.models.queue import QueueEntry, TriageQueue


def _now_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# mutable because it is the view's one state: every key, verb and read moves it
@dataclass(slots=True)
class QueueState:
    queue: TriageQueue | None = None
    index: int = 0
    # entry key -> what this sitting did to it: a tally word (`queue_order.TALLY_WORD`), or "skip"
    done: dict[str, str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    # item id -> the world-check's findings in words, and its whole result
    world: dict[str, str] = field(default_factory=dict)
    world_results: dict[str, ItemResult] = field(default_factory=dict)
    # The summary lists the action log's lines from this moment on.
    sitting_start: str = field(default_factory=_now_stamp)
    busy: bool = False

    @property
    def current(self) -> QueueEntry | None:
        if self.queue is None or self.index >= len(self.queue.entries):
            return None
        return self.queue.entries[self.index]

    def read(self, queue: TriageQueue) -> None:
        """The queue (read again): the cursor stays where it was, or past the last entry."""
        self.queue = queue
        self.index = min(self.index, len(queue.entries))

    def move(self, delta: int) -> None:
        total = len(self.queue.entries) if self.queue else 0
        self.index = max(0, min(total, self.index + delta))

    def progress(self) -> str:
        total = len(self.queue.entries) if self.queue else 0
        position = min(self.index + 1, total)
        return queue_order.progress_line(position, total, self.done)

    def decided(self, entry: QueueEntry, outcome: str) -> None:
        """A verb on `entry` ended with `outcome`: a tally word moves the cursor on."""
        self.done[entry.key] = outcome
        if outcome in queue_order.TALLY_WORD and outcome != "skip":
            self.index += 1

    def kept_in_place(self) -> frozenset[str]:
        """Entries a world-check finding must not move: seen, acted on, or under the cursor."""
        current = self.current
        return frozenset(self.seen | set(self.done) | ({current.key} if current else set()))

    def world_words(self, entry: QueueEntry) -> str | None:
        return self.world.get(entry.item.id) if entry.item is not None and entry.item.id else None

    def resolve_status(self, entry: QueueEntry) -> str:
        """The status the resolve modal preselects: from this sitting's
        world-check the way the briefing does, else the entry's evidence."""
        found = self.world_results.get(entry.item.id or "") if entry.item is not None else None
        if found is not None and found.contradicted:
            from daimon_tui.domain.world_badges import suggested_status

            return suggested_status(found)
        return entry.prefill_status or "resolved"
