"""An item's details answered from its own rows (a byte search of the events
ledger, daimon's classifier and folds) equal daimon's confirmed answer over
stores with every event kind, and a hostile ledger line never breaks them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from daimon_briefing import jsonl, store, view
from daimon_briefing.surfaces import Writer

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import snapshot_share
from daimon_tui.store.read import details, ledger_lines, provisional_details, reader
from tests.perf.test_kept_fold import _write_every_kind

NOW = demo.DEMO_NOW.timestamp()


@pytest.fixture
def project(demo_store: demo.DemoStore):
    ref = reader.resolve_project(str(demo_store.project))
    ids = [i.id for i in reader.load_briefing(ref, NOW).items() if i.id]
    assert len(ids) >= 3
    return ref, ids


def _confirmed(ref, item_id: str) -> details.ItemDetails:
    store._all_forgotten_cache.clear()
    snapshot_share.clear()
    return details.read_details(ref, item_id, NOW)


def _assert_same(ref, ids: list[str]) -> None:
    for item_id in ids:
        provisional = provisional_details.read_provisional(ref, item_id, NOW)
        assert provisional is not None, item_id
        assert provisional == _confirmed(ref, item_id), item_id


def test_the_provisional_details_equal_daimons_through_every_event_kind(project) -> None:
    ref, ids = project
    _assert_same(ref, ids)
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    _write_every_kind(Path(ref.target), ids, start, "a")
    _assert_same(ref, ids)
    _write_every_kind(Path(ref.target), list(reversed(ids)), start.replace(hour=10), "b")
    _assert_same(ref, ids)
    # the confirmed answers had something to say: lifecycle rows and witnesses
    answers = [_confirmed(ref, i) for i in ids]
    assert any(a.timeline and len(a.timeline.events) > 3 for a in answers)
    assert any(a.witnesses and a.witnesses.witnesses for a in answers)


def test_only_the_items_lines_are_read(project, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, ids = project
    _write_every_kind(Path(ref.target), ids, datetime(2026, 3, 1, 9, 0, tzinfo=UTC), "a")
    ledger_lines.install()
    whole: list[str] = []
    read = ledger_lines._next_read

    def spied(path, **options):
        whole.append(Path(path).name)
        return read(path, **options)

    monkeypatch.setattr(ledger_lines, "_next_read", spied)
    walks: list[int] = []
    monkeypatch.setattr(store, "all_forgotten_content_keys", lambda *a, **k: walks.append(1) or frozenset())
    assert provisional_details.read_provisional(ref, ids[2], NOW) is not None
    assert "events.jsonl" not in whole and not walks
    # and the partial fold was shared with nobody: daimon's next snapshot is the whole one
    monkeypatch.undo()
    assert snapshot_share.cached(ref.target) is None


@pytest.mark.parametrize("line", [
    '{"item_ref": "{id}", "status": "resolved"',  # torn
    '\x1b[31m{id} \u202e[bold]garbage[/bold]',  # not JSON: ANSI, bidi, markup
    '["{id}"]',  # JSON, not an object
])
def test_a_hostile_line_naming_the_item_never_breaks_it(project, line: str) -> None:
    ref, ids = project
    ledger = view._bucket(ref.target) / "events.jsonl"
    assert store.append_event(ids[2], "resolved", source="ui", project_dir=ref.target, writer=Writer.HUMAN)
    assert jsonl.append_lines(ledger, [line.replace("{id}", ids[2])], posture=jsonl.WritePosture.PROCEED)
    provisional = provisional_details.read_provisional(ref, ids[2], NOW)
    assert provisional is not None and provisional.inspection.found
    assert provisional == _confirmed(ref, ids[2])


def test_an_id_json_may_escape_is_not_searched(project) -> None:
    ref, _ids = project
    assert provisional_details.read_provisional(ref, 'odd"id\\', NOW) is None
    assert provisional_details.read_provisional(ref, "", NOW) is None
