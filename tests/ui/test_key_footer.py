"""The footer lets the keys a recompose removed go (issue 29.2: memory over many verbs)."""

from __future__ import annotations

import gc
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Label
from textual.widgets._footer import FooterKey

from daimon_tui.ui.widgets.key_footer import KeyFooter


class _Keys(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "alpha", "Alpha"), Binding("b", "beta", "Beta"), Binding("c", "gamma", "Gamma")]

    def compose(self) -> ComposeResult:
        yield Label("body")
        yield KeyFooter(show_command_palette=False)

    def action_alpha(self) -> None:
        return

    action_beta = action_gamma = action_alpha


def _alive_keys() -> list[FooterKey]:
    gc.collect()
    return [obj for obj in gc.get_objects() if isinstance(obj, FooterKey)]


async def test_a_recomposed_footer_holds_only_its_current_keys() -> None:
    """Textual's Footer binds each key to itself (`data_bind`) and never drops
    that watcher: every recompose (each modal, each verb) left its old keys,
    styles and strips reachable from the footer. Failed before the fix: 12
    keys alive after three recomposes of a footer showing three."""
    # keys another test of this process left alive are not this footer's (under xdist a worker runs many)
    before = {id(key) for key in _alive_keys()}
    app = _Keys()
    async with app.run_test(size=(80, 10)) as pilot:
        footer = app.query_one(KeyFooter)
        await pilot.pause()
        seen: set[int] = set()
        for _ in range(3):
            seen |= {id(child) for child in footer.children}
            app.screen.bindings_updated_signal.publish(app.screen)  # the bindings changed: a modal, a verb
            await pilot.pause()
            await pilot.pause()
        shown = [child for child in footer.children if isinstance(child, FooterKey)]
        assert len(shown) == 3 and not {id(key) for key in shown} & seen  # recomposed: new keys
        alive = [key for key in _alive_keys() if id(key) not in before]
        assert {id(key) for key in alive} == {id(key) for key in shown}
        watchers = getattr(footer, "__watchers", {})
        bound = [node for pairs in watchers.values() for node, _callback in pairs if isinstance(node, FooterKey)]
        assert {id(node) for node in bound} <= {id(key) for key in shown}
