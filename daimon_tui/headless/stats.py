"""`daimon-tui stats [--json]`: the Health view's numbers per retained
session, then now (read-only). Exit 0, or 2 when nothing could be read."""

from __future__ import annotations

import json
from typing import TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.store.read.health import METRICS, HealthReport


def report_json(report: HealthReport) -> dict:
    return {
        "project": inert(report.project.name or report.project.slug, limit=None),
        "retained_sessions": report.retained,
        "metrics": [key for key, _label in METRICS],
        "sessions": [{"session_id": inert(s.session_id, limit=None), "created": inert(s.created or "", limit=None)
                      or None, **{key: s.counts.get(key, 0) for key, _ in METRICS}} for s in report.sessions],
        "diagnostics": [inert(d.message, limit=None) for d in report.diagnostics],
    }


def run_stats(report: HealthReport, *, as_json: bool, out: TextIO) -> int:
    if as_json:
        json.dump(report_json(report), out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0 if report.sessions else 2
    name = inert(report.project.name or report.project.slug, limit=80)
    charted = len([s for s in report.sessions if s.created is not None])
    out.write(f"Health of {name}: {charted} of {report.retained} retained session(s), then now\n")
    ids = [inert(s.session_id, limit=14) for s in report.sessions]
    width = max([len(i) for i in ids] + [5])
    label_width = max(len(label) for _key, label in METRICS)
    out.write(" " * label_width + "  " + " ".join(i.rjust(width) for i in ids) + "\n")
    for key, label in METRICS:
        out.write(label.ljust(label_width) + "  " + " ".join(str(v).rjust(width) for v in report.series(key)) + "\n")
    for note in report.diagnostics:
        out.write(f"⚠ {inert(note.message, limit=400)}\n")
    return 0 if report.sessions else 2
