"""`daimon-tui brief`: the briefing model as JSON or plain text (read-only)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from daimon_tui.domain.badges import badge_label, mark_label
from daimon_tui.domain.inert import inert
from daimon_tui.models import Briefing, Item


def _item_json(item: Item) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind,
        "text": inert(item.text, limit=None),
        "quote": inert(item.quote, limit=None) if item.quote else None,
        "mark": item.mark,
        "badges": [b.token for b in item.badges if b.kind != "noted"],
        "state": item.state,
    }


def briefing_json(briefing: Briefing) -> dict[str, Any]:
    """The documented shape: project, session, state, sections, withheld, notes."""
    withheld = [{"id": i.id, "kind": i.kind, "state": i.state} for i in briefing.resolved]
    withheld += [{"id": w.id, "kind": w.kind, "state": w.state} for w in briefing.withheld]
    return {
        "project": {"slug": inert(briefing.project.slug), "name": inert(briefing.project.name)},
        "session_id": inert(briefing.session_id) if briefing.session_id else None,
        "created": briefing.created,
        "state": briefing.state,
        "rulings": [inert(r, limit=None) for r in briefing.rulings],
        "topic": inert(briefing.topic, limit=None) if briefing.topic else None,
        "degraded": briefing.degraded,
        "sections": [
            {"key": s.key, "title": s.title, "items": [_item_json(i) for i in s.items]} for s in briefing.sections
        ],
        "withheld": withheld,
        "notes": [inert(n.message, limit=None) for n in briefing.notes],
    }


def write_plain(briefing: Briefing, out: TextIO) -> None:
    name = inert(briefing.project.name or briefing.project.slug)
    out.write(f"{name} — session {inert(briefing.session_id or '-')} ({briefing.created or '-'}) [{briefing.state}]\n")
    for note in briefing.notes:
        out.write(f"⚠ {inert(note.message)}\n")
    if briefing.rulings:
        out.write("\nStanding rulings:\n")
        for ruling in briefing.rulings:
            out.write(f"{inert(ruling)}\n")
    for section in briefing.sections:
        out.write(f"\n{section.title}:\n")
        for item in section.items:
            badges = "".join(f" [{badge_label(b)}]" for b in item.badges)
            handle = f" [{inert(item.id)}]" if item.id else ""
            out.write(f"- [{mark_label(item.mark)}] {inert(item.text)}{badges}{handle}\n")
    if briefing.topic:
        out.write(f"\nActive topic: {inert(briefing.topic)}\n")
    hidden = len(briefing.resolved) + len(briefing.withheld)
    if hidden:
        out.write(f"\n{hidden} withheld item(s): `daimon-tui` shows them with `h`\n")


def run_brief(briefing: Briefing, *, as_json: bool, out: TextIO) -> int:
    if as_json:
        json.dump(briefing_json(briefing), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        write_plain(briefing, out)
    return 0
