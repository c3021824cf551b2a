"""daimon's listing of every project on the machine, as the project picker
holds it (read by `store/read/project_index.py`)."""

from __future__ import annotations

import dataclasses

from daimon_tui.models import Diagnostic, ProjectSummary
from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ProjectListing(Record):
    """Every project daimon lists, with the notes of reading them."""

    rows: tuple[ProjectSummary, ...] = ()
    notes: tuple[Diagnostic, ...] = ()
