"""The write-ahead rule in the verb flow: no intent in the log, no write to
daimon; the preview says so before `y`; an outcome that cannot be logged is
settled at the next start from daimon's own ledgers."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from daimon_tui.domain import undo_plan
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.write import recovery
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from tests.daimon_records import brief_text as brief
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.ui.test_verb_modals import RETRY_Q, done, drive, on_screen, refused_in_preview, to_preview, until


def _resolve_keys():
    async def script(pilot) -> None:
        await to_preview(pilot)
        await pilot.press("y")
        await done(pilot, 1)

    return script


def test_an_unwritable_log_refuses_the_verb_in_its_preview(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    blocker = tmp_path / "state"
    blocker.write_text("a file where the log's directory should be")
    log = ActionLog(blocker / "actions.jsonl")
    before = len(events(demo_store))
    seen = refused_in_preview(ref(demo_store), log, item)
    assert str(blocker / "actions.jsonl") in seen[0] and "errno" in seen[0]
    assert len(events(demo_store)) == before
    assert RETRY_Q in brief(demo_store)


def test_an_intent_that_cannot_be_written_refuses_the_verb(demo_store, tmp_path: Path) -> None:
    """The disk fills between the preview and `y`: the intent fails whole,
    nothing reaches daimon, the person is told the file and the error."""
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    before = len(events(demo_store))

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    log._write = full
    app = drive(ref(demo_store), log, (item,), _resolve_keys())
    outcome = app.outcomes[0]
    assert outcome.status == "refused"
    assert "nothing was written" in outcome.message and "No space left" in outcome.message
    assert str(log.path) in outcome.message
    assert len(events(demo_store)) == before
    assert RETRY_Q in brief(demo_store)
    assert not log.path.exists() or log.path.read_bytes() == b""


def test_an_outcome_that_cannot_be_logged_is_settled_from_daimons_ledger(demo_store, tmp_path: Path,
                                                                        writer_gone) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    calls = []

    def full_after_the_intent(fd: int, data: bytes) -> int:
        calls.append(data)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.write(fd, data)

    log._write = full_after_the_intent
    app = drive(ref(demo_store), log, (item,), _resolve_keys())
    assert app.outcomes[0].status == "applied"
    assert "the next start records it" in app.outcomes[0].message
    assert RETRY_Q not in brief(demo_store)
    [intent] = log.pending()
    log._write = os.write
    # the next start (this run is gone, its owed outcome with it)
    log = ActionLog(log.path)
    [note] = recovery.recover(log, ref(demo_store))
    assert note.landed == (item,) and note.logged and "landed" in note.message
    assert log.pending() == []
    [entry] = log.entries()
    assert entry.action_id == intent.action_id and entry.outcome == "applied"
    choice = log.undo_choice(ref(demo_store).slug, undo_plan.UNDOABLE_VERBS, undo_plan.UNDOABLE_OPS)
    assert choice.entry.action_id == intent.action_id


def test_undo_refuses_when_the_logs_last_line_is_not_its_anchored_head(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    drive(ref(demo_store), log, (item,), _resolve_keys())
    lines = log.path.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["records"][0]["status"] = "done"
    log.path.write_text("\n".join([*lines[:-1], json.dumps(forged, separators=(",", ":"))]) + "\n")
    rows = len(events(demo_store))

    async def script(pilot) -> None:
        await pilot.press("z")
        await done(pilot, 1)

    app = drive(ref(demo_store), log, (item,), script)
    assert app.outcomes[0].status == "refused" and "head file" in app.outcomes[0].message
    assert len(events(demo_store)) == rows


def test_a_y_typed_as_the_preview_opens_is_not_a_confirmation(demo_store, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Every y is "too soon" until the test moves the preview's opening back: no wall clock asserted.
    monkeypatch.setattr(PlanPreviewModal, "CONFIRM_DELAY_S", 3600.0)
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    before = len(events(demo_store))

    async def script(pilot) -> None:
        await to_preview(pilot)
        await pilot.press("y")
        await pilot.pause(0.05)
        preview = pilot.app.screen
        assert isinstance(preview, PlanPreviewModal) and len(events(demo_store)) == before
        preview.opened_at -= 7200.0
        await pilot.press("y")
        await until(pilot, lambda: len(pilot.app.outcomes) >= 1, tries=600)

    app = drive(ref(demo_store), log, (item,), script)
    assert app.outcomes[0].status == "applied"


async def test_w_with_an_unwritable_log_says_so_and_keeps_running(demo_store, tmp_path: Path) -> None:
    from daimon_tui.store.demo import builder as demo
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.briefing.screen import BriefingScreen
    from tests.ui.settle import settle

    demo.init_repo(demo_store.project)
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    app = DaimonTUI(project_path=str(demo_store.project), now=demo.DEMO_NOW.timestamp(),
                    action_log=ActionLog(blocker / "actions.jsonl"))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("w")
        await settle(pilot, rounds=5)
        assert app.is_running and app.screen is screen and screen.world
        messages = [n.message for n in app._notifications]
        assert any("World-check not logged" in m and str(blocker / "actions.jsonl") in m for m in messages)


def test_a_verb_with_nothing_selected_holds_the_typed_keys(demo_store, tmp_path: Path) -> None:
    """`r` on nothing, then note text typed: the letters (a `z`, a `y`) never run as commands."""
    from daimon_tui.ui.screens.verb_modals import NothingSelectedModal

    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    drive(ref(demo_store), log, (item,), _resolve_keys())
    rows = len(events(demo_store))

    async def script(pilot) -> None:
        await pilot.press("r")
        await on_screen(pilot, NothingSelectedModal)
        await pilot.press(*"lazy fix", "y", "enter")
        await done(pilot, 1)
        await pilot.pause(0.2)

    app = drive(ref(demo_store), log, (), script)
    assert [o.status for o in app.outcomes] == ["cancelled"]
    assert len(events(demo_store)) == rows
    assert [e.verb for e in log.entries()] == ["resolve"]
