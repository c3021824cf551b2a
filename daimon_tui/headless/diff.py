"""`daimon-tui diff [--from N] [--to M]`: what changed between two retained
generations of the project, in daimon's numbering (0 is the latest checkpoint,
N the one N writes back) and with daimon's own change rows (read-only).

Exit codes are `daimon diff`'s: 0 answered (a chain too thin to compare is an
answer), 1 nothing readable to compare, 2 a refused address."""

from __future__ import annotations

import json
from typing import Any, TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.models import ProjectRef
from daimon_tui.store.read.history import DiffReport, DiffRow, Generation

_MARKERS = {"added": "+", "restated": "~", "retagged": "~", "withheld": "?"}


def _text(value: str | None) -> str | None:
    return inert(value, limit=None) if value is not None else None


def _end(gen: Generation | None) -> dict[str, Any] | None:
    if gen is None:
        return None
    return {"index": gen.index, "pointer": gen.pointer, "session_id": _text(gen.session_id), "created": gen.created}


def _row(row: DiffRow) -> dict[str, Any]:
    return {key: _text(value) for key, value in row.model_dump().items()}


def diff_json(project: ProjectRef, report: DiffReport) -> dict[str, Any]:
    if report.refused:
        return {"refused": report.refused}
    return {
        "project_slug": inert(project.slug),
        "from": _end(report.older_generation),
        "to": _end(report.newer_generation),
        "skipped": [{"index": g.index, "pointer": g.pointer, "reason": "unreadable"} for g in report.skipped],
        "changes": [_row(r) for r in report.rows],
        "notes": [inert(n.message, limit=None) for n in report.diagnostics],
    }


def row_line(row: DiffRow) -> str:
    """One change as daimon's `diff` prints it: marker, change, id, trust, kind, text, detail."""
    detail = f" ({inert(row.detail)})" if row.detail else ""
    where = f" in {inert(row.where)}" if row.where else ""
    return (f"{_MARKERS.get(row.change, '-')} {row.change:<10} [{inert(row.item_id)}] "
            f"[{inert(row.trust or 'untagged')}] [{inert(row.kind)}] "
            f"{inert(row.text or '(content unavailable)')}{detail}{where}")


def write_plain(project: ProjectRef, report: DiffReport, out: TextIO) -> None:
    out.write(f"Project: {inert(project.slug)}\n")
    for gen in report.skipped:
        out.write(f"skipped {gen.pointer} (unreadable)\n")
    for note in report.diagnostics:
        out.write(f"⚠ {inert(note.message)}\n")
    if report.older_generation is None or report.newer_generation is None:
        out.write("only one readable checkpoint in this chain — nothing to compare yet\n")
        return
    for label, gen in (("From", report.older_generation), ("To  ", report.newer_generation)):
        out.write(f"{label}: {gen.pointer} ({inert(gen.session_id or '?')}, {inert(gen.created or '?')})\n")
    if not report.rows:
        out.write("no changes between these two checkpoints\n")
    for row in report.rows:
        out.write(row_line(row) + "\n")


def run_diff(project: ProjectRef, report: DiffReport, *, as_json: bool, out: TextIO, err: TextIO) -> int:
    if as_json:
        json.dump(diff_json(project, report), out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif report.refused:
        err.write(f"daimon-tui: {inert(report.refused)}\n")
    else:
        write_plain(project, report, out)
    return report.refused_rc if report.refused else 0
