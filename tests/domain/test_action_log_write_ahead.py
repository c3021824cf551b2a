"""The action log as a write-ahead record: intent before daimon's write,
outcome after; never half a line; a head file anchors the last line."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from daimon_tui.domain import undo_plan
from daimon_tui.domain.action_entries import LoggedRecord
from daimon_tui.store.action_log import ActionLog, ActionLogError, default_path


def _log(tmp_path: Path) -> ActionLog:
    return ActionLog(tmp_path / "state" / "actions.jsonl")


def _planned(item: str = "o-abc123") -> tuple[LoggedRecord, ...]:
    return (LoggedRecord(item_id=item, op="resolve", outcome="applied", ledger="events.jsonl", status="done"),)


def _applied(log: ActionLog, item: str = "o-abc123"):
    intent = log.intend(project="slug", verb="resolve", item_ids=(item,), planned=_planned(item))
    return log.settle(intent, "applied", records=_planned(item))


def test_an_intent_without_an_outcome_is_pending_until_settled(tmp_path: Path) -> None:
    log = _log(tmp_path)
    intent = log.intend(project="slug", verb="resolve", item_ids=("o-1",), planned=_planned("o-1"))
    assert intent.outcome == "intent" and [r.outcome for r in intent.records] == ["intent"]
    assert [e.action_id for e in log.pending("slug")] == [intent.action_id]
    assert log.pending("other") == []
    # an intent is never undoable: nothing is known to have landed
    assert log.undo_choice("slug", undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry is None
    done = log.settle(intent, "applied", records=_planned("o-1"))
    assert done.action_id == intent.action_id
    assert log.pending() == []
    assert log.undo_choice("slug", undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS).entry.action_id == intent.action_id
    assert log.verify_chain().ok


def test_a_log_whose_parent_is_a_file_raises_a_named_error_and_probe_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file, not a directory")
    log = ActionLog(blocker / "actions.jsonl")
    problem = log.probe()
    assert problem is not None and str(blocker / "actions.jsonl") in problem and "errno" in problem
    with pytest.raises(ActionLogError) as caught:
        log.intend(project="slug", verb="resolve", item_ids=("o-1",))
    assert str(log.path) in str(caught.value)
    assert blocker.read_text() == "a file, not a directory"
    # reading it never raises either
    assert log.entries() == [] and not log.verify_chain().ok


@pytest.mark.parametrize("fault", ["enospc", "short"])
def test_a_full_disk_leaves_no_torn_line_and_raises(tmp_path: Path, fault: str) -> None:
    log = _log(tmp_path)
    _applied(log)
    before = log.path.read_bytes()

    def full(fd: int, data: bytes) -> int:
        if fault == "enospc":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        os.write(fd, data[: len(data) // 2])  # half the line lands; the rest never will
        full.calls += 1
        if full.calls > 1:
            return 0
        return len(data) // 2

    full.calls = 0
    log._write = full
    with pytest.raises(ActionLogError) as caught:
        log.intend(project="slug", verb="resolve", item_ids=("o-2",))
    assert "No space left on device" in str(caught.value) and str(log.path) in str(caught.value)
    assert log.path.read_bytes() == before
    log._write = os.write
    assert log.verify_chain().ok
    assert log.pending() == []


def test_the_head_file_catches_a_forged_last_line(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _applied(log, "o-1")
    _applied(log, "o-2")
    assert log.head_check() is None
    lines = log.path.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["undoes"] = "act-forged"
    log.path.write_text("\n".join([*lines[:-1], json.dumps(forged)]) + "\n")
    # the chain alone cannot see it (nothing after the last line carries its hash)
    problem = log.head_check()
    assert problem is not None and "forged" in problem
    assert not log.verify_chain().ok


def test_the_head_file_catches_a_removed_last_line(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _applied(log, "o-1")
    _applied(log, "o-2")
    lines = log.path.read_text().splitlines()
    log.path.write_text("\n".join(lines[:-1]) + "\n")
    assert log.head_check() is not None
    report = log.verify_chain()
    assert not report.ok and report.broken_at is None and report.head_problem


def test_a_missing_head_file_for_a_non_empty_log_is_reported(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _applied(log)
    log.head_path.unlink()
    assert "missing" in (log.head_check() or "")


def test_a_fifo_in_the_logs_place_never_hangs(tmp_path: Path) -> None:
    log = _log(tmp_path)
    log.path.parent.mkdir(parents=True)
    os.mkfifo(log.path)
    assert log.entries() == []
    assert "cannot be read" in log.verify_chain().message
    assert log.probe() is not None
    with pytest.raises(ActionLogError):
        log.intend(project="slug", verb="resolve", item_ids=("o-1",))


def test_a_relative_xdg_state_home_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DAIMON_TUI_LOG", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    assert default_path() == Path.home() / ".local" / "state" / "daimon-tui" / "actions.jsonl"


def test_a_line_past_the_head_that_chains_to_it_reads_as_unanchored(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _applied(log, "o-1")
    head = log.head_path.read_bytes()
    log.record(project="slug", verb="resolve", outcome="refused", item_ids=("o-2",))
    log.head_path.write_bytes(head)  # as if killed after the line, before its head
    report = log.verify_chain()
    assert not report.ok and report.unanchored and report.broken_at is None
    assert log.head_check() is not None  # undo still refuses: nothing vouches for that line
    _applied(log, "o-3")  # the next logged action anchors it
    assert log.verify_chain().ok


def test_nothing_is_appended_over_a_forged_last_line(tmp_path: Path) -> None:
    """An append would re-anchor the head and bury the forgery: refused, so it stays detectable."""
    log = _log(tmp_path)
    _applied(log, "o-1")
    lines = log.path.read_text().splitlines()
    log.path.write_text("\n".join(lines[:-1]) + "\n")  # the last line removed
    forged = log.path.read_bytes()
    assert "forged, added or removed" in (log.probe() or "")
    with pytest.raises(ActionLogError):
        log.record(project="slug", verb="world-check", outcome="world-check")
    assert log.path.read_bytes() == forged and log.head_check() is not None


# ---- issue 24 point 2: a full disk at the head file is our own interrupted write, never tampering ----


def _full_at_head(monkeypatch: pytest.MonkeyPatch) -> dict:
    """ENOSPC at the app's own write of the log's head file (the line itself
    is written): the moment a disk fills between the two."""
    state = {"full": True, "hits": 0}
    real = os.write

    def write(fd: int, data: bytes) -> int:
        if state["full"] and os.readlink(f"/proc/self/fd/{fd}").endswith(".head.tmp"):
            state["hits"] += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    return state


def test_a_full_disk_at_the_head_never_reads_as_a_forged_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = _log(tmp_path)
    _applied(log, "o-1")
    disk = _full_at_head(monkeypatch)
    with pytest.raises(ActionLogError) as caught:
        log.intend(project="slug", verb="resolve", item_ids=("o-2",), planned=_planned("o-2"))
    assert "No space left on device" in str(caught.value)
    # the refusal the app logs next hits the same full disk
    with pytest.raises(ActionLogError):
        log.record(project="slug", verb="resolve", outcome="refused", item_ids=("o-2",))
    assert disk["hits"] >= 2
    disk["full"] = False  # space returns
    assert log.probe() is None, log.probe()
    assert "forged" not in (log.head_check() or "")
    assert log.verify_chain().ok, log.verify_chain().message
    _applied(log, "o-3")  # verbs work again, on the same chain
    report = log.verify_chain()
    assert report.ok and [e.item_ids for e in log.entries()] == [("o-1",), ("o-3",)]


def test_an_outcome_the_full_disk_refused_is_written_on_the_next_append(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The intent is in; daimon was written; the outcome line's head hits ENOSPC:
    the outcome is kept and anchored by the next write, the chain kept."""
    log = _log(tmp_path)
    intent = log.intend(project="slug", verb="resolve", item_ids=("o-1",), planned=_planned("o-1"))
    disk = _full_at_head(monkeypatch)
    with pytest.raises(ActionLogError):
        log.settle(intent, "applied", records=_planned("o-1"))
    assert [e.action_id for e in log.pending()] == [intent.action_id]
    assert log.verify_chain().ok
    disk["full"] = False
    log.record(project="slug", verb="world-check", outcome="world-check")
    assert log.pending() == [] and log.verify_chain().ok
    [settled] = [e for e in log.entries() if e.action_id == intent.action_id]
    assert settled.outcome == "applied"


def test_an_action_is_settled_once(tmp_path: Path) -> None:
    """Two settlers (an instance and another's start-up recovery) never give one action two outcomes."""
    log = _log(tmp_path)
    intent = log.intend(project="slug", verb="resolve", item_ids=("o-1",), planned=_planned("o-1"))
    first = log.settle(intent, "not-applied")
    again = ActionLog(log.path).settle(intent, "applied", records=_planned("o-1"))
    assert again == first
    assert [line.entry.outcome for line in log.lines() if line.entry] == ["intent", "not-applied"]
