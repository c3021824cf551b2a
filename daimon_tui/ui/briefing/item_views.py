"""The briefing's keys into one item: `o` its full view (daimon's answer, the
evidence), `enter` its whole text, `J`/`K` the detail pane half a page. Mixed
into the briefing screen, as `EvidenceActions` is: each asks the screen only
for the row under the cursor and the pane's answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from daimon_tui.ui.briefing.detail_pane import detail_extras
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.widgets.item_detail import ItemDetail

if TYPE_CHECKING:
    from textual.app import App

    from daimon_tui.models import Item, ProjectRef
    from daimon_tui.ui.briefing.detail_pane import DetailPane
    from daimon_tui.ui.briefing.world_checks import WorldChecks
    from daimon_tui.ui.widgets.briefing_rows import Row


class ItemViews:
    project: ProjectRef
    detail_pane: DetailPane
    world_checks: WorldChecks

    if TYPE_CHECKING:
        @property
        def app(self) -> App: ...

        def notify(self, message: str) -> None: ...

        def query_one(self, selector: type[ItemDetail]) -> ItemDetail: ...

        def current_row(self) -> Row | None: ...

        def current_item(self) -> Item | None: ...

    def action_scroll_detail(self, direction: int) -> None:
        """Scroll the detail pane half a page while the list keeps the focus."""
        self.detail_pane.scroll_half_page(direction)

    def action_open_item(self) -> None:
        row = self.current_row()
        if row is None or row.item is None:
            self.notify("No item under the cursor." if row is None else
                        "daimon shows nothing of a withheld item beyond what the pane says.")
            return
        from daimon_tui.ui.item.screen import ItemScreen

        item = row.item
        cached = self.detail_pane.details.get(item.id or "")
        screen = ItemScreen(item, cached, lambda d: detail_extras(d) + self.world_checks.extras(item),
                            read=self.detail_pane.reader(item), ages_at=self.query_one(ItemDetail).ages_at,
                            project=self.project)
        navigator(self.app).open(screen)

    def action_full_text(self) -> None:
        """`enter` on a row: the item's whole text, however long."""
        from daimon_tui.ui.item.full_text import FullTextScreen

        item = self.current_item()
        if item is None:
            self.notify("No item under the cursor." if self.current_row() is None else
                        "daimon shows no text for a withheld item.")
            return
        navigator(self.app).open(FullTextScreen(item))
