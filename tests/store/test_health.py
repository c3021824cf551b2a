"""Issue 27 point 4: the Health numbers per session equal what daimon's own
reader prints for that session (its `render_briefing` over the store as it
stood then), and `daimon-tui stats` gives the same numbers, read-only."""

from __future__ import annotations

import io
import json
import re

from daimon_briefing import api, view

from daimon_tui import cli
from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.read.asof import as_of
from daimon_tui.store.read.health import NOW, HealthReport, health

# daimon's own item labels in the text it prints
LABELS = {
    "verbatim": "[✓ verbatim]",
    "inferred": "[~ inferred]",
    "unverified": "[⚠ unverified (verbatim)]",
    "untagged": "[? untagged]",
    "stale": "[? unverified]",  # carried past the staleness budget
}


def daimon_counts(text: str) -> dict[str, int]:
    lines = [line for line in text.splitlines() if re.match(r"^[-*] \[", line)]
    counts = {key: sum(1 for line in lines if line[2:].startswith(label)) for key, label in LABELS.items()}
    counts["items"] = len(lines)
    counts["carried"] = sum(1 for line in lines if "[carried]" in line)
    counts["corroborated"] = sum(1 for line in lines if "corroborated" in line)
    # the rows under daimon's "Contradictions flagged:" heading, and any row a contradiction badge leads
    section, flagged = None, 0
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(("-", "*")):
            section = line
        elif re.match(r"^[-*] \[", line) and (section == "Contradictions flagged:" or any(
                badge in line for badge in ("world contradicts", "likely superseded", "agent says resolved"))):
            flagged += 1
    counts["contradictions"] = flagged
    return counts


def test_each_sessions_numbers_are_daimons(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    report = health(project)
    assert [s.session_id for s in report.sessions] == ["S-day1", "S-day2", "S-day3", NOW]
    assert_points_are_daimons(project, report)
    # the tampered session's receipt fails from that session on; the demo quarantines one value
    assert report.series("failing_receipts") == [0, 1, 1, 1]
    assert report.series("quarantines")[-1] == 1


def assert_points_are_daimons(project: ProjectRef, report: HealthReport) -> None:
    """Each point equals daimon's own reads as of that session's moment (now: as daimon reads it now)."""
    # daimon's own tamper check of every session's receipt
    opened = view.open_sessions(project.target, [s.session_id for s in report.sessions if s.session_id != NOW],
                                live=False)
    failing = {sid for sid, held in opened.items()
               if api.receipt_state(held.checkpoint)["state"] in ("mismatch", "missing")}
    for n, point in enumerate(report.sessions):
        if point.session_id == NOW:
            text = api.render_briefing(project.target, now=None).text
            held = view.open(project.target, live=True)
        else:
            with as_of(project, point.session_id) as cut:
                text = api.render_briefing(cut.project.target, now=cut.timestamp).text
                held = view.open(cut.project.target, live=True)
        theirs = daimon_counts(text)
        theirs["withheld"] = len(held.withheld) + held.suppressed
        theirs["quarantines"] = sum(1 for w in held.withheld if w.reason == "quarantine")
        theirs["failing_receipts"] = len(failing & {s.session_id for s in report.sessions[: n + 1]})
        ours = {key: point.counts[key] for key in theirs}
        assert ours == theirs, (point.session_id, ours, theirs)


def test_stats_gives_the_same_numbers_and_writes_nothing(demo_store: demo.DemoStore, capsys) -> None:
    project = reader.resolve_project(str(demo_store.project))
    report = health(project)
    before = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    assert cli.main(["stats", "--json", "--project", str(demo_store.project)]) == 0
    after = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    assert before == after
    printed = json.loads(capsys.readouterr().out)
    assert [s["session_id"] for s in printed["sessions"]] == [s.session_id for s in report.sessions]
    for row, point in zip(printed["sessions"], report.sessions, strict=True):
        assert {k: row[k] for k in point.counts} == point.counts
    out = io.StringIO()
    from daimon_tui.headless.stats import run_stats

    assert run_stats(report, as_json=False, out=out) == 0
    assert "failing receipts" in out.getvalue() and "S-day3" in out.getvalue()
