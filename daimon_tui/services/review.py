"""The review's own file, per project: which rows the person has seen and
where they stopped (`store.review_file`, at `store.review_place`). Read once
when the briefing opens, then written in order, off the UI thread."""

from __future__ import annotations

import asyncio
from pathlib import Path

from daimon_tui.domain.review import ReviewState
from daimon_tui.store.review_file import StateWriter


class ReviewFile:
    """The review state's file for one project: a slower, older write never lands over a newer one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._writer = StateWriter(path)

    async def save(self, state: ReviewState, sequence: int) -> bool:
        """Write `state` (the `sequence`th); False when the file could not be written."""
        return await asyncio.to_thread(self._writer.write, state, sequence)


def _read(slug: str) -> tuple[Path, tuple[ReviewState, str | None]]:
    from daimon_tui.store import review_file
    from daimon_tui.store.review_place import review_path

    path = review_path(slug)
    return path, review_file.load(path)


async def open_review(slug: str) -> tuple[ReviewFile, ReviewState, str | None]:
    """The project's review file, the state it holds, and a problem to tell
    the person (a file that had to be set aside), or None."""
    # asyncio's thread hop carries the context (daimon's configuration) with it
    path, (state, problem) = await asyncio.to_thread(_read, slug)
    return ReviewFile(path), state, problem
