"""The Queue view's world-check controller (`ui.controller`): while the person
reads, it checks the queue's items against git and the files, keeps what it
found in the view's state, and moves a contradicted entry not yet seen into
the contradicted lane."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from daimon_tui.models import ProjectRef
from daimon_tui.services import queue as queue_service
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.queue.state import QueueState
from daimon_tui.ui.read_worker import work


class QueueWorldChecks(Controller):
    def __init__(self, state: QueueState, project: ProjectRef, checked: Callable[[], None]) -> None:
        super().__init__()
        self.state = state
        self.project = project
        self.checked = checked  # the screen draws again

    @work(exclusive=True, group="queue-world")
    async def check(self) -> None:
        queue = self.state.queue
        if queue is None:
            return
        # GitPython and the probes load with the first check, not at startup.
        try:
            from daimon_tui.domain import worldcheck
            from daimon_tui.services.world_check import check_items
        except ImportError:
            return
        items = [
            (e.item.id, e.item.text, e.item.quote) for e in queue.entries if e.item is not None and e.item.id
        ]
        if not items or not self.project.path:
            return
        try:
            report = await check_items(Path(self.project.path), items)
        except Exception:
            return
        contradicted = {}
        for result in report.items:
            findings = [r.finding for r in result.results]
            if not findings:
                continue
            words = "; ".join(f"{f.outcome.value}: {f.evidence}" for f in findings)
            self.state.world[result.item_id] = words
            self.state.world_results[result.item_id] = result
            if result.contradicted:
                contradicted[result.item_id] = "; ".join(
                    f.evidence for f in findings if f.outcome is worldcheck.Outcome.CONTRADICTED
                )
        if contradicted and self.state.queue is not None:
            self.state.queue = queue_service.with_world_findings(
                self.state.queue, contradicted, keep=self.state.kept_in_place())
        if self.is_attached:
            self.checked()
