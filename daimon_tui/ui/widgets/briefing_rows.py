"""What each selectable row of the briefing list stands for, and what keeps
the cursor on it across a rebuild."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from daimon_tui.models import Item, WithheldItem

if TYPE_CHECKING:
    from daimon_tui.ui.widgets.team_section import TeamRow


@dataclass(frozen=True, slots=True)
class Row:
    item: Item | None = None
    withheld: WithheldItem | None = None
    team: TeamRow | None = None


def row_key(row: Row | None) -> tuple | None:
    """What a row is across a rebuild (a live change, a verb): the cursor stays on it."""
    if row is None:
        return None
    if row.item is not None:
        return ("item", row.item.id) if row.item.id else None
    if row.withheld is not None:  # the same item as its listed row was (a retract keeps the cursor on it)
        return ("item", row.withheld.id) if row.withheld.id else None
    if row.team is not None and row.team.entry is not None:
        return ("team", row.team.entry.item.id)
    if row.team is not None and row.team.quarantine is not None:
        q = row.team.quarantine
        return ("team", q.kind, q.author, q.ts)
    if row.team is not None and row.team.own is not None:
        return ("own-quarantine", row.team.own.quarantine_id)
    return None
