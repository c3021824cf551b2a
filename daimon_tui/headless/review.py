"""`daimon-tui review [--since TIME] [--json | --markdown]`: the review's
summary for a team lead's notes (read-only: the review state is read, never
written or set aside; an unreadable one is named and the report says all is new).

What was resolved, retracted, restored, reverified and kept since TIME
(default: when the previous review began), and what is new or changed now.
"""

from __future__ import annotations

import json
from typing import TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.domain.review import ReviewState, seen_item, what_changed
from daimon_tui.domain.review_summary import ReviewSummary, summarize
from daimon_tui.models import Briefing


def review_of(briefing: Briefing, state: ReviewState | None, entries: list, since: str | None) -> ReviewSummary:
    state = state or ReviewState()
    keys, left = [], []
    for item in briefing.items():
        if not item.id:
            continue
        keys.append(item.id)
        before = state.rows.get(item.id)
        change = what_changed(before.seen if before else None, seen_item(item, state.salt))
        if change:
            left.append((item.id, change))
    return summarize(briefing.project.slug, entries, state, since=since, live_keys=keys, left=left)


def _texts(briefing: Briefing) -> dict[str, str]:
    return {i.id: i.text for i in briefing.items() if i.id}


def report_json(summary: ReviewSummary, briefing: Briefing, problem: str | None) -> dict:
    texts = _texts(briefing)
    return {
        "project": inert(briefing.project.name or briefing.project.slug, limit=None),
        "since": summary.since,
        **{word: list(getattr(summary, word)) for word in
           ("resolved", "retracted", "restored", "reverified", "forgotten", "kept")},
        "reviewed": summary.reviewed,
        "total": summary.total,
        "new": [{"id": key, "change": change, "text": inert(texts.get(key, ""), limit=None)}
                for key, change in summary.left],
        "problem": inert(problem, limit=None) if problem else None,
    }


def write_markdown(summary: ReviewSummary, briefing: Briefing, out: TextIO, problem: str | None) -> None:
    texts = _texts(briefing)
    name = inert(briefing.project.name or briefing.project.slug, limit=80)
    out.write(f"## Review of {name}" + (f" since {inert(summary.since, limit=40)}" if summary.since else "") + "\n\n")
    for word in ("resolved", "retracted", "restored", "reverified", "forgotten", "kept"):
        ids = getattr(summary, word)
        out.write(f"- **{word}**: {len(ids)}" + (f" ({', '.join(f'`{i}`' for i in ids)})" if ids else "") + "\n")
    out.write(f"- **left**: {len(summary.left)} ({summary.reviewed} of {summary.total} reviewed)\n")
    if summary.left:
        out.write("\n### New or changed\n\n")
        for key, change in summary.left:
            out.write(f"- `{inert(key, limit=60)}` *{change}*: {inert(texts.get(key, ''), limit=300)}\n")
    if problem:
        out.write(f"\n> ⚠ {inert(problem, limit=400)}\n")


def run_review(summary: ReviewSummary, briefing: Briefing, *, as_json: bool, markdown: bool, out: TextIO,
               problem: str | None) -> int:
    if as_json:
        json.dump(report_json(summary, briefing, problem), out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif markdown:
        write_markdown(summary, briefing, out, problem)
    else:
        for line in summary.lines():
            out.write(inert(line, limit=400) + "\n")
        texts = _texts(briefing)
        for key, change in summary.left:
            out.write(f"  new  {inert(key, limit=60)}  «{change}»  {inert(texts.get(key, ''), limit=120)}\n")
        if problem:
            out.write(f"⚠ {inert(problem, limit=400)}\n")
    return 0
