"""Everything the detail pane shows about one item: daimon's `why`, the
corroboration witnesses and the lifecycle timeline, as one serialisable model
(the judging child answers it over a pipe)."""

from __future__ import annotations

from daimon_tui.models import Frozen, Inspection, ProjectRef
from daimon_tui.store.read import history, reader


class ItemDetails(Frozen):
    inspection: Inspection
    witnesses: history.WitnessReport | None = None
    timeline: history.Timeline | None = None


def read_details(project: ProjectRef, item_id: str, now: float | None = None) -> ItemDetails:
    inspection = reader.inspect(project, item_id, now)
    if not inspection.found:
        return ItemDetails(inspection=inspection)
    return ItemDetails(
        inspection=inspection,
        witnesses=history.witnesses(project, item_id),
        timeline=history.timeline(project, item_id),
    )
