"""The action log: append-only, hash-chained, no text, robust to a torn tail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daimon_tui.domain.action_entries import GENESIS, LoggedRecord, line_hash
from daimon_tui.store.action_log import ActionLog, default_path


def _log(tmp_path: Path) -> ActionLog:
    return ActionLog(tmp_path / "state" / "actions.jsonl")


def _append(log: ActionLog, verb: str = "resolve", outcome: str = "applied", item: str = "o-abc123",
            undoes: str | None = None):
    return log.record(project="slug", verb=verb, outcome=outcome, item_ids=(item,), undoes=undoes,
                      records=(LoggedRecord(item_id=item, op="resolve", outcome=outcome,
                                            ledger="events.jsonl", ref=item, status="done"),))


def test_lines_chain_to_the_previous_line(tmp_path: Path) -> None:
    log = _log(tmp_path)
    first = _append(log)
    second = _append(log, verb="retract")
    raw = log.path.read_bytes().splitlines()
    assert first.prev == GENESIS
    assert second.prev == line_hash(raw[0])
    assert json.loads(raw[1])["verb"] == "retract"
    report = log.verify_chain()
    assert report.ok and report.lines == 2


def test_a_tampered_line_breaks_the_chain_at_the_next_line(tmp_path: Path) -> None:
    log = _log(tmp_path)
    for _ in range(3):
        _append(log)
    lines = log.path.read_text().splitlines()
    lines[1] = lines[1].replace('"applied"', '"refused"', 1)
    log.path.write_text("\n".join(lines) + "\n")
    report = log.verify_chain()
    assert not report.ok
    assert report.broken_at == 3
    assert "line 3" in report.message


def test_a_deleted_line_breaks_the_chain(tmp_path: Path) -> None:
    log = _log(tmp_path)
    for _ in range(3):
        _append(log)
    lines = log.path.read_text().splitlines()
    log.path.write_text(lines[0] + "\n" + lines[2] + "\n")
    assert log.verify_chain().broken_at == 2


def test_a_torn_tail_is_reported_and_never_crashes(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _append(log)
    _append(log)
    with log.path.open("a") as handle:
        handle.write('{"action_id": "act-x", "ti')
    report = log.verify_chain()
    assert not report.ok and report.torn_at == 3 and report.broken_at is None
    lines = log.lines()
    assert [line.problem for line in lines] == [None, None, "torn"]
    assert len(log.entries()) == 2
    # appending after a torn tail closes it and keeps the chain verifiable
    _append(log)
    report = log.verify_chain()
    assert report.torn_at is None and report.broken_at is None
    assert report.bad_lines == (3,)
    assert len(log.entries()) == 3


def test_unreadable_garbage_is_a_line_problem(tmp_path: Path) -> None:
    log = _log(tmp_path)
    log.path.parent.mkdir(parents=True)
    log.path.write_bytes(b"\xff\xfe not json\n")
    assert log.lines()[0].problem == "unreadable"
    assert not log.verify_chain().ok


VERBS = frozenset({"resolve", "retract", "restore"})
OPS = frozenset({"resolve", "quarantine", "reopen", "release"})


def _op_append(log: ActionLog, verb: str, op: str, item: str):
    return log.record(project="slug", verb=verb, outcome="applied", item_ids=(item,),
                      records=(LoggedRecord(item_id=item, op=op, outcome="applied"),))


def test_undo_choice_skips_undone_and_refused(tmp_path: Path) -> None:
    log = _log(tmp_path)
    first = _append(log)
    second = _append(log, verb="retract")
    _append(log, verb="resolve", outcome="refused")
    choice = log.undo_choice("slug", VERBS, OPS)
    assert choice.entry.action_id == second.action_id and choice.skipped == ()
    _append(log, verb="undo", undoes=second.action_id)
    assert log.undo_choice("slug", VERBS, OPS).entry.action_id == first.action_id
    assert log.undo_choice("other", VERBS, OPS).entry is None


def test_undo_choice_names_newer_actions_it_cannot_undo(tmp_path: Path) -> None:
    """Issue 15 point 2: a reverify or forget after a resolve stands in between; `z` must say so."""
    log = _log(tmp_path)
    resolved = _op_append(log, "resolve", "resolve", "o-aaaaaa")
    reverified = _op_append(log, "reverify", "reverify", "o-bbbbbb")
    forgot = _op_append(log, "forget", "forget", "o-cccccc")
    choice = log.undo_choice("slug", VERBS, OPS)
    assert choice.entry.action_id == resolved.action_id
    assert [e.action_id for e in choice.skipped] == [forgot.action_id, reverified.action_id]
    # a restore that only lifted a forget holds nothing to undo either
    lifted = _op_append(log, "restore", "unforget", "o-cccccc")
    assert log.undo_choice("slug", VERBS, OPS).skipped[0].action_id == lifted.action_id


def test_default_path_follows_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DAIMON_TUI_LOG", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "daimon-tui" / "actions.jsonl"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "state" / "daimon-tui" / "actions.jsonl"
    monkeypatch.setenv("DAIMON_TUI_LOG", str(tmp_path / "x.jsonl"))
    assert default_path() == tmp_path / "x.jsonl"
    assert ActionLog().path == tmp_path / "x.jsonl"
