"""`daimon-tui search`: read-only, exit 0 with hits, 1 with none, 2 on bad arguments (an empty query too)."""

from __future__ import annotations

import json

import pytest

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_hits_exit_0_and_say_their_state(demo_store: demo.DemoStore, capsys) -> None:
    code, out, _ = _run(capsys, "search", "Retry-After", "--json", "--project", str(demo_store.project))
    assert code == 0
    hits = json.loads(out)["hits"]
    assert [(h["state"], h["session_id"], h["live"]) for h in hits] == [("resolved", "S-day3", False)]
    code, out, _ = _run(capsys, "search", "retry state:carried", "--project", str(demo_store.project))
    assert code == 0 and "carried" in out and "Log every retry attempt" in out


def test_a_state_is_said_once(demo_store: demo.DemoStore, capsys) -> None:
    """A resolved hit reads "resolved", not "resolved (resolved)"; a detail that adds to it stays."""
    code, out, _ = _run(capsys, "search", "Retry-After", "--project", str(demo_store.project))
    assert code == 0 and "· resolved:" in out and "(resolved)" not in out


def test_no_hit_exits_1(demo_store: demo.DemoStore, capsys) -> None:
    assert _run(capsys, "search", "zebra", "--project", str(demo_store.project))[0] == 1
    assert _run(capsys, "search", 'NEAR("x', "--all-projects", "--json")[0] == 1


@pytest.mark.parametrize("argv", [
    ("search",),
    ("search", "x", "--slug", "s", "--all-projects"),
    ("search", "x", "--slug", "s", "--project", "/tmp"),
    ("search", "x since:yesterday"),
    ("search", "", "--project", "/"),
    ("search", "x", "--limit", "0"),
])
def test_bad_arguments_exit_2(empty_store: demo.DemoStore, capsys, argv: tuple[str, ...]) -> None:
    assert _run(capsys, *argv)[0] == 2


def test_hostile_text_comes_out_inert(demo_store: demo.DemoStore, capsys) -> None:
    code, out, _ = _run(capsys, "search", "retry \x1b[31m", "--json", "--all-projects")
    assert code in (0, 1) and "\x1b" not in out


def test_search_writes_nothing_but_daimons_own_index(demo_store: demo.DemoStore, capsys) -> None:
    recall_db = demo_store.root / "recall.db"
    before = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file() and p != recall_db}
    _run(capsys, "search", "retry", "--json", "--project", str(demo_store.project))
    _run(capsys, "search", "retry", "--all-projects")
    after = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file() and p != recall_db}
    assert before == after
