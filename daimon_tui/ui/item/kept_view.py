"""The last item view, kept after it closes (issue 41: warm `o` at 1 MB, key
to frame). Built, the view costs its compose, mount, styles and first layout
before its first frame; kept, `o` again on the same item shows it again with
none of that, while nothing it read has changed: the item as listed, the
briefing it was opened from (a new one on every reload: any store change),
the world check beside it, the time its ages are told from, the terminal's
size and theme, and (the view checks these) daimon's answer and the
transcript its turns were read from. Anything else, it is built fresh.

At most one per app, installed in Textual so closing it does not remove it;
let go when another is built and when `o` finds anything it read changed
(after a store change: the briefing is a new one). It stays through the app's
rest, when freed memory goes back: what it holds is bounded whatever the
transcript's size (at most nine turns of 20,000 characters, `domain.excerpt`),
and going back to an item after reading the briefing a while is the warm `o`
a person makes."""

from __future__ import annotations

import contextlib
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import ScreenStackError

if TYPE_CHECKING:
    from textual.app import App

    from daimon_tui.models import Item
    from daimon_tui.models.details import ItemDetails
    from daimon_tui.ui.item.screen import ItemScreen

# Textual's name for a kept view (with its id: one let go while still open is uninstalled when it closes).
NAME = "kept-item-view"


@dataclass(frozen=True, slots=True, eq=False)
class OpenedFrom:
    """What the briefing gave a view when it was opened."""

    item: Item
    briefing: object
    world_check: object
    ages_at: float | None
    size: tuple[int, int]
    theme: str

    def same(self, other: OpenedFrom) -> bool:
        return (self.briefing is other.briefing and self.world_check is other.world_check
                and self.item == other.item and self.ages_at == other.ages_at
                and self.size == other.size and self.theme == other.theme)


class KeptView:
    """One app's kept item view (`kept_view(app)`)."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.view: ItemScreen | None = None
        self.opened_from: OpenedFrom | None = None

    def keep(self, view: ItemScreen, opened_from: OpenedFrom) -> None:
        """`view`, about to be opened, is the one kept from now on."""
        self.drop()
        self.view, self.opened_from = view, opened_from
        view.on_closed = self.closed
        self.app.install_screen(view, f"{NAME}-{id(view)}")

    def take(self, opened_from: OpenedFrom, details: ItemDetails | None) -> ItemScreen | None:
        """The kept view shown again for `opened_from`, when nothing it read has changed;
        else None (and it is let go): build one."""
        view = self.view
        if view is None or self.opened_from is None or view in self.app.screen_stack:
            return None
        if self.opened_from.same(opened_from) and view.show_again(details):
            return view
        self.drop()
        return None

    def drop(self) -> None:
        """Let the kept view go (one still open goes when it closes: `closed`)."""
        view, self.view, self.opened_from = self.view, None, None
        if view is not None and view not in self.app.screen_stack:
            self._remove(view)

    def closed(self, view: ItemScreen) -> None:
        """`view` closed: removed unless it is the one kept."""
        if view is not self.view:
            self._remove(view)

    def _remove(self, view: ItemScreen) -> None:
        with contextlib.suppress(ScreenStackError):
            if self.app.is_screen_installed(view):
                self.app.uninstall_screen(view)
            if view.is_attached:
                view.remove()


_kept: weakref.WeakKeyDictionary[App[Any], KeptView] = weakref.WeakKeyDictionary()


def kept_view(app: App[Any]) -> KeptView:
    """`app`'s kept item view (made on first use)."""
    found = _kept.get(app)
    if found is None:
        found = _kept[app] = KeptView(app)
    return found
