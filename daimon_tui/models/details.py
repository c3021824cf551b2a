"""Everything the detail pane shows about one item: daimon's `why`, the witnesses and the timeline
(read by `store/read/details.py`, answered by the judging child)."""

from __future__ import annotations

import dataclasses

from daimon_tui.models import Inspection
from daimon_tui.models.history import Timeline, WitnessReport
from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ItemDetails(Record):
    inspection: Inspection
    witnesses: WitnessReport | None = None
    timeline: Timeline | None = None
