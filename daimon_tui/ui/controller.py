"""A view's controllers (lazygit's contexts and controllers): plain objects,
each owning one concern of its screen (the live watch, the review, the
teammates' feed). A controller draws nothing. It runs its work on its screen,
so the screen's end ends it; it tells the person and posts messages through
the screen, which owns the view's state and decides what changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.screen import Screen
    from textual.timer import Timer


class Controller:
    def __init__(self) -> None:
        self._host: Screen | None = None

    def attach(self, host: Screen) -> None:
        """The screen this controller serves (from its constructor or `on_mount`)."""
        self._host = host

    @property
    def host(self) -> Screen:
        if self._host is None:
            raise RuntimeError(f"{type(self).__name__} has no screen yet")
        return self._host

    @property
    def screen(self) -> Screen:
        return self.host

    @property
    def app(self) -> App:
        return self.host.app

    @property
    def is_attached(self) -> bool:
        """Its screen is still on the app (a closed screen's work does nothing)."""
        return self._host is not None and self._host.is_attached

    def notify(self, message: str, **options: Any) -> None:
        self.host.notify(message, **options)

    def post_message(self, message: Message) -> bool:
        return self.host.post_message(message)

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer:
        return self.host.set_timer(delay, callback)

    def query_one(self, *args: Any) -> Any:
        return self.host.query_one(*args)
