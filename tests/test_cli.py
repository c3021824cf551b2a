"""The command line: exit codes, the version gate, the terminal gate."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

import pytest
from daimon_briefing import api

from daimon_tui import cli
from daimon_tui.store.daimon_api import installed
from daimon_tui.store.demo import builder as demo


def test_an_untested_daimon_reads_in_safe_mode_with_one_line_on_stderr(
        demo_store: demo.DemoStore, monkeypatch, capsys) -> None:
    from daimon_tui.store.daimon_api import mode

    monkeypatch.setattr(installed, "version", lambda distribution="daimon-briefing": "0.70.1")
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
    from daimon_tui.store.daimon_api import registry

    assert cli.main(["doctor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "full" and data["daimon_version"] == metadata.version("daimon-briefing")
    assert [c["id"] for c in data["contracts"]] == [c.id for c in registry.CONTRACTS]
    assert all(c["holds"] for c in data["contracts"])


def test_no_daimon_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    def unread() -> str:
        raise installed._Unsure  # the dist-info scan cannot tell: importlib.metadata answers

    monkeypatch.setattr(metadata, "version", missing)
    monkeypatch.setattr(installed, "_scan", lambda _name: unread())
    assert cli.main(["brief", "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "daimon-briefing is not installed" in err[0]


def test_a_bare_open_builds_no_parser_and_reads_as_the_parser_would(monkeypatch) -> None:
    """`daimon-tui` alone (a later open's everyday start) skips building the parser (~4 ms of its first
    frame), with the parser's own answer to no arguments."""
    assert vars(cli.bare()) == vars(cli.build_parser().parse_args([]))

    def no_parser() -> None:
        raise AssertionError("the parser was built for a bare open")

    monkeypatch.setattr(cli, "build_parser", no_parser)
    monkeypatch.setattr(cli, "_run", lambda args, console: 7 if vars(args) == vars(cli.bare()) else 8)
    assert cli.main([]) == 7


def test_bad_arguments_exit_2(capsys) -> None:
    assert cli.main(["brief", "--bogus"]) == 2


def test_unknown_slug_exit_3(empty_store: demo.DemoStore, capsys) -> None:
    assert cli.main(["brief", "--slug", "-no-such-bucket"]) == 3  # exit_codes.Exit.NO_PROJECT
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


HEADLESS = (["brief"], ["brief", "--json"], ["brief", "--as-daimon"], ["search", "retry"], ["check"], ["audit"])
NO_TEXTUAL = ("import sys\n"
              "from daimon_tui.cli import main\n"
              "code = main(sys.argv[1:])\n"
              "sys.stdout.flush()\n"
              "print('TEXTUAL' if any(m.split('.')[0] == 'textual' for m in sys.modules) else 'NO-TEXTUAL', "
              "file=sys.stderr)\n")


@pytest.mark.parametrize("argv", HEADLESS, ids=" ".join)
def test_a_headless_command_never_imports_textual(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", NO_TEXTUAL, *argv, "--demo"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    assert done.stderr.splitlines()[-1] == "NO-TEXTUAL"


# as the `daimon-tui` console script runs it (`main()`: argv from sys.argv), then what it imported
LOADED = ("import sys\n"
          "from daimon_tui.cli import main\n"
          "code = main()\n"
          "sys.stdout.flush()\n"
          "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'textual'}), file=sys.stderr)\n"
          "sys.exit(code)\n")


@pytest.mark.parametrize("argv", [["search", "upload"], ["search", "upload", "--json"],
                                  ["search", "upload kind:decision", "--all-projects", "--json"],
                                  ["search", "no-such-word-anywhere"], ["brief", "--as-daimon"],
                                  ["brief"], ["brief", "--json"], ["audit"], ["audit", "--json"]], ids=" ".join)
def test_a_fresh_search_imports_no_pydantic(demo_store: demo.DemoStore, tmp_path, argv: list[str],
                                            capsys) -> None:
    """Issue 29.1: a fresh `search` on a small store stays within `daimon
    recall`'s time, which pydantic's import alone (~130 ms) would exceed: the
    search path builds and prints records (`daimon_tui.models`), never our
    pydantic models; nor does `brief --as-daimon`, which prints daimon's own
    bytes, nor `audit` (within `daimon brief`'s time). Our cache empty (a fresh run); its bytes are those of the same
    command in this process."""
    from daimon_tui.store.child import judge_service

    argv = [*argv, "--project", str(demo_store.project)]
    env = {**judge_service.child_env(), "DAIMON_TUI_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, env=env)
    # no hit exits 1, and so does the audit of the demo store (a session edited after signing)
    assert done.returncode == (1 if "no-such-word-anywhere" in argv or argv[0] == "audit" else 0), done.stderr
    assert done.stderr.splitlines()[-1] == "[]"
    assert cli.main(argv) == done.returncode
    assert done.stdout.strip() and done.stdout == capsys.readouterr().out


@pytest.mark.parametrize("as_json", [False, True], ids=["plain", "json"])
def test_a_check_with_no_repository_imports_no_gitpython(demo_store: demo.DemoStore, tmp_path, as_json: bool,
                                                          capsys) -> None:
    """Issue 29.1: `check` in a project that is no git repository says so
    without importing GitPython (~60 ms of a small store's check) or pydantic;
    its bytes are those of the same check in this process."""
    from daimon_tui.store.child import judge_service

    argv = ["check", "--project", str(demo_store.project), *(["--json"] if as_json else [])]
    probe = LOADED.replace("{'pydantic', 'textual'}", "{'pydantic', 'textual', 'git', 'gitdb'}")
    env = {**judge_service.child_env(), "DAIMON_TUI_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, env=env)
    assert done.stderr.splitlines()[-1] == "[]", done.stderr
    assert "no git repository" in done.stdout
    assert cli.main(argv) == done.returncode
    assert done.stdout == capsys.readouterr().out


def test_check_checks_every_carried_item_without_daimons_byte_budget(demo_store: demo.DemoStore, monkeypatch,
                                                                      capsys) -> None:
    """Issue 29.1: `check` world-checks every carried item, briefed for the
    byte budget or not, so it does not compute daimon's allocation (~40 ms of
    a small store's check); it checks exactly the budgeted briefing's items."""
    from daimon_tui.headless import check
    from daimon_tui.store.read import daimon_brief, reader

    project = reader.resolve_project(str(demo_store.project), None)
    carried = [(i.id or "", i.text, i.quote) for i in reader.load_briefing(project).items() if i.has_badge("carried")]
    checked: list[object] = []
    budgets: list[object] = []
    real_check, real_budget = check.run_check, daimon_brief.budget
    monkeypatch.setattr(check, "run_check", lambda root, items, **kw: checked.append(list(items)) or
                        real_check(root, items, **kw))
    monkeypatch.setattr(daimon_brief, "budget", lambda *a, **kw: budgets.append(a) or real_budget(*a, **kw))
    code = cli.main(["check", "--project", str(demo_store.project)])
    assert code in (0, 1, 5) and capsys.readouterr().out  # 5: the demo project is no repository
    assert carried and checked == [carried]
    assert budgets == []


def test_a_report_run_as_the_command_collects_its_young_objects_rarely() -> None:
    """Issue 29.1: a report run as the `daimon-tui` command is one burst that
    ends the process, so the collector's young generation runs rarely (about
    a tenth of a small store's report otherwise); the app, and `main()` called
    in a process that goes on, keep Python's default."""
    probe = ("import gc, sys\n"
             "from daimon_tui.cli import main\n"
             "default = gc.get_threshold()\n"
             "main(['brief', '--project', sys.argv[1]])\n"
             "in_process = gc.get_threshold()\n"
             "sys.argv = ['daimon-tui', 'brief', '--project', sys.argv[1]]\n"
             "main()\n"
             "print(default == in_process, gc.get_threshold()[0] >= 10_000, file=sys.stderr)\n")
    missing = "/nonexistent-daimon-tui-project"
    done = subprocess.run([sys.executable, "-c", probe, missing],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.stderr.splitlines()[-1] == "True True", done.stderr


def test_the_command_line_reads_no_package_metadata() -> None:
    """`importlib.metadata` is imported only to ask whether daimon is installed
    (once daimon itself imports it): never at our entry point's import or
    while its parser is built (`--version` is our own `__version__`)."""
    probe = ("import sys\n"
             "from daimon_tui import cli\n"
             "cli.build_parser()\n"
             "print(sorted(m for m in ('importlib.metadata', 'pydantic', 'daimon_briefing') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_report_reads_the_kept_fold_and_prints_what_daimon_would(demo_store: demo.DemoStore, capsys) -> None:
    """Issue 29.1: on a ledger large enough to keep its fold, `brief --json`
    prints the same bytes from daimon's full read (cold), from the sealed fold
    that run kept (warm), and past a forged fold (unsealed: never used)."""
    import os

    from daimon_briefing import store, view
    from daimon_briefing.surfaces import Writer

    from daimon_tui.store.judging import kept_fold, kept_fold_file, snapshot_share
    from daimon_tui.store.read import reader

    project = reader.resolve_project(str(demo_store.project))
    pad = [{"item_ref": f"o-pad{n:05d}", "status": "resolved", "note": "p" * 120, "source": "cli"} for n in range(2500)]
    assert store.append_events(pad, project_dir=project.target, writer=Writer.HUMAN)
    item = next(i.id for i in reader.load_briefing(project).items() if i.id)
    assert store.append_event(item, "resolved", source="ui", project_dir=project.target, writer=Writer.HUMAN)
    ledger = view._bucket(project.target) / "events.jsonl"
    assert ledger.stat().st_size > kept_fold.KEEP_MIN_BYTES
    cache = kept_fold_file.cache_file(os.path.abspath(ledger))

    def report() -> str:
        kept_fold.forget_held()  # each as a new process
        snapshot_share.clear()
        store._all_forgotten_cache.clear()
        assert cli.main(["brief", "--json", "--project", str(demo_store.project)]) == 0
        return capsys.readouterr().out

    cache.unlink(missing_ok=True)
    cold = report()
    spans = kept_fold_file.load(os.path.abspath(ledger))
    assert spans is not None and spans.sealed  # kept by the report, sealed
    assert report() == cold
    assert item not in {i["id"] for s in json.loads(cold)["sections"] for i in s["items"]}
    record = json.loads(cache.read_text())
    data = ledger.read_bytes()
    record["winners"] = [at for at in record["winners"]
                         if json.loads(data[at:data.index(b"\n", at)]).get("item_ref") != item]
    cache.write_text(json.dumps(record))
    assert report() == cold


def test_an_app_start_that_stops_early_leaves_the_collector_as_it_found_it(monkeypatch, capsys) -> None:
    """The app's start switches automatic collection off until its idle collector takes over; a start
    that stops before the app runs (no daimon here) must switch it back: an in-process caller (a test
    worker, a host program) was left with no automatic collection at all."""
    import gc

    monkeypatch.setattr(cli, "_cannot_draw", lambda: None)
    monkeypatch.setattr(cli, "daimon_missing", lambda: "daimon-briefing is not installed")
    assert gc.isenabled()
    try:
        assert cli.main([]) == 2
        assert gc.isenabled()
    finally:
        gc.enable()
    threshold = gc.get_threshold()
    assert cli.main(["brief", "--bogus"]) == 2
    assert gc.get_threshold() == threshold
