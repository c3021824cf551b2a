"""`daimon-tui check`: the world-check report (read-only, offline).

Exit codes (headless/exit_codes.py): 0 nothing contradicted, 1 something
contradicted, 3 the project's directory is gone, 5 the project's repository
cannot be read (no repository, or one refused as unsafe/corrupt); the claims
that could still be answered from files are printed either way.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from daimon_tui.domain.inert import inert
from daimon_tui.domain.worldcheck import ItemResult, WorldReport, badge_for
from daimon_tui.headless.exit_codes import Exit
from daimon_tui.services.world_check import check_items


def _item_json(item: ItemResult) -> dict[str, Any]:
    return {
        "id": inert(item.item_id),
        "badge": badge_for(item),
        "claims": [
            {
                "class": r.claim.kind.value,
                "subject": inert(r.claim.subject),
                "expect": r.claim.expect.value,
                "version": inert(r.claim.version) if r.claim.version else None,
                "words": inert(r.claim.words),
                "source": r.claim.source,
                "span": [r.claim.start, r.claim.end],
                "result": r.outcome.value,
                "reason": r.finding.reason,
                "evidence": r.finding.evidence,
            }
            for r in item.results
        ],
    }


def report_json(report: WorldReport) -> dict[str, Any]:
    counts = {"confirmed": 0, "contradicted": 0, "unknown": 0}
    for item in report.items:
        for r in item.results:
            counts[r.outcome.value] += 1
    return {
        "project": inert(report.root),
        "repository": None if report.repo_error is None else {"error": inert(report.repo_error)},
        "cancelled": report.cancelled,
        "counts": counts,
        "items": [_item_json(i) for i in report.items],
    }


_SYMBOL = {"confirmed": "✓", "contradicted": "✗", "unknown": "?"}


def write_plain(report: WorldReport, out: TextIO) -> None:
    out.write(f"World-check of {inert(report.root)}\n")
    if report.repo_error is not None:
        out.write(f"⚠ repository not read: {inert(report.repo_error)}\n")
    checked = [i for i in report.items if i.results]
    if not checked:
        out.write("No checkable claims.\n")
    for item in checked:
        badge = badge_for(item)
        out.write(f"\n[{inert(item.item_id)}]{f' [{badge}]' if badge else ''}\n")
        for r in item.results:
            claim = r.claim
            what = f"{claim.kind.value} {inert(claim.subject)} {claim.expect.value}"
            if claim.version:
                what += f" {inert(claim.version)}"
            out.write(
                f"  {_SYMBOL[r.outcome.value]} {r.outcome.value}: {what} — \u201c{inert(claim.words)}\u201d\n"
            )
            out.write(f"      {r.finding.evidence}\n")


def run_check(
    project_root: Path, items: Sequence[tuple[str, str, str | None]], *, as_json: bool, out: TextIO
) -> int:
    """Check every claim in `items` ((item_id, text, quote)) against
    `project_root` and write the report. Never writes anything else."""
    if not project_root.is_dir():
        message = f"project directory not found: {project_root}"
        if as_json:
            out.write(
                json.dumps(
                    {
                        "project": inert(str(project_root)),
                        "repository": {"error": inert(message)},
                        "cancelled": False,
                        "counts": {},
                        "items": [],
                    },
                    indent=2,
                )
                + "\n"
            )
        else:
            out.write(f"⚠ {inert(message)}\n")
        return Exit.NO_PROJECT
    report = asyncio.run(check_items(project_root, items))
    if as_json:
        out.write(json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n")
    else:
        write_plain(report, out)
    if report.repo_error is not None:
        return Exit.READ_FAILED
    return Exit.FINDING if report.contradicted else Exit.OK
