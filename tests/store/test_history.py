"""History reads against daimon's own answers: witnesses, lifecycle, sessions,
diff and the "as of" copy (which must never touch the store)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import os
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from daimon_briefing import api, config, schema, store, view
from daimon_briefing import cli as daimon_cli
from daimon_briefing.surfaces import Writer

from daimon_tui.services.as_of import briefing_as_of
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import history, reader
from daimon_tui.store.read.asof import parse_time, stamp
from tests.daimon_records import events_stamped

QUESTION = demo.RETRY_QUESTION["text"]


def _id_of(ref, session_id: str, text: str) -> str:
    briefing = reader.load_briefing(ref, session_id=session_id)
    item = next(i for i in (*briefing.items(), *briefing.resolved) if i.text == text)
    assert item.id
    return item.id


def _next_second() -> None:
    # events.jsonl stamps whole seconds: two writes on one id need distinct ones
    time.sleep(1.05 - (time.time() % 1.0))


def _event(project: Path, item_id: str, status: str) -> None:
    assert store.append_event(
        item_id, status, note="test", source="ui", project_dir=str(project), writer=Writer.HUMAN
    )


def _line(text: str, needle: str) -> str | None:
    return next((line for line in text.splitlines() if needle in line), None)


def _tree_hashes(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_witnesses_reset_by_resolution_and_reopen_agree_with_daimon(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    qid = _id_of(ref, "S-day3", QUESTION)
    now = demo.DEMO_NOW.timestamp()

    report = history.witnesses(ref, qid)
    assert [w.session_id for w in report.witnesses] == ["S-day2", "S-day3"]
    assert all(w.counts and w.reset_by is None for w in report.witnesses)
    assert all(w.quote == demo.RETRY_QUESTION["quote"] for w in report.witnesses)
    assert report.counted == api.why(ref.target, qid, now=now)["corroboration"]["count"] == 2
    assert report.badge == 3 and report.badge_shown
    assert "[≈ corroborated ×3]" in _line(api.render_briefing(ref.target, now=now).text, QUESTION)

    _next_second()
    _event(demo_store.project, qid, "resolved")
    report = history.witnesses(ref, qid)
    assert [w.counts for w in report.witnesses] == [False, False]
    assert {w.reset_by.kind for w in report.witnesses if w.reset_by} == {"resolution"}
    assert all(w.reset_by is not None and w.reset_by.source == "ui" for w in report.witnesses)
    assert report.counted == 0 and not report.badge_shown
    assert (api.why(ref.target, qid, now=now) or {}).get("corroboration", {}).get("count", 0) == 0
    assert _line(api.render_briefing(ref.target, now=now).text, QUESTION) is None

    _next_second()
    _event(demo_store.project, qid, "reopened")
    report = history.witnesses(ref, qid)
    assert [w.counts for w in report.witnesses] == [False, False]
    assert all(w.reset_by is not None and w.reset_by.kind == "resolution" for w in report.witnesses)
    assert report.counted == api.why(ref.target, qid, now=now)["corroboration"]["count"] == 0
    assert report.badge == 1 and not report.badge_shown
    line = _line(api.render_briefing(ref.target, now=now).text, QUESTION)
    assert line is not None and "corroborated" not in line

    timeline = history.timeline(ref, qid)
    assert [(e.status, e.ts) for e in timeline.events] == [
        (e.status, e.ts) for e in view.item_events(ref.target, qid)
    ]
    assert [e.decides for e in timeline.events] == [False, True]
    assert timeline.lifecycle == api.why(ref.target, qid, now=now)["axes"]["lifecycle"] == "active"
    assert timeline.decided_by.startswith("reopened")
    assert {h.session_id for h in timeline.sessions} == {"S-day1", "S-day2", "S-day3"}


def test_timeline_names_the_resolution_that_decides(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    rid = _id_of(ref, "S-day1", "Does the upload API send Retry-After headers when throttling?")
    timeline = history.timeline(ref, rid)
    assert timeline.lifecycle == api.why(ref.target, rid)["axes"]["lifecycle"] == "resolved"
    assert [(e.status, e.ts) for e in timeline.events] == [(e.status, e.ts) for e in view.item_events(ref.target, rid)]
    assert [(e.status, e.source, e.note, e.decides) for e in timeline.events] == [
        ("resolved", "ui", "API docs say Retry-After is sent", True)
    ]
    stated = [h.session_id for h in timeline.sessions if h.stated]
    carried = {h.session_id: h.carried_from for h in timeline.sessions if not h.stated}
    assert stated == ["S-day1"] and carried == {"S-day3": "S-day1", "S-day2": "S-day1"}


def test_sessions_counts_by_trust_and_unreadable_file(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    (demo_store.checkpoint_dir / "S-torn.json").write_text("{not json", encoding="utf-8")
    listing = history.sessions(ref)
    # daimon's own listing, newest first, and its own judged copy of each session.
    theirs = sorted(view.sessions(ref.target).rows, key=lambda r: r.created, reverse=True)
    assert [(r.session_id, r.created, r.topic) for r in listing.rows] == [
        (r.session_id, r.created, r.topic) for r in theirs
    ]
    opened = view.open_sessions(ref.target, [r.session_id for r in theirs], live=False)
    for row in listing.rows:
        held = opened[row.session_id]
        trusts = Counter(
            item.get("trust") or "untagged"
            for fld, item in schema.iter_items(held.checkpoint)
            if not fld.singleton
        )
        expected = {"verbatim": trusts["verbatim"], "inferred": trusts["inferred"], "untagged": trusts["untagged"]}
        assert {k: row.counts[k] for k in expected} == expected, row
    # "withheld now" (tests/store/test_withheld_one_word.py): the demo resolves one item of S-day3 and
    # quarantines another
    assert listing.rows[0].counts["withheld now"] == 2
    assert any("could not be parsed" in d.message for d in listing.diagnostics)


def daimon_cli_json(*argv: str) -> dict:
    """daimon's own CLI, in this process, its --json answer (tests only: the app never runs it)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert daimon_cli.main(list(argv)) == 0
    return json.loads(out.getvalue())


def test_diff_rows_equal_daimons_cli(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    for older, newer in ((2, 0), (2, 1), (1, 0)):
        theirs = daimon_cli_json("diff", "--json", f"--slug={ref.slug}", "--from", str(older), "--to", str(newer))
        ours = history.diff(ref, theirs["from"]["session_id"], theirs["to"]["session_id"])
        assert theirs["changes"] and [r.model_dump() for r in ours.rows] == theirs["changes"]
    missing = history.diff(ref, "S-day1", "S-nope")
    assert missing.rows == () and missing.diagnostics


def _question_store(project: Path) -> None:
    today = datetime.now(UTC).replace(microsecond=0)
    first = demo.session("S-one", today - timedelta(days=2), "Cache policy")
    first["working_context"]["open_questions"] = [
        {"text": "Should the cache expire after one hour?", "trust": "inferred"}
    ]
    demo.seed(project, first)
    second = demo.session("S-two", today - timedelta(days=1), "Cache policy")
    second["working_context"]["recent_decisions"] = [
        {"text": "Keep the cache in memory only", "trust": "inferred"}
    ]
    demo.seed(project, second)


def test_as_of_before_and_after_a_resolution_never_touches_the_store(empty_store: demo.DemoStore) -> None:
    _question_store(empty_store.project)
    ref = reader.resolve_project(str(empty_store.project))
    qid = _id_of(ref, "S-two", "Should the cache expire after one hour?")
    _next_second()
    _event(empty_store.project, qid, "resolved")
    resolved_at = parse_time(view.item_events(ref.target, qid)[-1].ts or "")
    before = _tree_hashes(empty_store.root)

    with history.as_of(ref, stamp(resolved_at - timedelta(seconds=1))) as cut:
        assert cut.session_id == "S-two" and cut.rows_cut >= 1
        text = api.render_briefing(cut.project.target, now=cut.timestamp).text
        assert _line(text, "Should the cache expire after one hour?") is not None
        live = reader.load_briefing(cut.project, now=cut.timestamp)
        assert qid in {i.id for i in live.items()}
    with history.as_of(ref, stamp(resolved_at + timedelta(seconds=1))) as cut:
        text = api.render_briefing(cut.project.target, now=cut.timestamp).text
        assert _line(text, "Should the cache expire after one hour?") is None
        gone = reader.load_briefing(cut.project, now=cut.timestamp)
        assert qid not in {i.id for i in gone.items()}
    # now, outside the copy, the store says the same as after
    assert _line(api.render_briefing(ref.target).text, "Should the cache expire after one hour?") is None
    assert _tree_hashes(empty_store.root) == before


def test_as_of_a_session_serves_that_checkpoint(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    before = _tree_hashes(demo_store.root)
    with history.as_of(ref, "S-day1") as cut:
        assert cut.session_id == "S-day1" and cut.sessions == ("S-day1",)
        assert cut.when == "2026-11-22T09:00:00Z"
        assert api.lookup(cut.project.target, "r-166ad919dbb3").__class__.__name__ == "Absent"
    with history.as_of(ref, "2026-11-01T00:00:00Z") as cut:
        assert cut.session_id is None
        assert api.render_briefing(cut.project.target, now=cut.timestamp).state == "no-checkpoint"
    with pytest.raises(ValueError), history.as_of(ref, "not a time"):
        pass
    assert _tree_hashes(demo_store.root) == before


def test_as_of_keeps_every_forget_tombstone(empty_store: demo.DemoStore) -> None:
    # A forget is never undone by going back in time; other later rows are cut.
    _question_store(empty_store.project)
    ref = reader.resolve_project(str(empty_store.project))
    events = empty_store.checkpoint_dir / ref.slug / "events.jsonl"
    # Both rows written by daimon's own writer, stamped long after S-two.
    with events_stamped(datetime(2099, 1, 1, tzinfo=UTC)):
        assert store.append_event("x", "forgotten:abc", kind="forget", source="ui", project_dir=ref.target,
                                  tombstone=True, writer=Writer.HUMAN)
        assert store.append_event("x", "resolved", source="ui", project_dir=ref.target, writer=Writer.HUMAN)
    assert all(row.startswith('{"ts": "2099-') for row in events.read_text(encoding="utf-8").splitlines()[-2:])
    with history.as_of(ref, "S-two"):
        copied = config.checkpoint_dir() / ref.slug / "events.jsonl"
        assert copied != events
        rows = copied.read_text(encoding="utf-8").splitlines()
    assert any("forgotten:abc" in r for r in rows)
    assert not any('"resolved"' in r for r in rows)


def test_headless_briefing_as_of(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    then = asyncio.run(briefing_as_of(ref, "S-day2"))
    assert then.session_id == "S-day2"
    assert then.notes and "historical view as of 2026-11-27T09:00:00Z (S-day2)" in then.notes[0].message
    assert "r-efc206bb29e9" not in {i.id for i in then.items()}  # stated first in S-day3
    assert asyncio.run(briefing_as_of(ref, "2026-12-31T00:00:00Z")).session_id == "S-day3"


def test_as_of_cuts_at_the_moment_the_checkpoint_was_written(empty_store: demo.DemoStore) -> None:
    # A checkpoint lands a minute or two after its `created` (the session's
    # end); inside that window it did not exist yet.
    project = empty_store.project
    ended = demo.DEMO_NOW - timedelta(days=1)
    for sid, created in (("S-before", ended - timedelta(days=1)), ("S-late", ended)):
        cp = demo.session(sid, created, f"topic {sid}")
        cp["working_context"]["recent_decisions"] = [{"text": f"decision {sid}", "trust": "inferred"}]
        demo.seed(project, cp)
    late = empty_store.checkpoint_dir / "S-late.json"
    written = ended + timedelta(seconds=90)
    os.utime(late, (written.timestamp(), written.timestamp()))
    ref = reader.resolve_project(str(project))
    with history.as_of(ref, stamp(ended + timedelta(seconds=30))) as cut:
        assert cut.session_id == "S-before"
    with history.as_of(ref, stamp(written + timedelta(seconds=1))) as cut:
        assert cut.session_id == "S-late"
    with history.as_of(ref, "S-late") as cut:
        assert cut.session_id == "S-late" and cut.when == stamp(written)


SIGNED = "Ship the retry change behind the UPLOAD_RETRY flag"
EDITED = "Ship the retry change without the UPLOAD_RETRY flag"


def hand_edit(d: demo.DemoStore, session_id: str, old: str, new: str) -> None:
    """A person edits a signed session file after signing (daimon's pointers keep the signed copy)."""
    path = d.checkpoint_dir / f"{session_id}.json"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_diff_of_a_hand_edited_session_shows_the_signed_text_and_says_so(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    hand_edit(demo_store, "S-day3", SIGNED, EDITED)
    theirs = daimon_cli_json("diff", "--json", f"--slug={ref.slug}")
    assert (theirs["from"]["session_id"], theirs["to"]["session_id"]) == ("S-day2", "S-day3")
    assert any(r["text"] == SIGNED for r in theirs["changes"])
    ours = history.diff(ref, "S-day2", "S-day3")
    assert [r.model_dump() for r in ours.rows] == theirs["changes"]
    assert all(r.text != EDITED for r in ours.rows)
    warned = [d for d in ours.diagnostics if "S-day3" in d.message and "changed after signing" in d.message]
    assert warned and "latest.json" in warned[0].message
    listing = history.sessions(ref)
    marks = {r.session_id: r.receipt for r in listing.rows}
    assert marks["S-day3"] == "mismatch" and marks["S-day1"] == "match"
    assert any("S-day3" in d.message and "changed after signing" in d.message for d in listing.diagnostics)
    assert {r.session_id: r.pointer for r in listing.rows}["S-day3"] == "latest.json"
    # Opened read-only, the session reads as daimon reads it: the signed pointer copy.
    texts = {i.text for i in reader.load_briefing(ref, session_id="S-day3").items()}
    assert SIGNED in texts and EDITED not in texts
