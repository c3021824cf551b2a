"""`daimon-tui stats [--json]`: the Health view's numbers per retained
session, then now (read-only). Exit 0, or 5 when no session could be read
(headless/exit_codes.py).

Plain output fits WIDTH columns: sessions are named by the app's short ids
(`domain/short_ids.py`, the full ids are in `--json`), and a store with more
sessions than fit is printed in blocks of columns, oldest first."""

from __future__ import annotations

import asyncio
import json
from typing import TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.headless.exit_codes import Exit
from daimon_tui.models import ProjectRef
from daimon_tui.services.health import METRICS, HealthReport, health_report

WIDTH = 120


def report_json(report: HealthReport) -> dict:
    return {
        "project": inert(report.project.name or report.project.slug, limit=None),
        "retained_sessions": report.retained,
        "metrics": [key for key, _label in METRICS],
        "sessions": [{"session_id": inert(s.session_id, limit=None), "created": inert(s.created or "", limit=None)
                      or None, **{key: s.counts.get(key, 0) for key, _ in METRICS}} for s in report.sessions],
        "diagnostics": [inert(d.message, limit=None) for d in report.diagnostics],
    }


def _columns(report: HealthReport) -> list[tuple[str, dict[str, int]]]:
    short = shortest_unique(s.session_id for s in report.sessions)
    return [(inert(short[s.session_id], limit=40), s.counts) for s in report.sessions]


def write_table(report: HealthReport, out: TextIO) -> None:
    columns = _columns(report)
    label_width = max(len(label) for _key, label in METRICS)
    widest = max([len(name) for name, _ in columns]
                 + [len(str(counts.get(key, 0))) for _, counts in columns for key, _label in METRICS] + [5])
    per_block = max(1, (WIDTH - label_width - 2 + 1) // (widest + 1))
    for start in range(0, len(columns), per_block):
        block = columns[start:start + per_block]
        if start:
            out.write("\n")
        out.write(" " * label_width + "  " + " ".join(name.rjust(widest) for name, _ in block) + "\n")
        for key, label in METRICS:
            values = " ".join(str(counts.get(key, 0)).rjust(widest) for _, counts in block)
            out.write(label.ljust(label_width) + "  " + values + "\n")


def run_stats(report: HealthReport, *, as_json: bool, out: TextIO) -> int:
    code = Exit.OK if report.sessions else Exit.READ_FAILED
    if as_json:
        json.dump(report_json(report), out, ensure_ascii=False, indent=2)
        out.write("\n")
        return code
    name = inert(report.project.name or report.project.slug, limit=80)
    charted = len([s for s in report.sessions if s.created is not None])
    out.write(f"Health of {name}: {charted} of {report.retained} retained session(s), then now\n")
    write_table(report, out)
    for note in report.diagnostics:
        out.write(f"⚠ {inert(note.message, limit=WIDTH - 2)}\n")
    return code


def stats(project: ProjectRef, *, as_json: bool, out: TextIO) -> int:
    """Read the whole report (the Health view's own read), then print it."""
    return run_stats(asyncio.run(health_report(project)), as_json=as_json, out=out)
