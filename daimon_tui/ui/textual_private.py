"""The one place this app reaches into Textual's private API, for what its
public API does not offer. Checked against Textual 8.2.8
(`tests/ui/test_textual_private.py` fails on any other release: look here
again before moving the pin)."""

from __future__ import annotations

import asyncio
import queue
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.dom import DOMNode
from textual.drivers._writer_thread import WriterThread
from textual.widget import Widget
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.app import App
    from textual.driver import Driver

CHECKED_AGAINST = "8.2.8"


def is_footer_key(widget: Widget) -> bool:
    """One of the keys a Footer lists (Textual exports no name for its class)."""
    return isinstance(widget, FooterKey)


def drop_footer_key_watchers(footer: DOMNode) -> None:
    """Drop the watchers Textual's `data_bind` left on `footer` for keys a
    recompose removed. Textual keeps a node's watchers as (node, callback)
    pairs under the attribute `__watchers` and lets one go only when the
    watched value changes; the footer's `compact` never does."""
    watchers = getattr(footer, "__watchers", None)
    if not isinstance(watchers, dict):
        return
    current = set(footer.children)
    for name, pairs in watchers.items():
        if isinstance(pairs, list):
            watchers[name] = [(node, callback) for node, callback in pairs
                              if not isinstance(node, FooterKey) or node in current]


# -- the terminal's end and suspension (ui/terminal_end.py, ui/suspend.py) ---------
# Textual 8.2.8's writer thread takes terminal output through a bounded queue;
# once nobody empties it a write blocks the event loop for good (pinned by
# tests/ui/test_textual_dead_writer.py). Working around that needs its insides.


def event_loop(app: App) -> asyncio.AbstractEventLoop | None:
    """The loop the app runs on (Textual keeps no public handle to it)."""
    return app._loop


def driver_of(app: App) -> Driver | None:
    return app._driver


def writer_of(app: App) -> WriterThread | None:
    """The driver's writer thread, if it has one."""
    return getattr(app._driver, "_writer_thread", None)


def writer_queue(writer: WriterThread) -> queue.Queue[str | None]:
    return writer._queue


def restarts_by_itself(driver: Driver) -> bool:
    """False inside `no_automatic_restart` (the terminal handed to another program)."""
    return bool(driver._auto_restart)


def bind_hidden(app: App, keys: str, action: str) -> None:
    """A key bound on the app after its start, kept out of the footer."""
    app._bindings.bind(keys, action, show=False)


def never_block_writes(write: Callable[[WriterThread, str | None], None],
                       stop: Callable[[WriterThread], None]) -> None:
    """Every writer thread's `write` and `stop`, from now on, the given ones."""
    WriterThread.write = write  # type: ignore[method-assign]
    WriterThread.stop = stop  # type: ignore[method-assign]
