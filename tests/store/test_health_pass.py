"""Issue 42 point 2, Health in one pass: over a pass of moments oldest first,
each ledger is read once and each moment's copy only grows (so the copy's
kept fold folds the new rows alone), even when the ledger's rows are not in
time order; and the copy folds, by daimon's own folds, to what the exact cut
of that moment folds to (the per-session read)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import store as daimon_store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold import KeptFold
from daimon_tui.store.read import asof, reader
from daimon_tui.store.read.health import health
from tests.store.test_health import assert_points_are_daimons
from tests.store.test_health_kept import _append_resolution, _cutoff


def test_the_pass_folds_each_moment_onto_the_last_when_rows_are_out_of_time_order(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    project = reader.resolve_project(str(demo_store.project))
    sessions = ["S-day1", "S-day2", "S-day3"]
    day1, day2 = (asof.parse_time(_cutoff(project, sid)) for sid in sessions[:2])
    # appended after every session: a row stamped between day 1 and day 2, then one stamped before day 1
    _append_resolution(demo_store.project, day1 + (day2 - day1) / 2)
    _append_resolution(demo_store.project, day1 - timedelta(hours=1))
    monkeypatch.setattr(kept_fold, "KEEP_MIN_BYTES", 0)  # the demo's ledger is small: keep its fold anyway
    full_reads: list[str] = []
    real_full = KeptFold.full

    def counted(self: KeptFold, path: Path, key: str):  # type: ignore[no-untyped-def]
        full_reads.append(str(path))
        return real_full(self, path, key)

    monkeypatch.setattr(KeptFold, "full", counted)
    with kept_fold.sealed_only():
        report = health(project)
    assert [s.session_id for s in report.sessions][:3] == sessions
    copies = [p for p in full_reads if "daimon-tui-health-" in p and p.endswith("events.jsonl")]
    # one read of the ledger: daimon's of the real one (the listing's); the first moment's copy was
    # folded from those rows, and every later one onto it
    assert copies == [], full_reads
    assert full_reads == [str(asof.config.checkpoint_dir() / project.slug / "events.jsonl")]
    assert not [k for k in kept_fold.KEPT.held if "daimon-tui-health-" in k]  # dropped with the copy
    assert_points_are_daimons(project, report)  # each point still daimon's read of the exact cut then


# ---- the pass's copy against the exact cut, by daimon's own folds ---------------------------------

STAMPS = [f"2026-01-0{d}T0{h}:00:00Z" for d in range(1, 4) for h in range(3)]
ROW = st.one_of(
    st.builds(lambda ts, ref, status: {"ts": ts, "kind": "resolution", "item_ref": ref, "status": status},
              st.sampled_from(STAMPS), st.sampled_from(["o-1", "o-2", "o-3"]),
              st.sampled_from(["resolved", "reopened", "superseded"])),
    st.builds(lambda ts, item, sid: {"ts": ts, "kind": "corroboration", "item_ref": f"corroboration:{item}",
                                     "status": f"corroborated-by:{sid}"},
              st.sampled_from(STAMPS), st.sampled_from(["o-1", "o-2"]), st.sampled_from(["S1", "S2", "S3"])),
    st.builds(lambda ref: {"kind": "resolution", "item_ref": ref, "status": "resolved"},  # no stamp
              st.sampled_from(["o-1", "o-2"])),
    st.builds(lambda ts: {"ts": ts, "kind": "forget", "item_ref": "o-3", "status": "forgotten:k1"},
              st.sampled_from(STAMPS)),
)


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _folds(rows: list[dict]) -> tuple[dict, dict]:
    return daimon_store.fold_resolutions(rows), daimon_store.fold_corroborations(rows)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(ROW, max_size=40), cutoffs=st.lists(st.sampled_from(STAMPS), min_size=1, max_size=5),
       blank_at=st.integers(min_value=0, max_value=40))
def test_each_moments_copy_folds_as_the_exact_cut_does(tmp_path_factory: pytest.TempPathFactory, rows: list[dict],
                                                       cutoffs: list[str], blank_at: int) -> None:
    base = tmp_path_factory.mktemp("pass")
    lines = [json.dumps(r) + "\n" for r in rows]
    lines.insert(min(blank_at, len(lines)), "\n")  # a blank line is kept where it stands
    src = base / "events.jsonl"
    src.write_text("".join(lines))
    passing, copy, exact = asof.ledger_pass(), base / "copy.jsonl", base / "exact.jsonl"
    before = b""
    for cutoff in sorted(cutoffs):  # oldest first, as Health's pass
        left_out = passing.cut(src, copy, cutoff)
        assert left_out == asof._cut_ledger(src, exact, cutoff)
        ours, theirs = _rows(copy), _rows(exact)
        assert sorted(map(json.dumps, ours)) == sorted(map(json.dumps, theirs))
        assert _folds(ours) == _folds(theirs)
        data = copy.read_bytes()
        late_forget = any(asof.is_forget_row(json.dumps(r)) and r.get("ts", "") > min(cutoffs) for r in rows)
        if not late_forget:
            assert data.startswith(before)  # the copy only grew: its kept fold folds the new rows alone
        before = data


def test_the_moments_worked_out_once_are_the_ones_as_of_works_out(demo_store: demo.DemoStore) -> None:
    from daimon_tui.store.read.health import _kept
    from daimon_tui.store.read.history import sessions

    project = reader.resolve_project(str(demo_store.project))
    kept = _kept(project, {row.session_id: row.created for row in sessions(project).rows})
    assert sorted(kept.moments) == ["S-day1", "S-day2", "S-day3"]
    assert kept.moments == {sid: _cutoff(project, sid) for sid in kept.moments}


def test_the_columns_come_before_the_listing_opens_any_session(demo_store: demo.DemoStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The Health view shows its table at once: daimon's listing alone, not the
    history listing (which opens and judges every session: a full fold on a cold store)."""
    from daimon_tui.store.read import history
    from daimon_tui.store.read.health import NOW, health_points

    project = reader.resolve_project(str(demo_store.project))
    opened: list[str] = []
    real = history.sessions

    def counted(p):  # type: ignore[no-untyped-def]
        opened.append("listing")
        return real(p)

    monkeypatch.setattr(history, "sessions", counted)
    points = health_points(project)
    first = next(points)
    assert opened == []
    assert [s.session_id for s in first.sessions] == ["S-day1", "S-day2", "S-day3", NOW]
    assert not any(s.counts for s in first.sessions)
    *_, whole = points
    assert opened == ["listing"]
    assert first.retained == whole.retained and [s.session_id for s in whole.sessions] == [
        s.session_id for s in first.sessions]


@given(moment=st.datetimes(), text=st.text(alphabet="0123456789-:TZ.+ ", max_size=25))
def test_a_rows_time_reads_the_same_by_the_short_way(moment, text) -> None:  # type: ignore[no-untyped-def]
    """`_time_of` returns a stamp already in daimon's form as it is: the same as formatting it again."""

    def slow(ts: str) -> str | None:
        try:
            return asof.stamp(asof.parse_time(ts))
        except ValueError:
            return None

    for ts in (moment.strftime("%Y-%m-%dT%H:%M:%SZ"), f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%SZ"),
               text, "٢٠٢٦-01-01T00:00:00Z"):
        assert asof._time_of({"ts": ts}) == slow(ts), ts
