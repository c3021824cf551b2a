"""The footer every screen shows: Textual's own, fitted to the width.

Textual's Footer lays its keys out in one row and clips the row at the edge,
so at 80 columns the last key read "4 a". This one drops whole keys instead,
from the end (the screens list their keys most important first: `?` and `q`
lead), so no key and no word is ever cut.

It also lets its old keys go. Textual's Footer binds each key's `compact` to
itself (`data_bind`): a watcher, (key, setter), kept on the footer and
dropped by Textual only when `compact` changes, which it never does here. The
footer recomposes whenever the bindings change (each modal, each verb), so
every key it ever showed, with its styles and rendered strips, stayed
reachable for as long as the screen lived: ~30 keys, ~1 MB, per verb on the
briefing (issue 29.2, measured by the memory benchmark)."""

from __future__ import annotations

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer

from daimon_tui.ui.navigation import when_shown
from daimon_tui.ui.textual_private import drop_footer_key_watchers, is_footer_key


def _width(child: Widget) -> int:
    """The columns a footer child takes, margins included (measured on its content,
    so a hidden child is measured too)."""
    styles = child.styles
    if is_footer_key(child):
        content = child.get_content_width(Size(0, 0), Size(0, 0))
        return content + styles.gutter.width + styles.margin.width
    return child.outer_size.width + styles.margin.width


class KeyFooter(Footer):
    """A Footer that never cuts a key: what does not fit is left out whole."""

    async def recompose(self) -> None:
        await super().recompose()
        self.forget_removed_keys()
        self.fit()

    def forget_removed_keys(self) -> None:
        """Drop the watchers Textual's `data_bind` left on this footer for keys
        a recompose removed (see the module's note)."""
        drop_footer_key_watchers(self)

    # Textual calls each class's handler in turn: Footer's own `on_mount` still runs.
    def on_mount(self) -> None:
        self.call_after_refresh(when_shown(self, self.fit))

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        if not self.is_attached:
            return
        room = self.size.width
        # The palette key is docked at the right edge: it stays, the rest fits beside it.
        docked = [c for c in self.children if c.has_class("-command-palette")]
        room -= sum(_width(c) for c in docked)
        used = 0
        full = False
        for child in self.children:
            if child in docked:
                continue
            if not full:
                used += _width(child)
                full = used > room
            child.display = not full
