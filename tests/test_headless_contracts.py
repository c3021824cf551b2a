"""Issue 40 §6: headless contracts a script can rely on. One table of exit
codes (daimon_tui/headless/exit_codes.py) that `--help`, every subcommand's
`--help`, docs/headless-exit-codes.md and the reports all follow."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from daimon_tui import cli
from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo

REPO = Path(__file__).resolve().parent.parent
COMMANDS = ("brief", "check", "audit", "search", "review", "stats", "diff", "doctor")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _codes():
    from daimon_tui.headless import exit_codes

    return exit_codes


def test_no_checkpoint_is_not_a_finding(empty_store: demo.DemoStore, capsys) -> None:
    """`check` exits 1 for "contradicted"; "no daimon checkpoint" is another code."""
    exit_codes = _codes()
    for command in ("check", "audit", "stats", "review", "brief"):
        code, _out, err = _run(capsys, command, "--project", "/")
        assert code == exit_codes.Exit.NO_PROJECT, command
        assert "no daimon checkpoint for /" in err
    code, _out, err = _run(capsys, "search", "retry", "--project", "/")
    assert code == exit_codes.Exit.NO_PROJECT


def test_a_missing_directory_is_named_and_the_projects_listed(demo_store: demo.DemoStore, capsys) -> None:
    exit_codes = _codes()
    code, out, err = _run(capsys, "brief", "--project", "/nonexistent")
    assert code == exit_codes.Exit.NO_PROJECT and not out
    assert "no such directory: /nonexistent" in err and "no daimon checkpoint" not in err
    assert str(demo_store.project) in err  # the projects daimon holds, to pick from


def test_an_empty_search_is_a_usage_error(demo_store: demo.DemoStore, capsys) -> None:
    code, _out, err = _run(capsys, "search", "", "--project", str(demo_store.project))
    assert code == 2 and "empty" in err
    code, _out, _err = _run(capsys, "search", "   ", "--project", str(demo_store.project))
    assert code == 2


def test_search_says_how_many_it_did_not_show_and_takes_a_limit(demo_store: demo.DemoStore, capsys) -> None:
    code, out, _err = _run(capsys, "search", "retry", "--json", "--project", str(demo_store.project))
    every = json.loads(out)
    total = len(every["hits"])
    assert code == 0 and total > 2 and every["total"] == total and every["limit"] == 50
    code, out, _err = _run(capsys, "search", "retry", "--limit", "2", "--json", "--project", str(demo_store.project))
    cut = json.loads(out)
    assert [h["id"] for h in cut["hits"]] == [h["id"] for h in every["hits"][:2]]
    assert (cut["total"], cut["limit"]) == (total, 2)
    code, out, _err = _run(capsys, "search", "retry", "--limit", "2", "--project", str(demo_store.project))
    assert code == 0 and f"2 of {total} hits shown (--limit 2)" in out
    for bad in ("0", "-1", "x"):
        assert _run(capsys, "search", "retry", "--limit", bad, "--project", str(demo_store.project))[0] == 2


def test_top_level_help_holds_the_exit_code_table(capsys) -> None:
    exit_codes = _codes()
    code, out, _err = _run(capsys, "--help")
    assert code == 0 and exit_codes.table() in out
    for member in exit_codes.Exit:
        assert f"  {member.value}  {exit_codes.MEANING[member]}" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_help_says_what_it_does_its_codes_and_json(command: str, capsys) -> None:
    exit_codes = _codes()
    code, out, _err = _run(capsys, command, "--help")
    assert code == 0
    _usage, _, rest = out.partition("\n\n")
    description = rest.split("\n\n", 1)[0].strip()
    assert description and "\n" not in description, "a one-line description"
    assert exit_codes.for_command(command) in out
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    said = next(a.help for a in sub._actions if "--json" in a.option_strings)
    assert said and " ".join(said.split()) in " ".join(out.split())


def test_the_docs_table_is_the_code_table() -> None:
    exit_codes = _codes()
    assert (REPO / "docs" / "headless-exit-codes.md").read_text(encoding="utf-8") == exit_codes.markdown()


def test_stats_fits_120_columns_with_short_ids() -> None:
    from daimon_tui.domain.short_ids import shortest_unique
    from daimon_tui.headless.stats import run_stats
    from daimon_tui.store.read.health import METRICS, HealthReport, SessionHealth

    ids = [f"S-2026-11-{day:02d}T09-00-00-4f1c2a9b{day:02d}e7d3" for day in range(1, 31)]
    sessions = tuple(SessionHealth(session_id=sid, created=f"2026-11-{n + 1:02d}T09:00:00Z",
                                   counts={key: 1000 + n for key, _ in METRICS}) for n, sid in enumerate(ids))
    report = HealthReport(project=ProjectRef(slug="-p", name="p"), sessions=sessions, retained=30)
    out = io.StringIO()
    assert run_stats(report, as_json=False, out=out) == 0
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 120, max(lines, key=len)
    shown = out.getvalue()
    for short in shortest_unique(ids).values():
        assert short in shown
    assert shown.count("1029") >= 1 and shown.count("1000") >= len(METRICS)
