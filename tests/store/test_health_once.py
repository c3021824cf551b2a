"""Issue 42 point 2, Health from an empty cache in one pass: what does not
depend on the moment is worked out once per pass, not once per moment, and
every point stays daimon's read of the store as it stood then."""

from __future__ import annotations

from datetime import timedelta

import pytest
from daimon_briefing import store as daimon_store
from daimon_briefing.surfaces import Writer

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import asof, reader
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
    from pathlib import Path

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
