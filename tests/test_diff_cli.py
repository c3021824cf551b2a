"""`daimon-tui diff`: daimon's generation numbering, endpoints, refusals, exit
codes and change rows, against `daimon diff --json` run in this process on the
same store; and it writes nothing (daimon's own verb appends a usage line)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from daimon_briefing import cli as daimon_cli

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from tests.store.test_history import EDITED, SIGNED, hand_edit

ADDRESSES = [(), ("--from", "2"), ("--from", "2", "--to", "1"), ("--from", "1", "--to", "0"),
             ("--to", "1"), ("--from", "0", "--to", "1"), ("--from", "7"), ("--from", "1", "--to", "1")]


def _daimon(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = daimon_cli.main(list(argv))
    return rc, json.loads(out.getvalue())


def _ours(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    capsys.readouterr()
    rc = cli.main(list(argv))
    return rc, json.loads(capsys.readouterr().out)


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _agree(d: demo.DemoStore, capsys: pytest.CaptureFixture[str], address: tuple[str, ...]) -> dict:
    slug = reader.resolve_project(str(d.project)).slug
    theirs_rc, theirs = _daimon("diff", "--json", f"--slug={slug}", *address)
    before = _tree(d.root)
    ours_rc, ours = _ours(capsys, "diff", "--json", "--project", str(d.project), *address)
    assert _tree(d.root) == before, "a headless diff wrote to the store"
    assert ours_rc == theirs_rc, (address, theirs)
    if "refused" in theirs:
        assert ours == {"refused": theirs["refused"]}
        return ours
    for end in ("from", "to"):
        assert ours[end] == theirs[end], (address, end)
    assert ours["skipped"] == theirs["skipped"]
    assert ours["changes"] == theirs["changes"]
    return ours


@pytest.mark.parametrize("address", ADDRESSES, ids=lambda a: " ".join(a) or "default")
def test_headless_diff_is_daimons_diff(demo_store: demo.DemoStore, capsys, address) -> None:
    hand_edit(demo_store, "S-day3", SIGNED, EDITED)
    ours = _agree(demo_store, capsys, address)
    if "changes" in ours:
        assert all(row["text"] != EDITED for row in ours["changes"])


def _change_lines(text: str) -> list[str]:
    """The change rows of a plain diff (daimon's marker, a space, the change word), and its endpoints."""
    return [line for line in text.splitlines() if re.match(r"[-+~?] \w|From: |To  : ", line)]


@pytest.mark.parametrize("address", ADDRESSES, ids=lambda a: " ".join(a) or "default")
def test_headless_plain_diff_prints_daimons_markers(demo_store: demo.DemoStore, capsys, address) -> None:
    """The plain output's rows are `daimon diff`'s own lines, marker first: a withheld
    change is `?`, a dropped one `-`. (Mutation checked: `withheld` marked `-` fails here.)"""
    hand_edit(demo_store, "S-day3", SIGNED, EDITED)
    slug = reader.resolve_project(str(demo_store.project)).slug
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        theirs_rc = daimon_cli.main(["diff", f"--slug={slug}", *address])
    capsys.readouterr()
    ours_rc = cli.main(["diff", "--project", str(demo_store.project), *address])
    ours = capsys.readouterr().out
    assert ours_rc == theirs_rc
    assert _change_lines(ours) == _change_lines(out.getvalue())
    if address == ():
        assert any(line.startswith("? withheld ") for line in _change_lines(ours))


def test_headless_diff_skips_and_refuses_a_torn_generation(demo_store: demo.DemoStore, capsys) -> None:
    bucket = next(p.parent for p in demo_store.checkpoint_dir.glob("*/prev-1.json"))
    (bucket / "prev-1.json").write_text("{torn", encoding="utf-8")
    ours = _agree(demo_store, capsys, ())
    assert ours["skipped"] == [{"index": 1, "pointer": "prev-1.json", "reason": "unreadable"}]
    _agree(demo_store, capsys, ("--from", "1"))


def test_headless_diff_plain_names_the_generations(demo_store: demo.DemoStore, capsys) -> None:
    capsys.readouterr()
    assert cli.main(["diff", "--project", str(demo_store.project), "--from", "2"]) == 0
    out = capsys.readouterr().out
    assert "From: prev-2.json (S-day1," in out and "To  : latest.json (S-day3," in out
    assert "+ added      [" in out
    assert cli.main(["diff", "--project", str(demo_store.project), "--from", "0"]) == 2
    assert "--from must be older than --to" in capsys.readouterr().err


def test_headless_diff_of_a_project_without_checkpoints(demo_store: demo.DemoStore, capsys) -> None:
    other = demo_store.project.parent / "other"
    other.mkdir()
    theirs_rc, theirs = _daimon("diff", "--json", "--project", str(other))
    ours_rc, ours = _ours(capsys, "diff", "--json", "--project", str(other))
    assert (ours_rc, ours) == (theirs_rc, theirs) and theirs_rc == 1


# ---- issue 40 §4: daimon's bytes and exit code, plain and --json ------------------------------------


def daimon_bytes(*argv: str) -> tuple[int, str]:
    """`daimon …` run in this process: its exit code and stdout (plain on a pipe)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = daimon_cli.main(list(argv))
    return rc, out.getvalue()


def ours_bytes(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = cli.main(list(argv))
    return rc, capsys.readouterr().out


def assert_same_bytes(project: Path, capsys: pytest.CaptureFixture[str], *address: str) -> None:
    slug = reader.resolve_project(str(project)).slug
    for form in ((), ("--json",)):
        theirs = daimon_bytes("diff", *form, f"--slug={slug}", *address)
        ours = ours_bytes(capsys, "diff", *form, "--project", str(project), *address)
        assert ours == theirs, (form, address)


@pytest.mark.parametrize("address", ADDRESSES, ids=lambda a: " ".join(a) or "default")
def test_headless_diff_prints_daimons_bytes(demo_store: demo.DemoStore, capsys, address) -> None:
    """The chain line (what older history this chain cannot reach), and daimon's
    `schema_version`, `history`, `retained`, `truncated`: byte for byte."""
    assert_same_bytes(demo_store.project, capsys, *address)
    capsys.readouterr()
    cli.main(["diff", "--project", str(demo_store.project)])
    assert "Chain: 3 retained (DAIMON_CHECKPOINT_HISTORY=3) — anything before prev-2.json" in capsys.readouterr().out


def _retype(path: Path, key: str, value: object) -> None:
    body = json.loads(path.read_text(encoding="utf-8"))

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "id" in node and "text" in node:
                node[key] = value
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(body)
    path.write_text(json.dumps(body), encoding="utf-8")


def test_headless_diff_keeps_a_stored_number_a_number(demo_store: demo.DemoStore, capsys) -> None:
    bucket = next(p.parent for p in demo_store.checkpoint_dir.glob("*/prev-1.json"))
    _retype(bucket / "latest.json", "trust", 5)
    _retype(bucket / "prev-1.json", "text", {"x": 2})
    assert_same_bytes(demo_store.project, capsys)
    _rc, out = ours_bytes(capsys, "diff", "--json", "--project", str(demo_store.project))
    assert '"trust": 5' in out and '"trust": "5"' not in out


def test_headless_diff_exits_2_where_daimon_cannot_read(demo_store: demo.DemoStore, capsys, monkeypatch) -> None:
    """daimon's `diff` answers a read that raises with exit 2 and nothing shown."""
    from daimon_briefing import view

    def torn(*_args: object, **_kwargs: object) -> None:
        raise OSError("torn")

    monkeypatch.setattr(view, "pointers", torn)
    assert_same_bytes(demo_store.project, capsys)
    capsys.readouterr()
    assert cli.main(["diff", "--project", str(demo_store.project)]) == 2
    assert "diff could not be read (OSError); nothing was shown" in capsys.readouterr().err
