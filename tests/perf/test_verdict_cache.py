"""The first paint's shortcut (pointer + trust ledger + verdict cache) is never
trusted over daimon: it holds no text, goes stale on any ledger change, marks
everything provisional, and converges to daimon's verdict in every stale case."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from daimon_briefing import jsonl, store, trust, view
from daimon_briefing.surfaces import Writer

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.child import first_paint
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import verdict_cache
from daimon_tui.store.read import reader
from daimon_tui.store.write import writer

NOW = demo.DEMO_NOW.timestamp()
SINGLE = demo.SINGLE_THREAD["text"]
NIGHTLY = "Switch the nightly job to its own bucket prefix"


def ref(store_: demo.DemoStore) -> ProjectRef:
    return reader.resolve_project(str(store_.project))


def item_id(briefing: Briefing, text: str) -> str:
    found = next(i for i in (*briefing.items(), *briefing.resolved) if i.text == text)
    assert found.id
    return found.id


def visible(briefing: Briefing) -> dict[str, str]:
    return {i.id or "": i.state for i in briefing.items()}


def resolve(project: ProjectRef, target: str, status: str = "resolved") -> None:
    assert store.append_event(target, status, note="from a test", source="ui",
                              project_dir=project.target, writer=Writer.HUMAN)


def test_cache_file_holds_no_text_and_is_private(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    path = verdict_cache.cache_file(project.slug)
    assert path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    raw = path.read_text()
    texts = [i.text for i in (*confirmed.items(), *confirmed.resolved)]
    texts += [i.quote for i in (*confirmed.items(), *confirmed.resolved) if i.quote]
    texts += [i.because for i in (*confirmed.items(), *confirmed.resolved) if i.because]
    texts += [i.closing_note for i in confirmed.resolved if i.closing_note]
    assert len(texts) > 8
    for text in texts:
        assert text not in raw
    assert "API docs say Retry-After is sent" not in raw  # a resolve note
    assert str(demo_store.project) not in raw and project.slug not in path.name
    assert confirmed.items()[0].id in json.loads(raw)["items"]


def test_first_paint_is_provisional_and_matches_a_fresh_cache(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    cold = first_paint.provisional_briefing(project, NOW)
    assert cold.provisional and all(i.provisional for i in cold.items())
    confirmed = first_paint.confirm(project, NOW)
    assert not confirmed.provisional and not any(i.provisional for i in confirmed.items())
    warm = first_paint.provisional_briefing(project, NOW)
    assert warm.provisional and all(i.provisional for i in (*warm.items(), *warm.resolved))
    assert visible(warm) == visible(confirmed)
    assert [i.id for i in warm.resolved] == [i.id for i in confirmed.resolved]
    assert [(i.id, i.mark, [b.token for b in i.badges]) for i in warm.items()] == [
        (i.id, i.mark, [b.token for b in i.badges]) for i in confirmed.items()
    ]


def test_fingerprint_changes_with_each_ledger_write(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    before = verdict_cache.fingerprint(project)
    assert verdict_cache.load(project.slug).fingerprint == before
    resolve(project, item_id(confirmed, NIGHTLY))
    assert verdict_cache.fingerprint(project) != before


def test_same_size_rewrite_changes_the_fingerprint(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    first_paint.confirm(project, NOW)
    events = demo_store.checkpoint_dir / project.slug / "events.jsonl"
    before = verdict_cache.fingerprint(project)
    data = events.read_bytes()
    stamp = events.stat()
    swapped = data.replace(b"resolved", b"reopened", 1)
    assert len(swapped) == len(data) and swapped != data
    events.write_bytes(swapped)
    os.utime(events, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # same size, same mtime
    assert verdict_cache.fingerprint(project) != before


def test_stale_visible_verdict_is_provisional_then_corrected(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    resolve(project, target)  # the cache still says "visible"
    painted = first_paint.provisional_briefing(project, NOW)
    row = painted.find(target)
    assert row is not None and row.provisional  # shown, but never without the mark
    fresh = first_paint.confirm(project, NOW)
    assert target not in visible(fresh)
    assert fresh.find(target).state == "resolved" and not fresh.find(target).provisional
    again = first_paint.provisional_briefing(project, NOW)
    assert target not in visible(again)  # the corrected verdict is what the cache now says


def test_new_quarantine_hides_at_first_paint(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    assert trust.propose(text=NIGHTLY, kind="decision", reason="not what we decided", evidence=["issue:7"],
                         channel="ui", item_id=target, project_dir=project.target)
    painted = first_paint.provisional_briefing(project, NOW)
    assert target not in visible(painted)
    assert all(i.text != NIGHTLY for i in (*painted.items(), *painted.resolved))
    assert any(w.id == target and w.state == "quarantined" for w in painted.withheld)


def test_forgotten_text_never_comes_back(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    result = writer.forget_item(target, target, "test", project=project)
    assert result.outcome == "applied", result
    for briefing in (first_paint.provisional_briefing(project, NOW), first_paint.confirm(project, NOW),
                     first_paint.provisional_briefing(project, NOW)):
        shown = [i.text for i in (*briefing.items(), *briefing.resolved)]
        assert NIGHTLY not in shown
        assert target not in {i.id for i in (*briefing.items(), *briefing.resolved)}
    assert NIGHTLY not in verdict_cache.cache_file(project.slug).read_text()


def test_stale_forgotten_verdict_keeps_hiding(demo_store: demo.DemoStore) -> None:
    """A cache that says forgotten hides the id even when its fingerprint is stale."""
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    path = verdict_cache.cache_file(project.slug)
    record = json.loads(path.read_text())
    record["fingerprint"] = "stale"
    record["items"][target]["state"] = "forgotten"
    path.write_text(json.dumps(record))
    painted = first_paint.provisional_briefing(project, NOW)
    assert target not in {i.id for i in (*painted.items(), *painted.resolved)}


def test_new_checkpoint_converges(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    first_paint.confirm(project, NOW)
    day4 = demo.session("S-day4", demo.DEMO_NOW, "Day four")
    day4["working_context"]["recent_decisions"] = [{"text": "Adopt the day four plan", "trust": "inferred"}]
    demo.seed(demo_store.project, day4)
    painted = first_paint.provisional_briefing(project, NOW)
    assert painted.session_id == "S-day4"
    new = next(i for i in painted.items() if i.text == "Adopt the day four plan")
    assert new.provisional
    fresh = first_paint.confirm(project, NOW)
    assert visible(fresh) == visible(first_paint.provisional_briefing(project, NOW))


def test_torn_cache_is_ignored(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    path = verdict_cache.cache_file(project.slug)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{torn")
    painted = first_paint.provisional_briefing(project, NOW)
    assert painted.provisional and painted.items()


def test_cache_dir_default_is_xdg(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DAIMON_TUI_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert verdict_cache.cache_dir() == tmp_path / "xdg" / "daimon-tui"


def test_events_appended_after_the_cache_show_in_the_first_paint(demo_store: demo.DemoStore) -> None:
    """The cache covers the ledger up to its mark; the appended rows (daimon's
    fold of them) move the first paint on: resolved, superseded, reopened."""
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    ids = [i.id for i in confirmed.items() if i.id]
    resolve(project, ids[0])
    resolve(project, ids[1], f"superseded-by:{ids[2]}")
    resolve(project, ids[3])
    resolve(project, ids[3], "reopened")
    painted = first_paint.provisional_briefing(project, NOW)
    fresh = first_paint.confirm(project, NOW)
    assert visible(painted) == visible(fresh) and ids[0] not in visible(painted) and ids[3] in visible(painted)
    assert {i.id: i.state for i in painted.resolved} == {i.id: i.state for i in fresh.resolved}
    assert painted.provisional and painted.find(ids[0]).provisional


def test_a_rewritten_ledger_is_not_read_as_appended(demo_store: demo.DemoStore) -> None:
    """A rewrite since the mark (forget's scrub, a repair): the bytes after it
    are not trusted as appended rows, the cached verdicts stand (provisional)."""
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    ledger = view._bucket(project.target) / "events.jsonl"

    def renote(line: str, row: object) -> str:
        return json.dumps({**row, "note": "rewritten"}) if isinstance(row, dict) else line

    assert jsonl.rewrite(ledger, renote)
    resolve(project, target)
    assert verdict_cache.appended_since(project, verdict_cache.load(project.slug).events) is None
    painted = first_paint.provisional_briefing(project, NOW)
    assert target in visible(painted) and painted.find(target).provisional


def test_the_first_paint_holds_daimons_baton_and_rulings(demo_store: demo.DemoStore) -> None:
    """The handoff (daimon's `active_handoff` over the rows that spell it) and
    the standing rulings are in the first paint as daimon's full read has them,
    also after the baton is cleared."""
    project = ref(demo_store)
    painted = first_paint.provisional_briefing(project, NOW)
    confirmed = first_paint.confirm(project, NOW)
    assert painted.handoff is not None and painted.handoff == confirmed.handoff
    assert painted.rulings and painted.rulings == confirmed.rulings
    assert store.append_event("", "cleared", note="", kind="handoff", project_dir=project.target,
                              writer=Writer.HUMAN)
    assert first_paint.provisional_briefing(project, NOW).handoff is None is first_paint.confirm(project, NOW).handoff


def test_a_hostile_appended_line_never_breaks_the_first_paint(demo_store: demo.DemoStore) -> None:
    project = ref(demo_store)
    confirmed = first_paint.confirm(project, NOW)
    target = item_id(confirmed, NIGHTLY)
    ledger = view._bucket(project.target) / "events.jsonl"
    resolve(project, target)
    assert jsonl.append_lines(ledger, ["\x1b[31m\u202e[bold]not json", '{"item_ref": "torn', "[1, 2]"],
                              posture=jsonl.WritePosture.PROCEED)
    painted = first_paint.provisional_briefing(project, NOW)
    assert target not in visible(painted) and painted.find(target).state == "resolved"
