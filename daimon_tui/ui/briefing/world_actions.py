"""The briefing's world-checks: `w` the item under the cursor, `W` every carried
item, and the resolve status a contradiction names (the verbs controller
reads the results from the `WorldCheck` widget). Mixed into the briefing
screen, as `EvidenceActions` is; the results stay in the `WorldCheck` widget."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from daimon_tui.models import Briefing, Item, ProjectRef
    from daimon_tui.ui.widgets.world_check import WorldCheck


class WorldActions:
    project: ProjectRef
    now: float | None
    world_checks: WorldCheck

    if TYPE_CHECKING:
        @property
        def briefing(self) -> Briefing | None: ...

        def current_item(self) -> Item | None: ...

    def prefill_status(self, item_id: str | None = None) -> str:
        """A world contradiction names the resolve status (gone, missing, merged);
        for `item_id`, else the item under the cursor."""
        if item_id is None:
            item = self.current_item()
            item_id = item.id if item else None
        return self.world_checks.prefill_status(item_id)

    def action_world_check(self, every: bool) -> None:
        if every:
            items = [i for i in (self.briefing.items() if self.briefing else ()) if i.has_badge("carried")]
        else:
            current = self.current_item()
            items = [current] if current else []
        self.world_checks.start(self.project, items, every=every, now=self.now)
