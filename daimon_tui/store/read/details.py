"""Everything the detail pane shows about one item: daimon's `why`, the
corroboration witnesses and the lifecycle timeline, as one serialisable model
(the judging child answers it over a pipe).

Each part is read on its own: a part that fails (a ledger row of a type
daimon does not expect, say) becomes a note in that part of the pane, naming
the project's files, and the other parts still show."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.details import ItemDetails
from daimon_tui.models.history import Timeline, WitnessReport
from daimon_tui.store import paths
from daimon_tui.store.read import history, inspector

Part = TypeVar("Part", WitnessReport, Timeline)


def _part(read: Callable[[], Part], failed: Callable[..., Part], project: ProjectRef, item_id: str,
          what: str) -> Part:
    try:
        return read()
    except Exception as exc:
        bucket = paths.bucket_dir(project.slug)
        where = f"{bucket}/events.jsonl and the checkpoints" if bucket else "this project's ledgers"
        message = f"{what} could not be read from {where} ({type(exc).__name__}: {str(exc)[:120]})"
        return failed(item_id=item_id, diagnostics=(Diagnostic(level="error", message=message),))


def read_details(project: ProjectRef, item_id: str, now: float | None = None) -> ItemDetails:
    inspection = inspector.inspect(project, item_id, now)
    if not inspection.found:
        return ItemDetails(inspection=inspection)
    return ItemDetails(
        inspection=inspection,
        witnesses=_part(lambda: history.witnesses(project, item_id), WitnessReport, project, item_id,
                        "the witnesses"),
        timeline=_part(lambda: history.timeline(project, item_id), Timeline, project, item_id,
                       "the lifecycle"),
    )
