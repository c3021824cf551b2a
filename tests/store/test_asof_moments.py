"""Issue 25 point 5: the as-of copy cuts at the moment a session was written
(its capture's own rows say when, even when the file was touched since),
keeps that session's own write rows, and reads TIME with the `@` box's parser."""

from __future__ import annotations

import asyncio
import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import api, capture, testing

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import history, reader
from daimon_tui.store.read.asof import stamp
from tests.daimon_records import events_stamped

QUESTION = demo.RETRY_QUESTION["text"]
CAPTURE_DELAY = timedelta(minutes=5)


def _late_captures(project: Path) -> list:
    """Three sessions restating one question; each capture ran five minutes
    after its session ended (its rows say so), and every file's mtime lies
    far outside the capture window (copied or touched since)."""
    created = []
    for n, days in enumerate((10, 5, 1), start=1):
        when = demo.DEMO_NOW - timedelta(days=days)
        cp = demo.session(f"S-day{n}", when, f"topic {n}")
        cp["working_context"]["open_questions"] = [dict(demo.RETRY_QUESTION)]
        with events_stamped(when + CAPTURE_DELAY):
            carried = capture.carry_forward(demo.witnessed(cp), str(project))
        testing.seed_checkpoint(project, carried, session_id=f"S-day{n}")
        created.append(when)
    return created


def _line(text: str) -> str:
    return next(line for line in text.splitlines() if QUESTION in line)


def test_as_of_a_session_keeps_its_own_write_rows(empty_store: demo.DemoStore) -> None:
    _late_captures(empty_store.project)
    ref = reader.resolve_project(str(empty_store.project))
    now = api.render_briefing(ref.target, now=demo.DEMO_NOW.timestamp()).text
    assert "×3" in _line(now)
    with history.as_of(ref, "S-day3") as cut:
        then = api.render_briefing(cut.project.target, now=demo.DEMO_NOW.timestamp()).text
    assert _line(then) == _line(now)  # ×3, as daimon said right after S-day3 was written


def test_inside_a_sessions_write_window_the_previous_session_stands(empty_store: demo.DemoStore) -> None:
    created = _late_captures(empty_store.project)
    ref = reader.resolve_project(str(empty_store.project))
    with history.as_of(ref, stamp(created[2] + timedelta(minutes=2))) as cut:
        assert cut.session_id == "S-day2"
    with history.as_of(ref, stamp(created[2] + CAPTURE_DELAY + timedelta(seconds=1))) as cut:
        assert cut.session_id == "S-day3"


@pytest.mark.parametrize("when", ["yesterday", "3d", "2w", "2026-11-28"])
def test_headless_as_of_takes_what_the_box_takes(demo_store: demo.DemoStore, when: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["brief", "--as-of", when, "--json", "--project", str(demo_store.project)]) == 0
    assert json.loads(capsys.readouterr().out)
    assert cli.main(["brief", "--as-of", "not a time", "--project", str(demo_store.project)]) == 2
    assert "is not a session id" in capsys.readouterr().err


def test_as_of_before_a_forget_does_not_call_the_item_forgotten(demo_store: demo.DemoStore) -> None:
    from daimon_tui.services.as_of import briefing_as_of
    from daimon_tui.store.write import writer
    from tests.daimon_records import item_ids, project_ref

    item = item_ids(demo_store.project)["Switch the nightly job to its own bucket prefix"]
    assert writer.forget_item(item, item, project=project_ref(demo_store)).outcome == "applied"
    ref = reader.resolve_project(str(demo_store.project))
    now = {w.id: w for w in reader.load_briefing(ref).withheld}
    assert now[item].state == "forgotten"
    then = {w.id: w for w in asyncio.run(briefing_as_of(ref, "S-day3")).withheld}
    # not forgotten yet then; its value stays removed (a forget is never undone by going back)
    assert then[item].state == "withheld" and then[item].forgotten_after == now[item].when
    assert item not in {i.id for i in asyncio.run(briefing_as_of(ref, "S-day3")).items()}


def _printed_ids(text: str) -> set[str]:
    import re

    return set(re.findall(r"\[([a-z]-[0-9a-f]{6,40})\]", text))


def daimon_brief_at(target: str, moment: float, capsys: pytest.CaptureFixture[str]) -> str:
    """`daimon brief`'s own output with its clock pinned at `moment` (run inside an as-of copy)."""
    from unittest import mock

    from daimon_briefing.cli import main as daimon_main

    capsys.readouterr()
    with mock.patch("time.time", return_value=moment):
        assert daimon_main(["brief", "--project", target]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("days_later", [0, 400])
def test_as_of_splits_briefed_items_by_that_instants_ranking(budget_store: demo.DemoStore, days_later: int,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Which items daimon briefs at an instant is ranked at that instant (ages, staleness), not today."""
    from daimon_tui.services.as_of import briefing_as_of

    ref = reader.resolve_project(str(budget_store.project))
    when = stamp(demo.DEMO_NOW + timedelta(days=days_later))
    then = asyncio.run(briefing_as_of(ref, when))
    briefed = {i.briefed_line for i in then.items() if i.briefed}
    with history.as_of(ref, when) as cut:
        text = daimon_brief_at(cut.project.target, cut.timestamp, capsys)
    printed = set(text.splitlines())
    assert briefed and briefed <= printed
    assert not {i.briefed_line for i in then.items() if i.briefed is False and i.briefed_line} & printed


@pytest.mark.parametrize("when", ["S-day2", "S-day3"])
def test_as_of_briefed_split_on_the_demo_store(demo_store: demo.DemoStore, when: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from daimon_tui.services.as_of import briefing_as_of

    ref = reader.resolve_project(str(demo_store.project))
    then = asyncio.run(briefing_as_of(ref, when))
    with history.as_of(ref, when) as cut:
        text = daimon_brief_at(cut.project.target, cut.timestamp, capsys)
    printed = set(text.splitlines())
    assert {i.briefed_line for i in then.items() if i.briefed} <= printed


STALE_LATER = ("Should the uploader keep its own retry ceiling per bucket, or share one ceiling across every "
               "bucket the nightly job touches?")
BACKGROUND = "Whether staging is shared"


def test_the_briefed_split_at_an_earlier_instant_is_not_todays(sandbox_root: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A loop carried from the first session is fresh the day after and stale
    three weeks on: daimon drops stale carried items first, else background
    sections first. Over a budget with room for one of the two, the day-after
    view briefs the loop and leaves out the uncertainty; today's ranking
    would do the opposite."""
    from daimon_tui.services.as_of import briefing_as_of

    first = demo.DEMO_NOW - timedelta(days=20)
    with demo.sandboxed(sandbox_root, receipts=False, settings={"DAIMON_BRIEF_MAX_BYTES": "480"}) as d:
        cp = demo.session("S-1", first, "topic 1")
        cp["working_context"]["open_questions"] = [{"text": STALE_LATER, "trust": "inferred"}]
        with events_stamped(first):
            testing.seed_checkpoint(d.project, capture.carry_forward(cp, str(d.project)), session_id="S-1")
        second = first + timedelta(days=1)
        cp = demo.session("S-2", second, "topic 2")
        cp["working_context"]["recent_decisions"] = [
            {"text": f"Decision {n} about the upload path", "trust": "inferred"} for n in range(3)]
        cp["epistemic_snapshot"]["uncertainties"] = [{"text": BACKGROUND, "trust": "inferred"}]
        with events_stamped(second):
            testing.seed_checkpoint(d.project, capture.carry_forward(cp, str(d.project)), session_id="S-2")
        ref = reader.resolve_project(str(d.project))
        when = stamp(second + timedelta(hours=1))

        def split(items: tuple) -> dict[str, bool | None]:
            return {i.text: i.briefed for i in items if i.text in (STALE_LATER, BACKGROUND)}

        today = split(reader.load_briefing(ref, demo.DEMO_NOW.timestamp()).items())
        then = split(asyncio.run(briefing_as_of(ref, when)).items())
        assert today == {STALE_LATER: False, BACKGROUND: True}  # the store tells the two rankings apart
        assert then == {STALE_LATER: True, BACKGROUND: False}
        with history.as_of(ref, when) as cut:
            printed = daimon_brief_at(cut.project.target, cut.timestamp, capsys)
        assert {text for text, briefed in then.items() if briefed} == {t for t in then if t in printed}


FRESH_LOOP = "Should the uploader retry on HTTP 503 as well?"
OLDER_LOOP = "Does the nightly job need its own bucket prefix?"


def test_the_budget_ranks_by_weight_at_the_views_instant(sandbox_root: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Two loops of one session, one first seen 13 days earlier. Just after the
    session the fresh loop weighs more (daimon's #78 recency); twelve days on the
    older one is overdue and escalates past it. With room for one, the view at
    the earlier instant briefs the fresh loop, as daimon did then, even when the
    wall clock reads twelve days later."""
    from unittest import mock

    from daimon_tui.services.as_of import briefing_as_of

    session = demo.DEMO_NOW - timedelta(days=20)
    with demo.sandboxed(sandbox_root, receipts=False, settings={"DAIMON_BRIEF_MAX_BYTES": "240"}) as d:
        cp = demo.session("S-1", session, "topic 1")
        cp["working_context"]["open_questions"] = [
            {"text": FRESH_LOOP, "trust": "inferred", "first_seen": stamp(session)},
            {"text": OLDER_LOOP, "trust": "inferred", "first_seen": stamp(session - timedelta(days=13))}]
        with events_stamped(session):
            testing.seed_checkpoint(d.project, capture.carry_forward(cp, str(d.project)), session_id="S-1")
        ref = reader.resolve_project(str(d.project))
        when, today = stamp(session + timedelta(hours=1)), (session + timedelta(days=12)).timestamp()

        def briefed(items: tuple) -> set[str]:
            return {i.text for i in items if i.briefed}

        with mock.patch("time.time", return_value=today):  # the wall clock reads "today"
            assert briefed(reader.load_briefing(ref, today).items()) == {OLDER_LOOP}  # today's ranking
            then = asyncio.run(briefing_as_of(ref, when))
        assert briefed(then.items()) == {FRESH_LOOP}
        with history.as_of(ref, when) as cut:
            printed = daimon_brief_at(cut.project.target, cut.timestamp, capsys)
        assert FRESH_LOOP in printed and OLDER_LOOP not in printed


def test_as_of_before_an_edit_names_the_session_shown_as_signed(demo_store: demo.DemoStore) -> None:
    """S-day2 was edited after signing (its mtime is the edit's): before the edit
    it is shown as its kept pointer holds it, and the view says an earlier edit
    would not show (the file keeps one mtime)."""
    from daimon_tui.services.as_of import briefing_as_of

    ref = reader.resolve_project(str(demo_store.project))
    notes = [n.message for n in asyncio.run(briefing_as_of(ref, "S-day2")).notes]
    assert any(m.startswith("session S-day2: its file was last changed at ") and "shown as signed" in m
               for m in notes), notes


def test_as_of_names_a_session_whose_signed_bytes_no_pointer_keeps() -> None:
    """Edited, then pushed out of the pointer window by three sessions: the bytes
    daimon read before the edit, and the signed ones it read after it, are gone."""
    from tests.store.test_differential import ROTATED, generated

    with generated(ROTATED) as b:
        ref = reader.resolve_project(b.target)
        (before, _said), (after, _said2) = b.said[0], b.said[1]
        with history.as_of(ref, stamp(before)) as cut:
            assert [d.message for d in cut.diagnostics if "no pointer keeps the bytes it had then" in d.message]
        with history.as_of(ref, stamp(after)) as cut:
            assert [d.message for d in cut.diagnostics if "no pointer keeps the signed bytes" in d.message]


def test_a_forgets_rewrite_is_not_when_a_session_was_written(tmp_path: Path) -> None:
    """A store without receipts: the session file's mtime is all that says when
    it was written, until a forget scrubs it minutes later. That mtime is the
    forget's (its tombstone's time), not the capture's: the session stood
    before it (found by the differential test in a team HOME, where the as-of
    copy dropped the session and showed the one before)."""
    from daimon_tui.store.read.asof import written_at

    created = demo.DEMO_NOW - timedelta(hours=1)
    scrub = created + timedelta(minutes=10)
    path = tmp_path / "S-01.json"
    path.write_text("{}", encoding="utf-8")
    os.utime(path, (scrub.timestamp(), scrub.timestamp()))
    assert written_at(path, stamp(created)) == stamp(scrub)  # no forget known: the mtime is the write
    assert written_at(path, stamp(created), rewrites=(stamp(scrub),)) == stamp(created)
    # a forget long before the file changed says nothing about this mtime
    assert written_at(path, stamp(created), rewrites=(stamp(created - timedelta(days=1)),)) == stamp(scrub)
