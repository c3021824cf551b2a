"""`w`/`W`: the briefing's world-check controller (`ui.controller`): it runs
the checks of the briefing's items on its screen, moves their progress bar
(`world_progress.WorldProgress`, which only draws, mounted when a check first
starts) and keeps what they found, keyed by item id: the list's badges, the
detail pane's world panel and the verbs' resolve status read them."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from daimon_tui.models import Briefing, Item, ProjectRef
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.read_worker import work

if TYPE_CHECKING:
    from daimon_tui.domain.worldcheck import ItemResult
    from daimon_tui.ui.briefing.world_progress import WorldProgress

# GitPython and the probes are imported when a check runs: the first frame
# waits for every module imported at startup.


def world_summary(items: int, checkable: int, contradicted: int) -> str:
    """What a `w`/`W` run found; "nothing checkable" is not "0 contradicted"."""
    if not checkable:
        return (f"World-check: nothing checkable in {items} item(s) "
                "(no file, branch, PR or dependency claim found).")
    return f"World-checked {checkable} of {items} item(s) with a checkable claim: {contradicted} contradicted."


class WorldChecks(Controller):
    """The runs of one briefing screen and their results."""

    class Checked(Message):
        """A run ended: the list repaints its badges."""

    # Where the bar goes on its screen: below the list and the detail pane.
    BAR_AFTER = "#briefing-body"

    def __init__(self) -> None:
        super().__init__()
        self.progress: WorldProgress | None = None  # mounted when a check first starts
        self.results: dict[str, tuple[ItemResult, float]] = {}
        self.stop_event = threading.Event()

    def running(self) -> bool:
        return any(w.group == "world" and w.is_running for w in self.host.workers)

    def ask(self, project: ProjectRef, briefing: Briefing | None, current: Item | None, *, every: bool,
            now: float | None) -> None:
        """`w` the item under the cursor, `W` every carried item."""
        if every:
            items = [i for i in (briefing.items() if briefing else ()) if i.has_badge("carried")]
        else:
            items = [current] if current else []
        self.start(project, items, every=every, now=now)

    def start(self, project: ProjectRef, items: list[Item], *, every: bool, now: float | None) -> None:
        """Check `items`; a second press while a run is going cancels it."""
        if project.path is None:
            self.notify("World-checks need the project directory; this bucket was opened by slug.",
                        severity="warning")
            return
        if self.running():
            self.stop_event.set()
            self.notify("World-check cancelled.")
            return
        items = [i for i in items if i.id]
        if not items:
            self.notify("Nothing to world-check: no carried item." if every else "No item under the cursor.")
            return
        self.stop_event = threading.Event()
        self.check(project, tuple(items), now)

    async def progress_bar(self) -> WorldProgress:
        if self.progress is None:
            from daimon_tui.ui.briefing.world_progress import WorldProgress

            self.progress = WorldProgress(id="world-progress")
            await self.host.mount(self.progress, after=self.BAR_AFTER)
        return self.progress

    @work(exclusive=True, group="world")
    async def check(self, project: ProjectRef, items: tuple[Item, ...], now: float | None) -> None:
        bar = await self.progress_bar()
        bar.update(total=len(items), progress=0)
        bar.display = len(items) > 1
        stop = self.stop_event

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, progress=done)

        from daimon_tui.services.world_check import check_items

        report = await check_items(
            Path(project.path or "."), [(i.id or "", i.text, i.quote) for i in items],
            cancelled=stop.is_set, progress=progress,
        )
        bar.display = False
        checked_at = now if now is not None else time.time()
        for result in report.items:
            self.results[result.item_id] = (result, checked_at)
        contradicted = sum(1 for r in report.items if r.contradicted)
        checkable = sum(1 for r in report.items if r.results)
        try:
            await asyncio.to_thread(
                self.app.action_log.record,  # type: ignore[attr-defined]
                project=project.slug, verb="world-check", outcome="world-check",
                item_ids=tuple(r.item_id for r in report.items),
                reason=("cancelled " if report.cancelled else "") + f"{contradicted} contradicted",
            )
        except OSError as exc:  # the app's own log never crashes it: the check stands, unlogged
            self.notify(f"World-check not logged: {exc}", severity="error", timeout=10)
        if report.repo_error:
            self.notify(f"World-check: {report.repo_error}", severity="warning")
        self.notify(world_summary(len(report.items), checkable, contradicted),
                    severity="error" if contradicted else ("information" if checkable else "warning"))
        self.post_message(self.Checked())

    # ---- what the results say ---------------------------------------------------

    def with_world(self, item: Item) -> Item:
        """The item with its world badge, when a check found something."""
        found = self.results.get(item.id or "")
        if found is None:
            return item
        from daimon_tui.domain.world_badges import with_world

        return with_world(item, found[0])

    def extras(self, item: Item) -> tuple:
        """The detail pane's world panel for the item."""
        found = self.results.get(item.id or "")
        if not found:
            return ()
        from daimon_tui.ui.widgets.world_detail import world_renderable

        return (world_renderable(*found),)

    def prefill_status(self, item_id: str | None) -> str:
        """A world contradiction names the resolve status (gone, missing, merged)."""
        found = self.results.get(item_id or "")
        from daimon_tui.domain.world_badges import suggested_status

        return suggested_status(found[0] if found else None)

    def confirmed(self, item_ids: tuple[str, ...]) -> frozenset[str]:
        """The items whose claim the world-check confirmed (a resolve flags them)."""
        from daimon_tui.domain.worldcheck import badge_for

        return frozenset(i for i in item_ids if i in self.results and badge_for(self.results[i][0]) == "world-checked")
