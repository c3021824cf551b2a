"""`daimon-tui search QUERY`: daimon's recall hits, each with what it is now
(read-only). Exit 0 with hits, 1 with none (headless/exit_codes.py). At most
`--limit` hits are shown, and the answer says how many there are ("2 of 7"). A teammate's copy of the project
searched from names it (`shared_project`) beside the slug daimon files it
under (`project`), and is printed under a heading of its own."""

from __future__ import annotations

import json
from typing import Any, TextIO

from daimon_tui.domain.badges import mark_label
from daimon_tui.domain.inert import inert
from daimon_tui.models.search import SearchHit, SearchResult


def _text(value: str | None) -> str | None:
    return inert(value, limit=None) if value else None


def hit_json(hit: SearchHit) -> dict[str, Any]:
    return {
        "id": _text(hit.item_id),
        "text": inert(hit.text, limit=None),
        "quote": _text(hit.quote),
        "kind": _text(hit.kind),
        "mark": hit.mark,
        "state": hit.state,
        "state_detail": _text(hit.state_detail),
        "live": hit.live,
        "project": _text(hit.project_slug),
        "shared_project": _text(hit.shared_project),
        "session_id": _text(hit.session_id),
        "created": hit.created,
        "author": _text(hit.author),
        "stated_by": _text(hit.stated_by),
        "teammate": hit.teammate,
    }


def result_json(result: SearchResult) -> dict[str, Any]:
    return {
        "query": inert(result.query, limit=None),
        "all_projects": result.all_projects,
        "hits": [hit_json(h) for h in result.hits],
        "total": result.total,
        "total_capped": result.total_capped,
        "limit": result.limit,
        "notes": [inert(n.message, limit=None) for n in result.notes],
    }


def shown_line(result: SearchResult) -> str | None:
    """"2 of 7 hits shown (--limit 2)" when the limit left hits out, else None."""
    if result.total is None or result.total <= len(result.hits):
        return None
    total = f"{result.total}+" if result.total_capped else str(result.total)
    return f"{len(result.hits)} of {total} hits shown (--limit {result.limit}); raise --limit to see more"


def group_heading(hit: SearchHit) -> str:
    """The heading of a teammate's hits in the shared project (their checkout files them under its own slug)."""
    shared, filed = inert(hit.shared_project or "", limit=200), inert(hit.project_slug or "?", limit=200)
    return f"teammate {inert(hit.author or '?', limit=60)} · shared project {shared} (filed under {filed})"


def write_plain(result: SearchResult, out: TextIO) -> None:
    for note in result.notes:
        out.write(f"⚠ {inert(note.message)}\n")
    group: tuple | None = None
    for hit in result.hits:
        if hit.shared_project and (hit.author, hit.shared_project) != group:
            out.write(f"{group_heading(hit)}:\n")
        group = (hit.author, hit.shared_project) if hit.shared_project else None
        state = hit.state + (f" ({inert(hit.said_detail, limit=120)})" if hit.said_detail else "")
        where = " · ".join(inert(v, limit=60) for v in (hit.project_slug, hit.session_id, hit.created, hit.author) if v)
        handle = f" [{inert(hit.item_id)}]" if hit.item_id else ""
        out.write(f"- [{mark_label(hit.mark)}] {inert(hit.kind, limit=20)} · {state}: {inert(hit.text)}{handle}\n")
        out.write(f"    {where}\n")
    if not result.hits:
        out.write("no hit\n")
    said = shown_line(result)
    if said:
        out.write(said + "\n")


def run_search(result: SearchResult, *, as_json: bool, out: TextIO) -> int:
    if as_json:
        json.dump(result_json(result), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        write_plain(result, out)
    return 0 if result.hits else 1
