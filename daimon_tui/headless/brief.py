"""`daimon-tui brief`: the briefing model as JSON or plain text (read-only)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TextIO

from daimon_tui.domain.badges import NOT_BRIEFED, badge_label, mark_label
from daimon_tui.domain.inert import inert, is_unsafe
from daimon_tui.domain.withheld import withheld_count

if TYPE_CHECKING:  # types only: `brief --as-daimon` prints daimon's bytes and builds none of them
    from daimon_tui.models import Briefing, Handoff, Item, Section


def item_fields(item: Item) -> dict[str, Any]:
    """What every JSON report says of an item (the briefing's and the team's)."""
    return {
        "id": item.id,
        "kind": item.kind,
        "text": inert(item.text, limit=None),
        "quote": inert(item.quote, limit=None) if item.quote else None,
        "mark": item.mark,
        "badges": [b.token for b in item.badges if b.kind != "noted"],
    }


def _item_json(item: Item) -> dict[str, Any]:
    return {
        **item_fields(item),
        "state": item.state,
        "briefed": item.briefed,
        "daimon_line": inert(item.briefed_line or item.line, limit=None),
        "daimon_world": _recorded_json(item),
    }


def _recorded_json(item: Item) -> dict[str, Any] | None:
    """The world-check verdict daimon recorded for the item (not a live check)."""
    for badge in item.badges:
        if badge.kind in {"recorded-confirmed", "recorded-contradicted"}:
            return {"verdict": badge.kind.removeprefix("recorded-"), "recorded": inert(badge.detail or "")}
    return None


def _handoff_json(handoff: Handoff | None) -> dict[str, Any] | None:
    return {"ts": inert(handoff.ts), "note": inert(handoff.note, limit=None, keep_newlines=True)} if handoff else None


def _section_json(section: Section) -> dict[str, Any]:
    return {
        "key": section.key,
        "title": section.title,
        "header": section.header,
        "briefed": section.briefed_count(),
        "total": len(section.items),
        "note": inert(section.note.strip(), limit=None) if section.note else None,
        "items": [_item_json(i) for i in section.items],
    }


def briefing_json(briefing: Briefing) -> dict[str, Any]:
    """The documented shape: project, session, state, handoff, sections in
    daimon's order (each item saying whether daimon briefs it), withheld, notes."""
    withheld = [{"id": i.id, "kind": i.kind, "state": i.state} for i in briefing.resolved]
    withheld += [{"id": w.id, "kind": w.kind, "state": w.state,
                  **({"forgotten_after": w.forgotten_after} if w.forgotten_after else {})} for w in briefing.withheld]
    return {
        "project": {"slug": inert(briefing.project.slug), "name": inert(briefing.project.name)},
        "session_id": inert(briefing.session_id) if briefing.session_id else None,
        "created": briefing.created,
        "state": briefing.state,
        "handoff": _handoff_json(briefing.handoff),
        "greeting": briefing.greeting,
        "rulings": [inert(r, limit=None) for r in briefing.rulings],
        "topic": inert(briefing.topic, limit=None) if briefing.topic else None,
        "order": list(briefing.order),
        "degraded": briefing.degraded,
        "sections": [_section_json(s) for s in briefing.sections],
        "withheld": withheld,
        "notes": [inert(n.message, limit=None) for n in briefing.notes],
    }


def handoff_lines(handoff: Handoff) -> list[str]:
    return [f"HANDOFF (left deliberately by previous session, {inert(handoff.ts)}):",
            *(f"→ {inert(line)}" for line in handoff.lines)]


def write_plain(briefing: Briefing, out: TextIO) -> None:
    name = inert(briefing.project.name or briefing.project.slug)
    out.write(f"{name} — session {inert(briefing.session_id or '-')} ({briefing.created or '-'}) [{briefing.state}]\n")
    if briefing.handoff:
        out.write("\n" + "\n".join(handoff_lines(briefing.handoff)) + "\n")
    for note in briefing.notes:
        out.write(f"⚠ {inert(note.message)}\n")
    if briefing.greeting:
        out.write(f"\n{briefing.greeting}\n")
    if briefing.rulings:
        out.write("\n")
        for ruling in briefing.rulings:
            out.write(f"{inert(ruling)}\n")
    sections = {s.key: s for s in briefing.sections}
    for key in briefing.order or tuple(sections):
        if key == "active_topic":
            if briefing.topic:
                out.write(f"\nActive topic: {inert(briefing.topic)}\n")
            continue
        section = sections.get(key)
        if section is None:
            continue
        out.write(f"\n{(section.header or section.title).rstrip(':')} ({section.count_label()}):\n")
        for item in section.items:
            badges = "".join(f" [{badge_label(b)}]" for b in item.badges)
            handle = f" [{inert(item.id)}]" if item.id else ""
            gutter = NOT_BRIEFED if item.briefed is False else "-"
            out.write(f"{gutter} [{mark_label(item.mark)}] {inert(item.text)}{badges}{handle}\n")
        if section.note:
            out.write(f"{inert(section.note)}\n")
    if any(i.briefed is False for i in briefing.items()):
        out.write(f"\n{NOT_BRIEFED} marks an item `daimon brief` leaves out for its byte budget\n")
    hidden = withheld_count(briefing)
    if hidden:
        out.write(f"\n{hidden} withheld item(s): `daimon-tui` shows them with `h`\n")


def run_brief(briefing: Briefing, *, as_json: bool, out: TextIO) -> int:
    if as_json:
        json.dump(briefing_json(briefing), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        write_plain(briefing, out)
    return 0


def _control_said(text: str) -> str | None:
    """What in `text` would act on a terminal, in words, or None."""
    sequences = text.count("\x1b") + text.count("\x9b")  # ESC and the one-byte CSI each start one
    if sequences:
        return f"{sequences} control sequence(s) (a title change, a screen clear, …)"
    acting = sum(1 for ch in text if ch not in "\n\t" and is_unsafe(ch))
    return f"{acting} control character(s)" if acting else None


def run_as_daimon(text: str, out: TextIO, err: TextIO, *, raw: bool = False) -> int:
    """daimon's own bytes. To a pipe or file, exactly daimon's. To a terminal
    a control sequence in them (a title change, a screen clear) would act: each
    line is made inert first and stderr says so, unless `raw` asks for daimon's
    bytes there too (then stderr still says what reaches the terminal)."""
    if not out.isatty():
        out.write(text)
        return 0
    shown = "".join(inert(line, limit=None) + "\n" for line in text.splitlines())
    what = _control_said(text)
    if what and raw:
        err.write(f"daimon-tui: --raw: daimon's output holds {what}; they reach this terminal as daimon wrote them\n")
    elif what:
        err.write(f"daimon-tui: daimon's output holds {what}; shown inert on this terminal (as \\x1b…). "
                  "A pipe or a file gets daimon's bytes; --raw sends them to the terminal\n")
    out.write(text if raw else shown)
    return 0
