"""Issue 42 point 2, Health from an empty cache in one pass: what does not
depend on the moment is worked out once per pass, not once per moment, and
every point stays daimon's read of the store as it stood then."""

from __future__ import annotations

import itertools
import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import store as daimon_store
from daimon_briefing.surfaces import Writer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daimon_tui.store.child.swaps import swaps_installed
from daimon_tui.store.daimon_api.public import Health, jsonl
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold_build
from daimon_tui.store.judging.kept_fold import KeptFold
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.read import asof, asof_moments, reader
from daimon_tui.store.read.health import health
from tests.store.test_health import assert_points_are_daimons


def _witness(store: demo.DemoStore, session_id: str, rows: int) -> None:
    """More rows of `session_id`'s capture (as daimon's capture writes them),
    stamped seconds after its first: a capture names every item it corroborates."""
    bucket = asof.config.checkpoint_dir() / reader.resolve_project(str(store.project)).slug
    first = min(asof.parse_time(ts) for ts in asof.session_rows(bucket)[session_id])
    for n in range(rows):
        with demo._events_at(first + timedelta(seconds=n + 1)):
            assert daimon_store.append_event(daimon_store.corroboration_ref(f"o-{n:06x}"),
                                             f"corroborated-by:{session_id}", kind="corroboration",
                                             source="serializer", project_dir=str(store.project),
                                             writer=Writer.EMITTER)


def test_a_sessions_moment_in_the_pass_reads_only_its_deciding_witness_rows(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """`written_at` decides by a session's earliest witness row and the latest
    within the capture window of it (`deciding_rows`): each moment of the pass
    works out every session file's moment from those two, not from all its
    witness rows again (thousands a session on a year of memory)."""
    project = reader.resolve_project(str(demo_store.project))
    bucket = asof.config.checkpoint_dir() / project.slug
    _witness(demo_store, "S-day3", 5)
    witnessed = {sid: len(rows) for sid, rows in asof.session_rows(bucket).items()}
    assert witnessed["S-day3"] > 2, witnessed
    given: list[int] = []
    real = asof.written_at

    def counted(path, created, own_rows=(), rewrites=()):  # type: ignore[no-untyped-def]
        given.append(len(own_rows))
        return real(path, created, own_rows, rewrites)

    monkeypatch.setattr(asof, "written_at", counted)
    report = health(project)
    assert given and max(given) <= 2, given
    assert_points_are_daimons(project, report)


def test_the_pass_reads_each_pointer_once(demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes the bucket's pointers hold (what a session was as signed) are
    read by the copy once per state of the pointers, not for each session at each moment."""
    import sys

    from daimon_tui.store.daimon_api import reading as daimon_reading

    project = reader.resolve_project(str(demo_store.project))
    bucket = asof.config.checkpoint_dir() / project.slug
    reads: list[str] = []
    real = Path.read_bytes

    def counted(self: Path) -> bytes:
        copying = sys._getframe(1).f_globals.get("__name__") == asof.__name__
        if copying and self.parent == bucket and daimon_reading.is_pointer_name(self.name):
            reads.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    report = health(project)
    assert reads and len(reads) == len(set(reads)), reads
    monkeypatch.setattr(Path, "read_bytes", real)
    assert_points_are_daimons(project, report)


# ---- one read of the ledger: the pass's copies cut from daimon's rows of it ----------------------

STAMPS = [f"2026-01-0{d}T0{h}:00:00Z" for d in range(1, 4) for h in range(3)]
ROW = st.one_of(
    st.builds(lambda ts, ref, status: {"ts": ts, "kind": "resolution", "item_ref": ref, "status": status},
              st.sampled_from(STAMPS), st.sampled_from(["o-1", "o-2", "o-3"]),
              st.sampled_from(["resolved", "reopened", "superseded-by:o-2", "supersede-candidate:o-3"])),
    st.builds(lambda ts, item, sid: {"ts": ts, "kind": "corroboration", "item_ref": f"corroboration:{item}",
                                     "status": f"corroborated-by:{sid}"},
              st.sampled_from(STAMPS), st.sampled_from(["o-1", "o-2"]), st.sampled_from(["S1", "S2", "S3"])),
    st.builds(lambda ref: {"kind": "resolution", "item_ref": ref, "status": "resolved"},  # no stamp
              st.sampled_from(["o-1", "o-2"])),
    st.builds(lambda ts: {"ts": ts, "kind": "tombstone", "item_ref": "o-3", "status": "forgotten:k1"},
              st.sampled_from(STAMPS)),
    st.builds(lambda ts: {"ts": ts, "kind": "resolution", "item_ref": "o-1", "status": "resolved", "note": "a\u2028b"},
              st.sampled_from(STAMPS)),
)
# how a line ends, and what may stand around it (JSON's own white space; a lone CR splits a line for the pass)
ENDING = st.sampled_from(["\n", "\r\n", "\r \n", " \n", "\n", "\r"])
# blank lines, and a torn one (daimon's read is then not whole: the pass parses every line itself)
BLANK = st.sampled_from(["\n", "  \n", "\r\n", "\t\n", '{"ts": "2026-01-01T00:00:00Z", "item_\n'])


def _lines(rows: list[dict], endings: list[str], blanks: list[int], blank: list[str]) -> str:
    lines = [json.dumps(r, ensure_ascii=False) + endings[n % len(endings)] for n, r in enumerate(rows)]
    for at, text in zip(blanks, blank, strict=False):
        lines.insert(min(at, len(lines)), text)
    return "".join(lines)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(ROW, max_size=30), endings=st.lists(ENDING, min_size=1, max_size=4),
       blanks=st.lists(st.integers(min_value=0, max_value=30), max_size=3), blank=st.lists(BLANK, max_size=3),
       cutoffs=st.lists(st.sampled_from(STAMPS), min_size=1, max_size=5))
def test_a_copy_cut_from_daimons_rows_folds_as_daimons_read_of_the_copy(
        tmp_path_factory: pytest.TempPathFactory, rows: list[dict], endings: list[str], blanks: list[int],
        blank: list[str], cutoffs: list[str]) -> None:
    """Offered daimon's whole read of the ledger, the pass writes the same
    copies as when it parses every line itself, and the fold it makes of a
    copy written whole from daimon's rows is the one daimon's full read of
    that copy builds (the differential of the one-read pass)."""
    base = tmp_path_factory.mktemp("offer")
    src = base / "events.jsonl"
    src.write_bytes(_lines(rows, endings, blanks, blank).encode())
    fold = KeptFold(Daimon.taken())
    read = fold.daimon.read(src)
    data = src.read_bytes()
    seeded: list[tuple[Path, bytes, list[dict]]] = []
    offered = asof.ledger_pass(lambda dst, copied, of: seeded.append((dst, copied, of)))
    took = offered.offer(src, data, read.rows, os.stat(src)) is not None
    if read.health is Health.OK and data.endswith(b"\n") and "\r" not in data.decode().replace("\r\n", ""):
        assert took  # a lone CR apart, daimon's lines are the pass's
    if took:  # the status rows a line-by-line parse finds, from daimon's rows
        asof_moments.status_rows_read(base, os.stat(src), *offered.offer(src, data, read.rows, os.stat(src)))  # type: ignore[misc]
        for spelled in asof_moments._SPELLED:
            assert asof_moments._status_rows(base, spelled) == asof_moments._status_rows_of(str(src), spelled)
    parsed = asof.ledger_pass()
    for cutoff in sorted(cutoffs):  # oldest first, as Health's pass
        seeded.clear()
        assert offered.cut(src, base / "a.jsonl", cutoff) == parsed.cut(src, base / "b.jsonl", cutoff)
        assert (base / "a.jsonl").read_bytes() == (base / "b.jsonl").read_bytes()
        for dst, copied, of in seeded:
            assert took and copied == dst.read_bytes()
            theirs = fold.daimon.read(dst)
            assert theirs == jsonl.Read(Health.OK, of)  # daimon's read of the copy: exactly these rows
            ours = kept_fold_build.build(fold, "ours", copied, jsonl.Read(Health.OK, of), (), persist=False)
            full = kept_fold_build.build(fold, "theirs", copied, theirs, (), persist=False)
            assert ours is not None and ours == full


class _Unwalked(list):
    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("the ledger's lines were walked again")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(ROW, max_size=30), cutoffs=st.lists(st.sampled_from(STAMPS), min_size=2, max_size=5))
def test_another_buckets_ledger_is_cut_once_per_pass(tmp_path_factory: pytest.TempPathFactory, rows: list[dict],
                                                     cutoffs: list[str]) -> None:
    """Another bucket's copy keeps its forget rows alone, whatever the moment:
    the pass cuts it once, and each moment's copy is still the exact cut's."""
    base = tmp_path_factory.mktemp("forgets")
    src = base / "events.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    passing = asof.ledger_pass()
    first, *later = sorted(cutoffs)
    assert passing.cut(src, base / "a.jsonl", first, forgets_only=True) == asof._cut_ledger(
        src, base / "b.jsonl", first, forgets_only=True)
    held = passing.ledgers[os.path.abspath(src)]
    held.lines, held.kinds = _Unwalked(held.lines), _Unwalked(held.kinds)
    for cutoff in later:
        assert passing.cut(src, base / "a.jsonl", cutoff, forgets_only=True) == asof._cut_ledger(
            src, base / "b.jsonl", cutoff, forgets_only=True)
        assert (base / "a.jsonl").read_bytes() == (base / "b.jsonl").read_bytes()


def test_the_pass_parses_no_line_of_the_ledger_daimon_read_whole(demo_store: demo.DemoStore,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """daimon's read of the real events ledger (the listing's fold) is the
    pass's one read of it: no line of it is parsed again, to cut the copies
    or to find the sessions' witness rows and the forget times."""
    from daimon_tui.store.judging import kept_fold

    project = reader.resolve_project(str(demo_store.project))
    _witness(demo_store, "S-day3", 3)
    monkeypatch.setattr(kept_fold, "KEEP_MIN_BYTES", 0)  # the demo's ledger is small: keep its fold anyway
    events = asof.config.checkpoint_dir() / project.slug / "events.jsonl"
    lines = {line.strip() for line in events.read_text().splitlines() if line.strip()}
    parsed: list[str] = []
    real_classify, real_status = asof._classify, asof_moments._status_rows_of

    def classify(body: str):  # type: ignore[no-untyped-def]
        parsed.append(body)
        return real_classify(body)

    def status(path: str, *args):  # type: ignore[no-untyped-def]
        parsed.extend(lines if path == str(events) else ())
        return real_status(path, *args)

    monkeypatch.setattr(asof, "_classify", classify)
    monkeypatch.setattr(asof_moments, "_status_rows_of", status)
    with swaps_installed(), kept_fold.sealed_only():  # as a report runs (`cli._headless`), whatever ran before
        report = health(project)
    assert not lines & set(parsed)
    assert_points_are_daimons(project, report)


# ---- a copy the pass grew: its kept bytes are not hashed again -----------------------------------


def test_each_later_copy_is_folded_without_hashing_its_kept_bytes_again(demo_store: demo.DemoStore,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass appends each moment's rows to the copy it wrote itself: the
    copy's kept fold takes the appended rows without hashing the bytes it
    holds already (the whole copy, each moment, on a year of memory)."""
    from daimon_tui.store.judging import kept_fold

    project = reader.resolve_project(str(demo_store.project))
    _append_between_sessions(demo_store, project)
    monkeypatch.setattr(kept_fold, "KEEP_MIN_BYTES", 0)  # the demo's ledger is small: keep its fold anyway
    hashed: list[str] = []
    real = kept_fold.hashed

    def counted(handle, size):  # type: ignore[no-untyped-def]
        hashed.append(str(handle.name))
        return real(handle, size)

    monkeypatch.setattr(kept_fold, "hashed", counted)
    with kept_fold.sealed_only():
        report = health(project)
    assert not [name for name in hashed if "daimon-tui-health-" in name], hashed
    assert_points_are_daimons(project, report)


def _append_between_sessions(store: demo.DemoStore, project) -> None:  # type: ignore[no-untyped-def]
    """A person's resolution stamped between each two sessions (through daimon's writer): each later copy grows."""
    moments = [asof.resolve_when(project, sid)[0] for sid in ("S-day1", "S-day2", "S-day3")]
    for early, late in itertools.pairwise(moments):
        with demo._events_at(early + (late - early) / 2):
            assert daimon_store.append_events([{"item_ref": "no-such-item", "status": "resolved", "source": "ui"}],
                                              project_dir=str(store.project), writer=Writer.HUMAN)


def test_a_vouched_copy_written_since_by_another_is_hashed_again(tmp_path: Path) -> None:
    """`appended` vouches for the kept bytes only while the file's stat id
    stands: a copy written again since (same size) is hashed, and the fold
    of bytes that are not the kept ones is left for daimon's full read."""
    fold = KeptFold(Daimon.taken())
    path = tmp_path / "events.jsonl"
    first = [{"ts": "2026-01-01T00:00:00Z", "item_ref": "o-1", "status": "resolved"}]
    data = "".join(json.dumps(r) + "\n" for r in first).encode()
    path.write_bytes(data)
    key = os.path.abspath(path)
    kept = kept_fold_build.build(fold, key, data, fold.daimon.read(path), (), persist=False)
    assert kept is not None
    with path.open("ab") as handle:
        handle.write(b'{"ts": "2026-01-02T00:00:00Z", "item_ref": "o-1", "status": "reopened"}\n')
    fold.appended(path, len(data))
    grown = fold.extend(path, key, kept)  # vouched: folded onto the kept rows
    assert grown is not None and fold.daimon.fold(list(grown.rows), keys=False) == fold.daimon.fold(
        fold.daimon.read(path).rows, keys=False)
    fold.appended(path, len(data))
    whole = path.read_bytes()
    path.write_bytes(whole.replace(b"o-1", b"o-2", 1))  # same size, other first bytes, a later mtime
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 1_000_000))
    assert fold.extend(path, key, kept) is None  # hashed again: not the kept bytes


def test_the_status_rows_of_daimons_read_take_the_times_the_pass_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass classifies every row of daimon's whole read (its time, whether
    it forgets); the status rows of that read take those times, not each
    matching row's time worked out again (~0.1 s of a cold Health pass)."""
    src = tmp_path / "events.jsonl"
    rows = [{"item_ref": f"corroboration:i-{n}", "status": f"corroborated-by:S-{n % 7}",
             "ts": f"2026-03-01T09:00:{n % 60:02d}Z"} for n in range(200)]
    rows += [{"item_ref": "k-1", "status": "forgotten:k-1", "ts": "2026-03-02T09:00:00Z"}]
    src.write_text("".join(json.dumps(row) + "\n" for row in rows))
    fold = KeptFold(Daimon.taken())
    offered = asof.ledger_pass()
    taken = offered.offer(src, src.read_bytes(), fold.daimon.read(src).rows, os.stat(src))
    assert taken is not None
    timed: list[object] = []
    own = asof_moments._time_of
    monkeypatch.setattr(asof_moments, "_time_of", lambda row: timed.append(row) or own(row))
    asof_moments.status_rows_read(tmp_path, os.stat(src), *taken)
    monkeypatch.undo()
    assert timed == []  # today: one a row that spells a status asked for
    for spelled in asof_moments._SPELLED:
        assert asof_moments._status_rows(tmp_path, spelled) == asof_moments._status_rows_of(str(src), spelled)
