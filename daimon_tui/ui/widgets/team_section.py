"""The teammates' section of the briefing (toggled with `t`): rows and the detail pane.

Each teammate's block is what `daimon brief --team` shows, in its order, with
its marks and labels. A claim several authors state shows once, with every
author; a claim that is also in the reader's own briefing is a pointer to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from daimon_tui.domain import filtering
from daimon_tui.domain.inert import inert
from daimon_tui.domain.team import (
    TEAMMATE_RELEASE_REFUSAL,
    author_names,
    authors_phrase,
    own_quarantine_phrase,
    remote_phrase,
    teammate_origin,
    withheld_phrase,
)
from daimon_tui.domain.team_verbs import WHY_REFUSED
from daimon_tui.models import Briefing
from daimon_tui.models.team import NOT_CORROBORATION, OwnQuarantine, TeamItem, Teammate, TeamQuarantine, TeamView
from daimon_tui.ui.widgets.item_detail import item_fields
from daimon_tui.ui.widgets.item_row import item_row


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A selectable row of the section: a teammate's item, a quarantine they
    published, or one of your own quarantines (its verbs are the withheld row's)."""

    entry: TeamItem | None = None
    mate: Teammate | None = None
    quarantine: TeamQuarantine | None = None
    own: OwnQuarantine | None = None


def own_quarantine_item(own: OwnQuarantine, briefing: Briefing | None) -> str | None:
    """The id of the withheld item your quarantine holds back in this briefing, if it has one:
    the verbs (`u` restore) act on it as on its withheld row."""
    if briefing is None:
        return None
    return next((w.id for w in briefing.withheld if w.id and w.quarantine_id == own.quarantine_id), None)


OWN_QUARANTINE_UNLISTED = ("this quarantine holds back no item of the latest checkpoint, so there is no row to "
                           "restore here; `daimon trust release <id>` at a terminal releases it")


def _heading(text: str, style: str = "bold underline") -> Text:
    return Text(text, style=style)


def _entry_row(entry: TeamItem, team: TeamView, own_ids: set[str], as_daimon: bool) -> Text:
    # `d`: the line `daimon brief --team` prints (its `_line`), not the reader's briefed line.
    row = item_row(entry.item.model_copy(update={"briefed_line": None}), as_daimon=as_daimon)
    if entry.item.id in own_ids:
        row.append(f"  [also yours above: {author_names(entry, team.author)}]", style="cyan")
    elif entry.shared:
        row.append(f"  [stated by {author_names(entry, team.author)}]", style="cyan")
    return row


def quarantine_row(q: TeamQuarantine) -> Text:
    row = Text("  ")
    row.append("[⛔ teammate's quarantine]", style="bold red")
    row.append(f" {inert(q.kind, limit=30)} · {inert(q.author, limit=60)} · {inert(q.ts, limit=30)}", style="dim")
    row.append(" — only they can release it", style="italic dim")
    return row


Line = tuple[Text, TeamRow | None]


def team_rows(team: TeamView, terms: tuple[filtering.Term, ...], own_ids: set[str],
              as_daimon: bool = False) -> list[Line]:
    """The section's lines in order: headings (None) and selectable rows (`as_daimon`: daimon's lines)."""
    out: list[Line] = []
    out.append((_heading("Teammates — where they left off"), None))
    for note in team.notes:
        out.append((Text(f"⚠ {inert(note.message, limit=400)}", style="yellow"), None))
    if not team.configured:
        out.append((Text("No team memory on this machine: `daimon team init <remote>`, then `daimon team sync`.",
                         style="italic"), None))
        return out
    for remote in team.remotes:
        out.append((Text(remote_phrase(remote), style="dim"), None))
    if not team.teammates:
        out.append((Text("No teammate's briefing for this project in the team copy.", style="italic"), None))
    shown: set[str] = set()
    for mate in team.teammates:
        head = Text.assemble((f"[{inert(mate.author, limit=60)}] ", "bold"), (teammate_origin(mate), "dim"))
        out.append((head, None))
        if mate.topic and not terms:
            label = f" {inert(mate.topic_label)}" if mate.topic_label else ""
            out.append((Text.assemble(("  Active topic: ", "bold"), inert(mate.topic, limit=300), (label, "yellow")),
                        None))
        for entry in mate.decisions:
            if entry.item.id in shown or not filtering.matches(entry.item, terms):
                continue  # a shared claim shows once, under the first teammate stating it
            if entry.item.id:
                shown.add(entry.item.id)
            out.append((_entry_row(entry, team, own_ids, as_daimon), TeamRow(entry=entry, mate=mate)))
        if mate.decisions_note:
            out.append((Text(f"  {inert(mate.decisions_note, limit=300)}", style="dim"), None))
    withheld = withheld_phrase(team)
    if withheld:
        out.append((Text(withheld, style="dim"), None))
    if team.team_quarantines:
        out.append((_heading(f"Withheld by the team ({len(team.team_quarantines)})"), None))
        for q in team.team_quarantines:
            out.append((quarantine_row(q), TeamRow(quarantine=q)))
    if team.own_quarantines:
        out.append((_heading("Your quarantines and the team"), None))
        for own in team.own_quarantines:
            out.append((Text(f"  {inert(own.quarantine_id, limit=40)} {inert(own.kind, limit=30)}: "
                             f"{own_quarantine_phrase(own, team.routed)}", style="dim"), TeamRow(own=own)))
    return out


def team_detail(row: TeamRow, team: TeamView) -> RenderableType:
    if row.own is not None:
        text = Text()
        text.append(f"Your quarantine {inert(row.own.quarantine_id, limit=40)} ", style="bold")
        text.append(f"({inert(row.own.kind, limit=30)}): {own_quarantine_phrase(row.own, team.routed)}\n")
        text.append("u restores it (releases the quarantine) with a preview, as on its withheld row (h); "
                    "z undoes.", style="italic")
        return text
    if row.quarantine is not None:
        q = row.quarantine
        text = Text()
        text.append("[⛔ teammate's quarantine] ", style="bold red")
        text.append(f"{inert(q.kind)} · published by {inert(q.author)} · {inert(q.ts)}\n", style="bold")
        text.append("daimon withholds every item of this kind with that value, in every session, and shows "
                    "no value, key or id for it.\n")
        text.append(TEAMMATE_RELEASE_REFUSAL, style="italic")
        return text
    assert row.entry is not None and row.mate is not None
    about = Text()
    about.append(f"teammate: {inert(row.mate.author)}\n", style="bold")
    about.append(f"{teammate_origin(row.mate)}\n", style="dim")
    if row.entry.shared:
        about.append(f"{authors_phrase(row.entry, team.author)}\n", style="cyan")
    else:
        about.append(f"stated by {author_names(row.entry, team.author)} only. ({NOT_CORROBORATION}.)\n",
                     style="dim")
    about.append("verbs: retract (x) quarantines the value here", style="italic")
    about.append(" and publishes it to the team" if team.publishes_to else " (not published: no team remote)",
                 style="italic")
    about.append("; resolve, reverify, forget and restore are daimon's for your own ids only.\n", style="italic")
    return Group(item_fields(row.entry.item), Text(""), about, Text(WHY_REFUSED, style="dim italic"))
