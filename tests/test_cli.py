"""The command line: exit codes, the version gate, the terminal gate."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest
from daimon_briefing import api

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo


def test_an_untested_daimon_reads_in_safe_mode_with_one_line_on_stderr(
        demo_store: demo.DemoStore, monkeypatch, capsys) -> None:
    from daimon_tui.store.daimon_api import mode

    monkeypatch.setattr(metadata, "version", lambda name: "0.70.1")
    mode.set_current(None)
    try:
        assert cli.main(["brief", "--json", "--project", str(demo_store.project)]) == 0
        out, err = capsys.readouterr()
        assert json.loads(out)["state"] == "briefing"
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "safe mode (daimon-briefing 0.70.1 is not the tested 0.61.x)" in lines[0]
        assert cli.main(["doctor"]) == 1
        doctor = capsys.readouterr().out
        assert "daimon-briefing 0.70.1: not tested (known good: 0.61.x)" in doctor
        assert "the app runs in SAFE MODE" in doctor and "daimon's public API only" in doctor
        for off in ("retract: off", "the briefing as of a time: off", "the team status: off",
                    "`brief --as-daimon` (daimon's own bytes and exit code): off"):
            assert f"  - {off}" in doctor
        assert "  - the briefing's item lines" in doctor.split("on, through daimon's public names")[1]
        # what is off says so where it is asked for
        assert cli.main(["brief", "--as-of", "2026-01-01", "--project", str(demo_store.project)]) == 2
        assert "the briefing as of a time is off in safe mode" in capsys.readouterr().err
        assert cli.main(["brief", "--as-daimon", "--project", str(demo_store.project)]) == 2
        assert "off in safe mode: it needs cli.brief._cmd_brief" in capsys.readouterr().err
        # the demo still builds (dated by the wall clock: its fixed dates need a swap)
        assert cli.main(["brief", "--demo"]) == 0
        assert "Decisions made" in capsys.readouterr().out
    finally:
        mode.set_current(None)


def test_doctor_on_the_tested_daimon(capsys) -> None:
    from daimon_tui.store.daimon_api import contracts

    assert cli.main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "full" and data["daimon_version"] == metadata.version("daimon-briefing")
    assert [c["id"] for c in data["contracts"]] == [c.id for c in contracts.CONTRACTS]
    assert all(c["holds"] for c in data["contracts"])


def test_no_daimon_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert cli.main(["brief", "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "daimon-briefing is not installed" in err[0]


def test_bad_arguments_exit_2(capsys) -> None:
    assert cli.main(["brief", "--bogus"]) == 2


def test_unknown_slug_exit_1(empty_store: demo.DemoStore, capsys) -> None:
    assert cli.main(["brief", "--slug", "-no-such-bucket"]) == 1
    assert "no daimon checkpoint" in capsys.readouterr().err


@pytest.mark.parametrize("form", ["separate", "attached"])
def test_brief_by_daimon_slug(demo_store: demo.DemoStore, form: str, capsys) -> None:
    # daimon's slug of a path begins with `-` (/tmp/x/proj -> -tmp-x-proj).
    slug = api.project_slug(str(demo_store.project))
    assert slug.startswith("-")
    args = ["--slug", slug] if form == "separate" else [f"--slug={slug}"]
    assert cli.main(["brief", "--json", *args]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["session_id"] == "S-day3" and data["sections"]


def test_slug_without_a_value_is_an_argument_error(capsys) -> None:
    assert cli.main(["brief", "--slug", "--json"]) == 2
    assert "--slug" in capsys.readouterr().err


def test_help_lists_where_to_look(capsys) -> None:
    assert cli.main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert "--project PATH" in shown and "--slug SLUG" in shown


def test_brief_json_on_demo_store(demo_store: demo.DemoStore, capsys) -> None:
    assert cli.main(["brief", "--json", "--project", str(demo_store.project)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == "briefing" and data["session_id"] == "S-day3"


def test_interactive_mode_needs_a_terminal() -> None:
    # A subprocess with pipes for stdin/stdout has no terminal.
    done = subprocess.run([sys.executable, "-m", "daimon_tui.cli", "--demo"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr


@pytest.mark.parametrize("command", ["brief", "check", "audit"])
def test_headless_commands_never_touch_the_store(demo_store: demo.DemoStore, command: str, capsys) -> None:
    before = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    cli.main([command, "--json", "--project", str(demo_store.project)])
    after = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    assert before == after
