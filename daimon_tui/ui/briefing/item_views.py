"""The briefing's item-views controller: `o` opens the row's item in the item
view (daimon's answer the pane already has, the evidence), `enter` its whole
text. It asks its screen's list for the row under the cursor and the pane for
what it read; the screen's `action_open_item` and `action_full_text` hand the
keys here. `o` again on the item of the view closed last shows that view again
while nothing it read has changed (`ui.item.kept_view`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from daimon_tui.ui.briefing.detail_pane import detail_extras
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.widgets.item_detail import ItemDetail

if TYPE_CHECKING:
    from daimon_tui.models import ProjectRef
    from daimon_tui.ui.briefing.detail_pane import DetailPane
    from daimon_tui.ui.briefing.world_checks import WorldChecks
    from daimon_tui.ui.widgets.briefing_rows import Row


class ItemViews(Controller):
    def __init__(self, project: ProjectRef, pane: DetailPane, world_checks: WorldChecks,
                 current_row: Callable[[], Row | None]) -> None:
        super().__init__()
        self.project = project
        self.pane = pane
        self.world_checks = world_checks
        self.current_row = current_row  # the list's row under the cursor

    def open_item(self) -> None:
        row = self.current_row()
        if row is None or row.item is None:
            self.notify("No item under the cursor." if row is None else
                        "daimon shows nothing of a withheld item beyond what the pane says.")
            return
        from daimon_tui.ui.item.kept_view import OpenedFrom, kept_view
        from daimon_tui.ui.item.screen import ItemScreen

        item = row.item
        cached = self.pane.details.get(item.id or "")
        ages_at = self.query_one(ItemDetail).ages_at  # as the pane says them
        opened_from = OpenedFrom(item, self.pane.state.briefing, self.world_checks.results.get(item.id or ""),
                                 ages_at, (self.app.size.width, self.app.size.height), self.app.theme)
        kept = kept_view(self.app)
        screen = kept.take(opened_from, cached)
        if screen is None:
            screen = ItemScreen(item, cached, lambda d: detail_extras(d) + self.world_checks.extras(item),
                                read=self.pane.reader(item), project=self.project, ages_at=ages_at)
            kept.keep(screen, opened_from)
        navigator(self.app).open(screen)

    def full_text(self) -> None:
        """`enter` on a row: the item's whole text, however long."""
        from daimon_tui.ui.item.full_text import FullTextScreen

        row = self.current_row()
        if row is None or row.item is None:
            self.notify("No item under the cursor." if row is None else "daimon shows no text for a withheld item.")
            return
        navigator(self.app).open(FullTextScreen(row.item))
