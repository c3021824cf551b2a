"""Live: watch a bucket and turn appended ledger bytes into provisional updates.

`watch` yields batches of changed file names under the bucket (watchfiles; a
stat poll when the platform cannot notify). `EventsTail` reads only the bytes
appended to `events.jsonl` since the last look, and says when the file was
rewritten instead (forget's scrub, a repair): then only a full read can tell.
`apply_events` folds the appended rows with daimon's own `fold_resolutions` and
moves the affected items, all marked provisional until daimon's full read
confirms them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from daimon_tui.models import Briefing, Item, Section, WithheldItem
from daimon_tui.store.daimon_api.public import store, view

_TAIL = 4096
DEBOUNCE_MS = 60
POLL_SECONDS = 0.5


# mutable because it is a position: each read moves it along the ledger
@dataclass(slots=True)
class EventsTail:
    """Where we are in an append-only ledger: byte offset, inode and the hash of
    the 4 KiB before the offset (a rewrite of the same size changes it)."""

    path: Path
    offset: int = 0
    inode: int | None = None
    tail_hash: str = ""

    def _hash_before(self, handle, offset: int) -> str:
        start = max(0, offset - _TAIL)
        handle.seek(start)
        return hashlib.sha256(handle.read(offset - start)).hexdigest()

    def prime(self) -> None:
        """Start from the file's current end."""
        try:
            with self.path.open("rb") as handle:
                st = os.fstat(handle.fileno())
                self.offset, self.inode = st.st_size, st.st_ino
                self.tail_hash = self._hash_before(handle, st.st_size)
        except OSError:
            self.offset, self.inode, self.tail_hash = 0, None, ""

    def appended(self) -> list[dict] | None:
        """Rows appended since the last call (complete lines only), or None when
        the file was rewritten, shrunk or replaced (then it is primed again)."""
        try:
            with self.path.open("rb") as handle:
                st = os.fstat(handle.fileno())
                if (st.st_ino != self.inode or st.st_size < self.offset
                        or self._hash_before(handle, self.offset) != self.tail_hash):
                    self.prime()
                    return None
                handle.seek(self.offset)
                data = handle.read(st.st_size - self.offset)
        except OSError:
            self.prime()
            return None
        end = data.rfind(b"\n") + 1  # a torn last line waits for its newline
        rows: list[dict] = []
        for line in data[:end].splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # daimon's own reader judges bad lines; the full read reports them
            if isinstance(row, dict):
                rows.append(row)
        if end:
            with self.path.open("rb") as handle:
                self.offset += end
                self.tail_hash = self._hash_before(handle, self.offset)
        return rows


@dataclass(frozen=True, slots=True)
class Change:
    briefing: Briefing
    resolved: int = 0
    reopened: int = 0
    forgotten: int = 0

    def summary(self) -> str:
        parts = [f"{n} {w}" for n, w in ((self.resolved, "resolved"), (self.reopened, "reopened"),
                                          (self.forgotten, "forgotten")) if n]
        return ", ".join(parts)


def _word(event: dict) -> str:
    word = view.lifecycle_word(event)
    return {"resolved": "resolved", "superseded": "superseded", "forgotten": "forgotten"}.get(word, "resolved")


def apply_events(briefing: Briefing, rows: list[dict]) -> Change | None:
    """The briefing with appended lifecycle rows applied provisionally, or None
    when none of them names an item on screen."""
    latest = store.fold_resolutions(rows)
    if not latest:
        return None
    counts = {"resolved": 0, "reopened": 0, "forgotten": 0}
    withheld = list(briefing.withheld)

    def judged(item: Item) -> Item | None:
        event = latest.get(item.id or "")
        if event is None:
            return item
        if not store.is_resolved(event):
            if item.state == "visible":
                return item
            counts["reopened"] += 1
            return item.model_copy(update={"state": "visible", "provisional": True, "closing_status": None,
                                           "closing_ts": None, "closing_source": None, "closing_note": None})
        word = _word(event)
        if word == "forgotten":
            # never shown again, not even struck through: the text is going away
            counts["forgotten"] += 1
            withheld.append(WithheldItem(id=item.id, kind=item.kind, state="forgotten"))
            return None
        if item.state != "visible":
            return item
        counts["resolved"] += 1
        return item.model_copy(update={
            "state": word, "provisional": True, "closing_status": str(event.get("status") or "")[:40] or None,
            "closing_ts": str(event.get("ts") or "") or None,
            "closing_source": str(event.get("source") or "")[:20] or None, "closing_note": None})

    sections: list[Section] = []
    resolved: list[Item] = []
    reopened: dict[str, list[Item]] = {}
    for section in briefing.sections:
        kept = []
        for item in section.items:
            now = judged(item)
            if now is None:
                continue
            (kept if now.state == "visible" else resolved).append(now)
        sections.append(section.model_copy(update={"items": tuple(kept)}))
    for item in briefing.resolved:
        now = judged(item)
        if now is None:
            continue
        if now.state == "visible":
            reopened.setdefault(now.section, []).append(now)
        else:
            resolved.append(now)
    if not any(counts.values()):
        return None
    for key, items in reopened.items():
        at = next((n for n, s in enumerate(sections) if s.key == key), None)
        if at is None:
            title = key.replace("_", " ").capitalize()
            sections.append(Section(key=key, title=title, items=tuple(items)))
        else:
            sections[at] = sections[at].model_copy(update={"items": (*sections[at].items, *items)})
    updated = briefing.model_copy(update={
        "sections": tuple(s for s in sections if s.items), "resolved": tuple(resolved),
        "withheld": tuple(withheld), "provisional": True})
    return Change(updated, **counts)


async def watch(directory: Path, *, on_fallback: Callable[[str], None] | None = None,
                stop: asyncio.Event | None = None) -> AsyncIterator[set[str]]:
    """Batches of changed file names in `directory` (bursts coalesced).
    Falls back to polling stats when the platform cannot notify, and says so once."""
    try:
        from watchfiles import awatch

        async for changes in awatch(directory, debounce=DEBOUNCE_MS, step=20, stop_event=stop,
                                    recursive=False):
            yield {Path(path).name for _change, path in changes}
        return
    except Exception as exc:  # no inotify, too many watches...
        if on_fallback is not None:
            on_fallback(f"live updates fall back to polling every {POLL_SECONDS}s ({type(exc).__name__})")
    seen = _stats(directory)
    while stop is None or not stop.is_set():
        await asyncio.sleep(POLL_SECONDS)
        now = await asyncio.to_thread(_stats, directory)
        changed = {name for name in now.keys() | seen.keys() if now.get(name) != seen.get(name)}
        seen = now
        if changed:
            yield changed


def _stats(directory: Path) -> dict[str, tuple]:
    out = {}
    try:
        for entry in os.scandir(directory):
            try:
                st = entry.stat()
                out[entry.name] = (st.st_ino, st.st_size, st.st_mtime_ns)
            except OSError:
                continue
    except OSError:
        pass
    return out
