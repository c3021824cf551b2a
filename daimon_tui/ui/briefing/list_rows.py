"""The briefing list's rows for one briefing and one filter: daimon's sections
in daimon's order, then (when shown) the withheld rows that match the filter.

A withheld row has no text. One this session listed before daimon withheld it
(a retraction, a resolve) still matches the filter its text matched, so
retracting under a filter and pressing `h` finds the row again; a forgotten
item's value is gone, and its row matches on its id, kind and state only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from daimon_tui.domain import filtering
from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import Briefing, Item, WithheldItem
from daimon_tui.ui.widgets.briefing_rows import Row
from daimon_tui.ui.widgets.row_list import Entry

if TYPE_CHECKING:
    from daimon_tui.models.team import TeamView
    from daimon_tui.ui.widgets.team_section import TeamRow

EMPTY_MESSAGES = {
    "no-checkpoint": "daimon has no checkpoint for this project yet. Press P to pick a project that has one.",
    "empty": "The latest checkpoint has nothing worth surfacing.",
    "closed": "daimon withholds every item while a ledger above cannot be read. See the note above.",
    "unavailable": "daimon could not read this project. See the note above.",
}


# mutable because it is a builder: `briefing_rows` adds the list's rows one by one
@dataclass(slots=True)
class ListRows:
    entries: list[Entry] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    # the withheld ids as the list shows them (shortest unique prefix)
    withheld_ids: dict[str, str] = field(default_factory=dict)

    def heading(self, text: Text) -> None:
        self.entries.append(Entry(text))

    def add(self, text: Text, row: Row) -> None:
        self.entries.append(Entry(text, key=len(self.rows)))
        self.rows.append(row)


def withheld_matches(entry: WithheldItem, terms: tuple, seen: dict[str, Item]) -> bool:
    if filtering.matches_withheld(entry, terms):
        return True
    known = seen.get(entry.id or "") if entry.state != "forgotten" else None
    return known is not None and filtering.matches(known.model_copy(update={"state": entry.state}), terms)


def briefing_rows(briefing: Briefing, query: filtering.Query, *, withheld_shown: bool, seen: dict[str, Item],
                  with_world: Callable[[Item], Item], row_text: Callable[[Item], Text],
                  withheld_text: Callable[[WithheldItem, dict[str, str]], Text],
                  lines_under: Callable[[Item], list[Text]] = lambda _item: []) -> ListRows:
    """`lines_under`: the lines listed under an item's row (`d`: those daimon prints under it)."""
    out = ListRows()
    terms = query.terms

    def add_item(item: Item) -> None:
        item = with_world(item)
        out.add(row_text(item), Row(item=item))
        for line in lines_under(item):
            out.heading(line)

    sections = {s.key: s for s in briefing.sections}
    for key in briefing.order or tuple(sections):
        if key == "active_topic":
            if briefing.topic and not terms:
                out.heading(Text.assemble(("Active topic: ", "bold"), inert(briefing.topic, limit=300)))
            continue
        section = sections.get(key)
        if section is None:
            continue
        shown = [i for i in section.items if filtering.matches(with_world(i), terms)]
        if not shown:
            continue
        count = f"{len(shown)} of {len(section.items)} match" if terms else section.count_label()
        out.heading(Text(f"{(section.header or section.title).rstrip(':')} ({count})", style="bold underline"))
        for item in shown:
            add_item(item)
        if section.note and not terms:
            out.heading(Text(f"  {inert(section.note.strip(), limit=300)}", style="dim italic"))
    if withheld_shown or query.wants_withheld:
        resolved = [i for i in briefing.resolved if filtering.matches(i, terms)]
        withheld = [w for w in briefing.withheld if withheld_matches(w, terms, seen)]
        if resolved or withheld:
            out.heading(Text("Withheld", style="bold underline"))
        for item in resolved:
            add_item(item)
        out.withheld_ids = shortest_unique(w.id for w in briefing.withheld if w.id)
        for entry in withheld:
            out.add(withheld_text(entry, out.withheld_ids), Row(withheld=entry))
    return out


def team_rows(out: ListRows, team: TeamView | None, briefing: Briefing | None, terms: tuple, *, as_daimon: bool,
              prompt: Callable[[Text, TeamRow], Text]) -> None:
    """The teammates' section under the briefing's rows (`prompt`: a row's review marker)."""
    from daimon_tui.ui.widgets.team_section import team_rows as section_rows

    if team is None:
        out.heading(Text("Teammates: reading the team copy…", style="dim italic"))
        return
    own_ids = {i.id for i in briefing.items() if i.id} if briefing else set()
    for text, team_row in section_rows(team, terms, own_ids, as_daimon):
        if team_row is None:
            out.heading(text)
        else:
            # daimon's exact line (`d`) carries no review marker, as the briefing's own rows.
            out.add(text if as_daimon else prompt(text, team_row), Row(team=team_row))


def empty_message(briefing: Briefing, query: filtering.Query) -> str:
    """What the list says when it has no row."""
    if query.problems and briefing.state == "briefing":
        return "The filter box says what it does not understand."
    if briefing.state == "no-checkpoint" and briefing.notes:
        return "daimon reads no checkpoint for this project: see the note above. P picks another."
    return EMPTY_MESSAGES.get(briefing.state, "No item matches the filter.")
