"""Issue 42 point 2: Health counts items, marks and badges; it never reads
which lines `daimon brief` prints within its byte budget, nor the handoff.
Its briefings (each moment's and now's) skip daimon's budget split and the
baton, and their counts stay those of the full briefing (and daimon's)."""

from __future__ import annotations

import shutil

import pytest

from daimon_tui.store import own_files
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import asof, daimon_brief, reader
from daimon_tui.store.read.health import NOW, briefing_counts, health
from tests.store.test_health import assert_points_are_daimons


def test_health_reads_no_budget_split_nor_handoff(demo_store: demo.DemoStore,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_budget, real_handoff = daimon_brief.budget, daimon_brief.handoff

    def budget(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("budget")
        return real_budget(*args, **kwargs)

    def handoff(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("handoff")
        return real_handoff(*args, **kwargs)

    monkeypatch.setattr(daimon_brief, "budget", budget)
    monkeypatch.setattr(daimon_brief, "handoff", handoff)
    shutil.rmtree(own_files.cache_dir() / "health", ignore_errors=True)  # every moment read, nothing kept
    project = reader.resolve_project(str(demo_store.project))
    report = health(project)
    assert [s.session_id for s in report.sessions] == ["S-day1", "S-day2", "S-day3", NOW]
    assert calls == []
    monkeypatch.undo()
    assert_points_are_daimons(project, report)


def test_counts_without_the_split_are_the_full_briefings(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    for sid in ("S-day1", "S-day2", "S-day3"):
        with asof.as_of(project, sid) as cut:
            full = reader.load_briefing(cut.project, now=cut.timestamp)
            counted = reader.load_briefing(cut.project, now=cut.timestamp, split=False)
        assert briefing_counts(counted) == briefing_counts(full), sid
        assert [i.badges for i in counted.items()] == [i.badges for i in full.items()], sid
    full = reader.load_briefing(project)
    counted = reader.load_briefing(project, split=False)
    assert briefing_counts(counted) == briefing_counts(full)
    assert [i.badges for i in counted.items()] == [i.badges for i in full.items()]
