"""No exception from a read ends the app.

Textual ends the app when a worker raises. A worker here reads daimon's store
(or asks the judging child, which reads it): a file with a field of a type
nobody expected must not close the person's session. `work` is Textual's
decorator (on a widget or screen, or on a controller: run on its screen)
around a coroutine that catches what the read raised and shows it
in the pane that asked (the detail pane for an item's reads, else a message
on the screen), naming the project's files; everything else keeps working.
Cancellation is not an error and passes through.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import textual
from textual.dom import DOMNode

from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.services import session

# Workers whose answer fills the detail pane: their failure is shown there.
DETAIL_GROUPS = frozenset({"detail", "inspect", "item-full"})
# The class of the pane that shows a detail read's failure (`ItemDetail`): found by it, not imported,
# as widgets run their reads through `work` here.
FAILURE_PANE = "shows-read-failures"


def work(method: Callable[..., Any] | None = None, /, **options: Any) -> Any:
    """`textual.work` for a coroutine method whose failure is shown, not fatal."""

    def decorate(function: Callable[..., Any]) -> Any:
        if not inspect.iscoroutinefunction(function):
            return textual.work(function, **options)
        what = str(options.get("group") or options.get("name") or function.__name__)

        @functools.wraps(function)
        async def guarded(node: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await function(node, *args, **kwargs)
            except Exception as error:
                show_failure(node, what, error)
                return None

        on_node = textual.work(guarded, **options)

        @functools.wraps(function)
        def start(node: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(node, DOMNode):
                return on_node(node, *args, **kwargs)
            # a controller (`ui.controller`): its work runs on its screen, which ends it
            return node.host.run_worker(functools.partial(guarded, node, *args, **kwargs),
                                        name=options.get("name") or function.__name__,
                                        group=options.get("group", "default"),
                                        exclusive=options.get("exclusive", False),
                                        exit_on_error=options.get("exit_on_error", True))

        return start

    return decorate(method) if method is not None else decorate


def failure_message(what: str, error: BaseException, project: ProjectRef | None) -> str:
    """What the person reads when a read failed: what, why, and which files."""
    try:
        bucket = session.bucket_dir(project.slug) if project is not None else None
    except Exception:
        bucket = None
    where = f"daimon's files in {bucket}" if bucket is not None else "daimon's store"
    detail = f"{type(error).__name__}: {str(error)[:200]}"
    return inert(f"{what.replace('-', ' ')} failed while reading {where} ({detail}); nothing was changed, "
                 "the rest keeps working", limit=600)


def show_failure(node: Any, what: str, error: BaseException) -> None:
    """The failure in the pane that asked. Never raises: it runs where the
    read's exception was caught."""
    from textual.css.query import NoMatches

    try:
        project = getattr(node, "project", None) or getattr(node.app, "project", None)
        message = failure_message(what, error, project if isinstance(project, ProjectRef) else None)
        if what in DETAIL_GROUPS:
            try:
                node.query_one(f".{FAILURE_PANE}").show_failure(message)
                return
            except NoMatches:
                pass
        screen = getattr(node, "screen", node)
        title = str(getattr(screen, "TITLE", None) or type(screen).__name__)
        node.app.notify(message, title=f"{inert(title, limit=40)}: a read failed", severity="error", timeout=12,
                        markup=False)
    except Exception:  # the screen is closing: nothing left to show it on
        return
