"""The confirmed baton (daimon's `store.active_handoff` over the events rows
that spell `handoff`) equals daimon's own answer from its full read, and the
confirmation never reads the whole events ledger for it (on a year of memory
that read was the judging child's peak: ~250 MB of rows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from daimon_briefing import jsonl, store, view
from daimon_briefing.surfaces import Writer

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold
from daimon_tui.store.read import daimon_brief, reader


@pytest.fixture
def target(demo_store: demo.DemoStore) -> str:
    return reader.resolve_project(str(demo_store.project)).target


def _ledger(target: str) -> Path:
    return view._bucket(target) / "events.jsonl"


def _assert_daimons(target: str) -> None:
    daimon_brief._handoffs.clear()
    assert daimon_brief.handoff(target) == daimon_brief.as_handoff(store.active_handoff(target))


def _baton(target: str, status: str, note: str) -> None:
    assert store.append_event("", status, note=note, kind="handoff", project_dir=target, writer=Writer.HUMAN)


def test_the_confirmed_baton_is_daimons_through_every_change(target: str) -> None:
    _assert_daimons(target)
    assert daimon_brief.handoff(target) is not None  # the demo holds a baton: the case is not empty
    _baton(target, "active", "a newer baton")
    _assert_daimons(target)
    assert daimon_brief.handoff(target).note == "a newer baton"
    _baton(target, "cleared", "")
    _assert_daimons(target)
    assert daimon_brief.handoff(target) is None
    _baton(target, "active", "back again")
    _assert_daimons(target)


@pytest.mark.parametrize("line", [
    '{"kind": "handoff", "status": "active", "note": "torn',  # torn: daimon's full read decides
    '\x1b[31mhandoff \u202e[bold]garbage[/bold]',  # not JSON: ANSI, bidi, markup
    '["handoff"]',  # JSON, not an object
])
def test_a_hostile_line_spelling_handoff_is_judged_as_daimon_judges_it(target: str, line: str) -> None:
    _baton(target, "active", "before the bad line")
    assert jsonl.append_lines(_ledger(target), [line], posture=jsonl.WritePosture.PROCEED)
    _assert_daimons(target)
    assert daimon_brief.handoff(target).note == "before the bad line"


def test_the_confirmed_baton_reads_only_its_rows(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kept_fold.install()
    whole: list[str] = []
    read = kept_fold.KEPT.daimon.read

    def spied(path, **options):
        whole.append(Path(path).name)
        return read(path, **options)

    monkeypatch.setattr(kept_fold.KEPT.daimon, "read", spied)
    daimon_brief._handoffs.clear()
    assert daimon_brief.handoff(target) is not None
    assert "events.jsonl" not in whole
