"""`daimon-tui brief --team`: the teammates' sections as JSON or plain text (read-only).

The plain text keeps `daimon brief --team`'s own lines (header, `[author]`,
topic, `- [mark] text [labels]`) so the two read alike, and adds what daimon
leaves out: who else states a claim, where each copy came from, what the team
withholds.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.domain.team import (
    TEAMMATES_HEADER,
    authors_phrase,
    own_quarantine_phrase,
    remote_phrase,
    shared_claims,
    teammate_origin,
    withheld_phrase,
)
from daimon_tui.headless.brief import briefing_json, item_fields, write_plain
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.models.team import NOT_CORROBORATION, SYNC_COMMAND, TeamItem, TeamView
from daimon_tui.services.as_of import team_as_of
from daimon_tui.services.team import team_now


def _item_json(entry: TeamItem) -> dict[str, Any]:
    item = entry.item
    return {
        **item_fields(item),
        "line": inert(item.line, limit=None),
        "authors": [inert(a) for a in entry.authors],
        "shared": entry.shared,
    }


def team_json(team: TeamView) -> dict[str, Any]:
    return {
        "author": inert(team.author),
        "sync_command": SYNC_COMMAND,
        "remotes": [
            {"slug": inert(r.slug), "branch": inert(r.branch), "last_sync": r.last_sync, "unpushed": r.unpushed,
             "pending": r.pending, "authors": [inert(a) for a in r.authors], "scope": [inert(s) for s in r.scope],
             "granted_by_env": r.granted_by_env,
             "config_warning": inert(r.config_warning, limit=None) if r.config_warning else None}
            for r in team.remotes
        ],
        "teammates": [
            {
                "author": inert(m.author),
                "session_id": inert(m.session_id) if m.session_id else None,
                "created": inert(m.created) if m.created else None,
                "project_slug": inert(m.project_slug) if m.project_slug else None,
                "remotes": [inert(r) for r in m.remotes],
                "arrived": inert(m.arrived) if m.arrived else None,
                "topic": inert(m.topic, limit=None) if m.topic else None,
                "topic_label": inert(m.topic_label) if m.topic_label else None,
                "decisions": [_item_json(d) for d in m.decisions],
                "decisions_note": inert(m.decisions_note, limit=None) if m.decisions_note else None,
            }
            for m in team.teammates
        ],
        "shared_claims": [
            {"id": e.item.id, "text": inert(e.item.text, limit=None), "authors": [inert(a) for a in e.authors],
             "note": NOT_CORROBORATION}
            for e in shared_claims(team)
        ],
        "withheld": {"resolved": team.resolved_withheld, "quarantined": team.quarantined_withheld,
                     "quarantined_by_teammates": team.team_quarantined_withheld},
        "team_quarantines": [{"kind": inert(q.kind), "author": inert(q.author), "ts": inert(q.ts)}
                             for q in team.team_quarantines],
        "own_quarantines": [
            {"quarantine_id": inert(q.quarantine_id), "kind": inert(q.kind), "published_to": list(q.published_to),
             "missing_from": list(q.missing_from), "unknown": list(q.unknown)}
            for q in team.own_quarantines
        ],
        "routed": team.routed,
        "publishes_to": [inert(r) for r in team.publishes_to],
        "notes": [inert(n.message, limit=None) for n in team.notes],
    }


def write_team_plain(team: TeamView, out: TextIO) -> None:
    for note in team.notes:
        out.write(f"⚠ {inert(note.message)}\n")
    if not team.configured:
        out.write(f"\nNo team memory on this machine (`daimon team init <remote>`, then `{SYNC_COMMAND}`).\n")
        return
    for remote in team.remotes:
        out.write(f"\n{remote_phrase(remote)}\n")
    if team.teammates:
        out.write(f"\n{TEAMMATES_HEADER}\n")
    for mate in team.teammates:
        out.write(f"\n[{inert(mate.author)}]\n  {teammate_origin(mate)}\n")
        if mate.topic:
            label = f" {inert(mate.topic_label)}" if mate.topic_label else ""
            out.write(f"  Active topic: {inert(mate.topic)}{label}\n")
        if mate.decisions:
            out.write("  Decisions made:\n")
        for entry in mate.decisions:
            out.write(f"  {inert(entry.item.line)}\n")
            if entry.shared:
                out.write(f"      {authors_phrase(entry, team.author)}\n")
        if mate.decisions_note:
            out.write(f"  {inert(mate.decisions_note)}\n")
    withheld = withheld_phrase(team)
    if withheld:
        out.write(f"\n{withheld}\n")
    if team.team_quarantines:
        out.write(f"\n{len(team.team_quarantines)} quarantine(s) published by teammates are in force "
                  "(only they can release them):\n")
        for q in team.team_quarantines:
            out.write(f"  {inert(q.kind)}  {inert(q.author)}  {inert(q.ts)}\n")
    if team.own_quarantines:
        out.write("\nYour quarantines:\n")
        for own in team.own_quarantines:
            out.write(f"  {inert(own.quarantine_id)}  {inert(own.kind)}  {own_quarantine_phrase(own, team.routed)}\n")



def run_brief_team(briefing: Briefing, project: ProjectRef, *, as_json: bool, out: TextIO,
                   when: str | None = None) -> int:
    """The briefing, then the team: one JSON object (`team` beside the briefing's keys) or text.
    With `when`, the team as it stood then (the briefing is the caller's as-of briefing)."""
    team = asyncio.run(team_as_of(project, when) if when else team_now(project, now=briefing.now or None))
    if as_json:
        json.dump({**briefing_json(briefing), "team": team_json(team)}, out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        write_plain(briefing, out)
        write_team_plain(team, out)
    return 0
