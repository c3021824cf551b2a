"""No exception from a read ends the app.

Textual ends the app when a worker raises (`exit_on_error=True` by default).
A worker here reads daimon's store (or asks the judging child, which reads
it): a file with a field of a type nobody expected must not close the
person's session. `work` is Textual's decorator with `exit_on_error=False`;
the app turns a failed worker into a message in the pane that asked
(`failure_message`), naming the project's files, and everything else keeps
working.
"""

from __future__ import annotations

from typing import Any

import textual
from textual.worker import Worker

from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.store import paths


def work(method: Any = None, /, **options: Any) -> Any:
    """`textual.work`, but a worker that raises leaves the app running."""
    options.setdefault("exit_on_error", False)
    return textual.work(method, **options) if method is not None else textual.work(**options)


def failure_message(worker: Worker, project: ProjectRef | None) -> str:
    """What the person reads when a worker failed: what failed, why, and
    which files it was reading."""
    error = worker.error
    what = (worker.group or worker.name or "a read").replace("-", " ")
    bucket = paths.bucket_dir(project.slug) if project is not None else None
    where = f"daimon's files in {bucket}" if bucket is not None else "daimon's store"
    detail = f"{type(error).__name__}: {str(error)[:200]}" if error is not None else "no reason given"
    return inert(f"{what} failed while reading {where} ({detail}); nothing was changed, the rest keeps working")


# Workers whose answer fills the detail pane: their failure is shown there.
DETAIL_GROUPS = frozenset({"detail", "inspect", "item-full"})


def show_failure(worker: Worker, project: ProjectRef | None) -> None:
    """The failure in the pane that asked: the detail pane for an item's
    reads, else a message on the screen that started the worker."""
    from rich.text import Text
    from textual.css.query import NoMatches
    from textual.widgets import Static

    from daimon_tui.ui.widgets.item_detail import ItemDetail

    message = failure_message(worker, project)
    node = worker.node
    if worker.group in DETAIL_GROUPS:
        try:
            pane: Static = node.query_one(ItemDetail)  # type: ignore[attr-defined]
        except (NoMatches, AttributeError):
            pass
        else:
            pane.update(Text(f"⚠ {message}", style="yellow"))
            return
    screen = getattr(node, "screen", None)
    title = str(getattr(screen, "TITLE", None) or getattr(screen, "title", None) or type(screen).__name__)
    app = node.app  # type: ignore[attr-defined]
    app.notify(message, title=f"{title}: a read failed", severity="error", timeout=12, markup=False)
