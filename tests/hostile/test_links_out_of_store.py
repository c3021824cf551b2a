"""Issue 40 §5: one rule for every report. A ledger (or any file) of the store
that is a symlink leading outside it is never read through, by `audit`,
`stats`, `search`, `diff`, `brief` (and `--as-daimon`), `check` or `review`:
each exits 4 (refused), names the link on stderr (and in `{"refused": …}` for
`--json`), and the file it leads to is never opened (an audit hook watches
every open of this process, `os.open` and `open` alike)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo

from .conftest import tree_hashes

_WATCHED: list[list[str]] = []


def _hook(event: str, args: tuple) -> None:
    if event == "open" and _WATCHED and isinstance(args[0], (str, bytes, os.PathLike)):
        _WATCHED[-1].append(os.fsdecode(args[0]))


sys.addaudithook(_hook)  # a hook cannot be removed; it records only while a test watches


@contextlib.contextmanager
def watching() -> Iterator[list[str]]:
    """Every path this process opens meanwhile."""
    paths: list[str] = []
    _WATCHED.append(paths)
    try:
        yield paths
    finally:
        _WATCHED.remove(paths)


REPORTS = [["audit"], ["stats"], ["search", "retry"], ["diff"], ["brief"], ["brief", "--as-daimon"], ["check"],
           ["review"]]


def _link_out(store: demo.DemoStore, tmp_path: Path, name: str) -> tuple[Path, Path]:
    bucket = next(p.parent for p in store.checkpoint_dir.glob("*/latest.json"))
    outside = tmp_path / f"outside-{name}"
    outside.write_bytes((bucket / name).read_bytes())
    (bucket / name).unlink()
    (bucket / name).symlink_to(outside)
    return bucket / name, outside


@pytest.mark.parametrize("argv", REPORTS, ids=" ".join)
@pytest.mark.parametrize("name", ["events.jsonl", "trust.jsonl"])
def test_no_report_reads_through_a_ledger_linked_out_of_the_store(
        demo_store: demo.DemoStore, tmp_path: Path, capsys, argv: list[str], name: str) -> None:
    link, outside = _link_out(demo_store, tmp_path, name)
    before = tree_hashes(demo_store.root)
    capsys.readouterr()
    with watching() as opened:
        code = cli.main([*argv, "--project", str(demo_store.project)])
    _out, err = capsys.readouterr()
    reached = [p for p in opened if os.path.realpath(p) == str(outside.resolve())]
    assert not reached, f"{argv} opened {outside} through {link}"
    assert code == 4, (code, err)
    assert str(link) in err and "symlink leading outside the store" in err
    assert tree_hashes(demo_store.root) == before


@pytest.mark.parametrize("argv", [a for a in REPORTS if a[-1] != "--as-daimon"], ids=" ".join)
def test_json_reports_say_refused_on_stdout(demo_store: demo.DemoStore, tmp_path: Path, capsys,
                                            argv: list[str]) -> None:
    link, _outside = _link_out(demo_store, tmp_path, "events.jsonl")
    capsys.readouterr()
    code = cli.main([*argv, "--json", "--project", str(demo_store.project)])
    said = json.loads(capsys.readouterr().out)
    assert code == 4 and any(str(link) in line for line in said["refused"])


def test_a_search_of_every_project_is_refused_too(demo_store: demo.DemoStore, tmp_path: Path, capsys) -> None:
    link, outside = _link_out(demo_store, tmp_path, "events.jsonl")
    capsys.readouterr()
    with watching() as opened:
        assert cli.main(["search", "retry", "--all-projects"]) == 4
    assert str(link) in capsys.readouterr().err
    assert not [p for p in opened if os.path.realpath(p) == str(outside.resolve())]


def test_the_store_readers_the_app_shares_follow_the_same_rule(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    """Health, the audit, search and diff read through the store adapters the
    app uses too: each names the link and opens nothing through it."""
    from daimon_tui.store.read import audit, daimon_diff, health, reader, search

    link, outside = _link_out(demo_store, tmp_path, "events.jsonl")
    project = reader.resolve_project(str(demo_store.project))
    with watching() as opened:
        said = {
            "health": [d.message for d in health.health(project).diagnostics],
            "audit": [d.message for d in audit.load_audit(project).diagnostics],
            "search": [d.message for d in search.search(project, "retry").notes],
            "diff": [daimon_diff.daimon_diff(project).failed or ""],
        }
    assert not [p for p in opened if os.path.realpath(p) == str(outside.resolve())]
    for where, messages in said.items():
        assert any(str(link) in m and "outside the store" in m for m in messages), where
