"""Issue 42 point 2: a retained session's Health numbers are read once and
kept, keyed by what they depend on and checked like the kept fold: the next
read takes them without reading the store as it stood, a row appended after
a session keeps its numbers, a row stamped before it (or a changed session
file) reads it again; every point still equals daimon's own reads then."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from daimon_briefing import store as daimon_store
from daimon_briefing.surfaces import Writer
from hypothesis import given, settings
from hypothesis import strategies as st

from daimon_tui.store import own_files
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import asof, asof_moments, health_kept, reader
from daimon_tui.store.read.health import NOW, health
from tests.store.test_health import assert_points_are_daimons


@pytest.fixture
def as_of_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sessions read as they stood (each an `as_of` copy and a daimon read)."""
    seen: list[str] = []
    real = asof.as_of

    def counted(project, when, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(str(when))
        return real(project, when, **kwargs)

    monkeypatch.setattr(asof, "as_of", counted)
    return seen


def _append_resolution(project: Path, when) -> None:  # type: ignore[no-untyped-def]
    """A person's resolution row, stamped `when`, through daimon's own writer."""
    with demo._events_at(when):
        assert daimon_store.append_events([{"item_ref": "no-such-item", "status": "resolved", "source": "ui"}],
                                          project_dir=str(project), writer=Writer.HUMAN)


def _fresh(project) -> object:  # type: ignore[no-untyped-def]
    """The report read with nothing kept (our cache emptied first)."""
    shutil.rmtree(own_files.cache_dir() / "health", ignore_errors=True)
    return health(project)


def _cutoff(project, sid: str) -> str:  # type: ignore[no-untyped-def]
    return asof.stamp(asof.resolve_when(project, sid)[0])


def test_kept_numbers_are_read_once_and_stay_daimons(demo_store: demo.DemoStore, as_of_reads: list[str]) -> None:
    project = reader.resolve_project(str(demo_store.project))
    first = health(project)
    assert as_of_reads == ["S-day1", "S-day2", "S-day3"]
    as_of_reads.clear()
    again = health(project)
    assert as_of_reads == []  # every retained session's numbers were kept
    assert again == first
    assert_points_are_daimons(project, again)


def test_a_row_after_a_session_keeps_it_one_before_reads_it_again(demo_store: demo.DemoStore,
                                                                    as_of_reads: list[str]) -> None:
    project = reader.resolve_project(str(demo_store.project))
    health(project)
    _append_resolution(demo_store.project, demo.DEMO_NOW + timedelta(hours=1))  # after every session
    as_of_reads.clear()
    kept = health(project)
    assert as_of_reads == []
    assert_points_are_daimons(project, kept)

    # stamped between S-day1's moment and S-day2's: S-day2 and S-day3 would now see it
    day1, day2 = _cutoff(project, "S-day1"), _cutoff(project, "S-day2")
    between = asof.parse_time(day1) + (asof.parse_time(day2) - asof.parse_time(day1)) / 2
    _append_resolution(demo_store.project, between)
    as_of_reads.clear()
    kept = health(project)
    assert as_of_reads == ["S-day2", "S-day3"]
    assert_points_are_daimons(project, kept)
    as_of_reads.clear()
    assert kept == _fresh(project)


def test_a_changed_session_file_reads_every_session_holding_it_again(demo_store: demo.DemoStore,
                                                                      as_of_reads: list[str]) -> None:
    project = reader.resolve_project(str(demo_store.project))
    health(project)
    demo.tamper(demo_store.checkpoint_dir, "S-day3")  # only S-day3 holds it (the others came before)
    as_of_reads.clear()
    kept = health(project)
    assert as_of_reads == ["S-day3"]
    assert_points_are_daimons(project, kept)
    assert [p.session_id for p in kept.sessions] == ["S-day1", "S-day2", "S-day3", NOW]


def test_other_changes_keep_nothing(demo_store: demo.DemoStore, as_of_reads: list[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    project = reader.resolve_project(str(demo_store.project))
    health(project)
    monkeypatch.setenv("DAIMON_CHECKPOINT_HISTORY", "1")  # daimon's settings: the pointer window then
    as_of_reads.clear()
    health(project)
    assert as_of_reads == ["S-day1", "S-day2", "S-day3"]


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[tuple[Path, dict]]:
    path = tmp_path / "events.jsonl"
    path.write_text(json.dumps({"ts": "2026-11-01T09:00:00Z", "item_ref": "a", "status": "resolved"}) + "\n")
    data = path.read_bytes()
    yield path, {"size": len(data), "sha": health_kept._file_sha(path)}


def test_an_appended_forget_or_timeless_row_or_a_rewrite_keeps_nothing(ledger: tuple[Path, dict]) -> None:
    path, kept = ledger
    with path.open("a") as handle:
        handle.write(json.dumps({"ts": "2026-11-03T09:00:00Z", "item_ref": "b", "status": "resolved"}) + "\n")
    assert health_kept._appended_since(path, kept, "bucket") == "2026-11-03T09:00:00Z"
    body = path.read_text()
    path.write_text(body + json.dumps({"item_ref": "c", "status": "resolved"}) + "\n")  # no time
    assert health_kept._appended_since(path, kept, "bucket") is None
    assert health_kept._appended_since(path, kept, "forgets") == ""  # another bucket's: only forgets count
    path.write_text(body + json.dumps({"ts": "2026-11-04T09:00:00Z", "item_ref": "sha256:" + "0" * 64,
                                       "status": "forgotten:" + "0" * 64}) + "\n")
    assert health_kept._appended_since(path, kept, "forgets") is None
    path.write_text(body.replace("resolved", "reopened"))  # not only appended
    assert health_kept._appended_since(path, kept, "bucket") is None


def test_the_moments_come_from_one_read_of_the_events_ledger(demo_store: demo.DemoStore,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every charted session's moment is worked out from the same witness and
    forget rows: the ledger is read again only once it has changed."""
    project = reader.resolve_project(str(demo_store.project))
    bucket = demo_store.checkpoint_dir / project.slug
    first = (asof.session_rows(bucket), asof.forget_times(bucket))

    def no_read(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the events ledger was read again")

    with monkeypatch.context() as patched:
        patched.setattr(Path, "open", no_read)
        patched.setattr(asof_moments, "open", no_read, raising=False)
        assert (asof.session_rows(bucket), asof.forget_times(bucket)) == first
    _append_resolution(demo_store.project, demo.DEMO_NOW + timedelta(hours=1))
    with monkeypatch.context() as patched:
        patched.setattr(Path, "open", no_read)
        patched.setattr(asof_moments, "open", no_read, raising=False)
        with pytest.raises(AssertionError, match="read again"):
            asof.session_rows(bucket)


def test_one_copy_for_the_pass_grows_its_ledger_and_reads_as_fresh_copies(demo_store: demo.DemoStore,
                                                                          tmp_path: Path) -> None:
    """Health's pass keeps one copy, oldest moment first: the next moment's
    events ledger is the last one's plus the rows between (appended, so the
    kept fold of the copy folds those alone), and each moment reads as a
    fresh copy of it does."""
    from daimon_tui.store.read.health import briefing_counts

    project = reader.resolve_project(str(demo_store.project))
    into = tmp_path / "pass"
    into.mkdir(mode=0o700)
    ledger = into / "checkpoints" / project.slug / "events.jsonl"
    seen: list[tuple[int, bytes]] = []
    for sid in ("S-day1", "S-day2", "S-day3"):
        with asof.as_of(project, sid, into=into) as cut:
            ours = briefing_counts(reader.load_briefing(cut.project, now=cut.timestamp))
            seen.append((ledger.stat().st_ino, ledger.read_bytes()))
        with asof.as_of(project, sid) as cut:
            assert ours == briefing_counts(reader.load_briefing(cut.project, now=cut.timestamp)), sid
    assert len({inode for inode, _ in seen}) == 1  # the same file, appended to
    assert all(later.startswith(earlier) for (_, earlier), (_, later) in itertools.pairwise(seen))
    assert len(seen[-1][1]) > len(seen[0][1])  # rows came between the moments


def test_the_moments_are_kept_while_the_events_ledger_stands(demo_store: demo.DemoStore,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Over kept numbers the witness rows of the whole ledger are not read
    again: each session's moment comes from the rows kept with the events
    ledger's stat key; a changed ledger reads them again, and the moments
    are still the ones `as_of` works out."""
    from daimon_tui.store.read.health import _kept
    from daimon_tui.store.read.history import sessions

    project = reader.resolve_project(str(demo_store.project))
    created = {row.session_id: row.created for row in sessions(project).rows}
    first = health(project)
    moments = {sid: _cutoff(project, sid) for sid in created}
    scans: list[str] = []
    real = asof.session_rows

    def counted(bucket: Path) -> dict[str, tuple[str, ...]]:
        scans.append(bucket.name)
        return real(bucket)

    monkeypatch.setattr(asof, "session_rows", counted)
    assert _kept(project, created).moments == moments
    assert scans == []  # a later run: what the ledger says of each moment was kept
    assert health(project) == first
    _append_resolution(demo_store.project, demo.DEMO_NOW + timedelta(hours=1))
    scans.clear()
    assert _kept(project, created).moments == moments  # the row came after every session
    assert scans == [project.slug]


@settings(max_examples=300)
@given(stamps=st.lists(st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2026, 1, 3)), max_size=12),
       created=st.datetimes(min_value=datetime(2025, 12, 31), max_value=datetime(2026, 1, 3)),
       junk=st.booleans())
def test_a_sessions_deciding_rows_give_the_moment_all_its_rows_give(stamps, created, junk) -> None:  # type: ignore[no-untyped-def]
    """What is kept of a session's witness rows (`asof.deciding_rows`) gives
    the moment `written_at` works out from all of them."""
    rows = tuple(asof.stamp(s.replace(tzinfo=UTC)) for s in stamps) + (("not a time",) if junk else ())
    made = asof.stamp(created.replace(tzinfo=UTC))
    kept = asof.deciding_rows(rows)
    assert len(kept) <= 2
    assert asof.written_at(None, made, kept) == asof.written_at(None, made, rows)


def test_the_listing_is_kept_while_what_it_reads_stands(demo_store: demo.DemoStore,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Over kept numbers the history listing (its rows and notes) is not
    opened again: it is kept with the stat of every file it reads. A
    tampered session file (a receipt note) opens it again, and the report,
    notes included, is the one read with nothing kept."""
    from daimon_tui.store.read import history

    project = reader.resolve_project(str(demo_store.project))
    first = health(project)
    opened: list[str] = []
    real = history.sessions

    def counted(of):  # type: ignore[no-untyped-def]
        opened.append(of.slug)
        return real(of)

    monkeypatch.setattr(history, "sessions", counted)
    assert health(project) == first
    assert opened == []
    demo.tamper(demo_store.checkpoint_dir, "S-day2")
    kept = health(project)
    assert opened == [project.slug]
    assert any("S-day2" in d.message for d in kept.diagnostics)
    assert health(project) == kept == _fresh(project)
    assert opened == [project.slug, project.slug]  # the last: nothing kept


def test_a_kept_listing_not_of_our_shape_is_read_again() -> None:
    """The cache is our file but untrusted input: a listing of any other shape is not taken."""
    good = {"key": "k", "rows": [["S-1", "2026-11-01T09:00:00Z"], ["S-2", None]],
            "notes": [{"level": "info", "source": "daimon", "message": "m", "repair": None}]}
    assert health_kept._listed(good, "k") == (
        (("S-1", "2026-11-01T09:00:00Z"), ("S-2", None)), (health_kept.Diagnostic(level="info", message="m"),))
    assert health_kept._listed(good, "other") is None
    for bad in ({**good, "rows": [["S-1"]]}, {**good, "rows": [[1, None]]}, {**good, "notes": [{"level": "loud"}]},
                {**good, "notes": [{**good["notes"][0], "message": 3}]}, {**good, "rows": "S-1"}, []):
        assert health_kept._listed(bad, "k") is None, bad
