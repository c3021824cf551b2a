"""Handing the terminal over and taking it back: ctrl+z / fg, and a program
(`$PAGER`, `$EDITOR`) run in the app's terminal. Neither may deadlock the
app (issue 43).

Textual 8.2.8 resumes `App.suspend()` in the statement after its `yield`,
unguarded: a body that raises leaves the driver stopped while the app runs
on, and its next 30 writes block the event loop for good (Textual #6692).
`suspended` resumes whatever the body does.

Textual's SIGTSTP handler stops application mode inside the signal handler,
i.e. wherever the main thread was (inside the writer queue's lock, a put of
its own: a deadlock), and its SIGCONT handler restarts it on any SIGCONT,
one with no stop before it (a hangup's) included. Here the stop is carried
out by the event loop (`stop_and_resume`, scheduled by `terminal_end`'s
watcher, which the signal wakes), and SIGCONT restarts nothing by itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from daimon_tui.ui.textual_private import bind_hidden, driver_of, restarts_by_itself, writer_of

if TYPE_CHECKING:
    from textual.app import App

# Attempts at taking the terminal back after a `bg`: each one stops the
# process (SIGTTOU) until the next `fg`, so they never spin.
RESUME_ATTEMPTS = 20


def bind_ctrl_z(app: App) -> None:
    """ctrl+z suspends to the shell (`fg` resumes), as in any terminal program:
    Textual turns the terminal's own ctrl+z off. A focused text field keeps
    its own ctrl+z (undo)."""
    bind_hidden(app, "ctrl+z", "app.suspend_process")


def handed_over(app: App) -> bool:
    """The terminal is another program's now (inside `suspended`)."""
    driver = driver_of(app)
    return driver is not None and not restarts_by_itself(driver)


@contextlib.contextmanager
def suspended(app: App) -> Iterator[None]:
    """`app.suspend()` that always takes the terminal back: an exception in the
    body is raised once the app is back. Meanwhile ctrl+c is the program's
    (the app ignores SIGINT; a handler, not SIG_IGN, so the program does not
    inherit the ignore)."""
    failure: BaseException | None = None
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _ignore) if main else None
    try:
        with app.suspend():
            try:
                yield
            except BaseException as error:  # raised below, once the app is back
                failure = error
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    if failure is not None:
        raise failure


def _ignore(_signum: int, _frame: Any) -> None:
    return


def stop_and_resume(app: App, ending: Callable[[], bool], lost: Callable[[], None]) -> None:
    """ctrl+z (or a SIGTSTP from outside), run by the event loop: the terminal
    restored, the process stopped until `fg`, then application mode back.
    `ending` says the terminal's end has begun; `lost` ends the app when the
    terminal cannot be taken back (both `terminal_end`'s, which schedules this)."""
    driver = driver_of(app)
    if driver is None or not driver.can_suspend or handed_over(app):
        return
    with driver.no_automatic_restart():
        driver.suspend_application_mode()
        os.kill(os.getpid(), signal.SIGSTOP)  # returns at `fg` (or `bg`)
        if not _resume(app, driver, ending, lost):
            return
    app.app_resume_signal.publish(app)
    app.refresh(layout=True)


def _resume(app: App, driver: Any, ending: Callable[[], bool], lost: Callable[[], None]) -> bool:
    """Application mode back; after a `bg`, Textual's start stops the process
    again (SIGTTOU) and returns unstarted: tried again at the next `fg`."""
    for _ in range(RESUME_ATTEMPTS):
        if ending():
            return False
        driver.resume_application_mode()
        writer = writer_of(app)
        if writer is not None and writer.is_alive():
            return True
    lost()  # the terminal cannot be taken back: it is gone for the app
    return False
