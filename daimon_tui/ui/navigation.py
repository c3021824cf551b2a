"""Navigation in one place: every screen the app opens, closes or switches to
goes through the `Navigator` here (the app owns one; `navigator(app)` finds
it). Textual's stack is its only state.

Two rules hold whoever asks:
- Going back never closes the bottom screen (the briefing, or the projects
  list when there is no briefing): Esc never quits, and `q` quits only from
  the briefing, which the app decides, not this module.
- A request that names a screen no longer on top does nothing. A key still
  bubbling from a screen just closed, a worker answering after its screen went,
  a second Enter on a dialog already dismissed: each would otherwise close the
  screen under it, down to an empty stack.

`when_shown` is the same rule for callbacks: a timer or an after-refresh
callback whose widget has left its screen does nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen

P = ParamSpec("P")
R = TypeVar("R")

# How long a key waits for the screen opened just before it to finish mounting.
MOUNT_WAIT_S = 2.0


class Navigator:
    """Every push, pop and switch of one app's screens."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._mounting: Callable[[], Awaitable[None]] | None = None

    @property
    def depth(self) -> int:
        """Screens open above Textual's own default screen (1: only the bottom one)."""
        return len(self.app.screen_stack) - 1

    def on_top(self, screen: Screen[Any]) -> bool:
        return bool(self.app.screen_stack) and self.app.screen_stack[-1] is screen

    def open(self, screen: Screen[Any], callback: Callable[[Any], object] | None = None) -> Any:
        """Open `screen` on top (`callback` gets what it is dismissed with); awaitable until it is mounted."""
        mounting = self.app.push_screen(screen, callback)
        self._mounting = mounting if callable(mounting) else None
        return mounting

    async def open_and_wait(self, screen: Screen[R]) -> R:
        """Open `screen` and wait for what it is dismissed with."""
        answer: asyncio.Future[R] = asyncio.get_running_loop().create_future()

        def answered(result: R) -> None:
            if not answer.done():
                answer.set_result(result)

        self.open(screen, answered)
        return await answer

    async def until_mounted(self) -> None:
        """Wait (at most `MOUNT_WAIT_S`) until the screen opened last has
        mounted. The app asks before each key: a key that closes a screen
        half-built would leave its `on_mount` to run on children already gone."""
        mounting, self._mounting = self._mounting, None
        if mounting is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(mounting(), MOUNT_WAIT_S)

    def back(self, screen: Screen[Any] | None = None) -> bool:
        """Close `screen` (default: the one on top) when it is on top and not
        the bottom one; else nothing. Whether it closed."""
        if screen is not None and not self.on_top(screen):
            return False
        if self.depth <= 1:
            return False
        self.app.pop_screen()
        return True

    def answer(self, screen: Screen[Any], result: Any = None) -> bool:
        """`screen.dismiss(result)` (its callback gets the result) when it is on
        top, even at the bottom (a dialog hosted alone); else nothing."""
        if not self.on_top(screen):
            return False
        screen.dismiss(result)
        return True

    def back_to(self, screen: Screen[Any]) -> bool:
        """Close every screen above `screen`. Whether `screen` is on top now."""
        if screen not in self.app.screen_stack:
            return False
        while not self.on_top(screen) and self.depth > 1:
            self.app.pop_screen()
        return self.on_top(screen)

    def back_to_depth(self, depth: int) -> None:
        """Close screens until `depth` are open (never fewer than the bottom one)."""
        while self.depth > max(1, depth):
            self.app.pop_screen()

    def replace_all(self, screen: Screen[Any]) -> None:
        """`screen` alone, at the bottom (another project's briefing)."""
        while self.depth > 0:
            self.app.pop_screen()
        self.open(screen)


def navigator(app: App[Any]) -> Navigator:
    """The app's navigator (a test's host app that has none gets one over its stack)."""
    found = getattr(app, "navigator", None)
    return found if isinstance(found, Navigator) else Navigator(app)


def when_shown(node: DOMNode, callback: Callable[P, R]) -> Callable[P, R | None]:
    """`callback` for a timer or `call_after_refresh`: it does nothing once
    `node` has left its screen (the screen closed before it ran)."""

    @wraps(callback)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R | None:
        return callback(*args, **kwargs) if node.is_attached else None

    return guarded


class GoesBack:
    """A screen's side: its Esc (and `q`) bindings name `go_back`, which asks
    the navigator to close this screen, if it is on top and not the bottom one."""

    def action_go_back(self) -> None:
        if isinstance(self, Screen):
            navigator(self.app).back(self)
