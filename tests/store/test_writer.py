"""Writes through daimon's own write modules, checked against daimon's verdict."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from daimon_briefing import api, config, store, trust, view
from daimon_briefing.surfaces import Writer

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans, writer
from tests.daimon_records import brief_text as brief
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RESOLVED_Q = "Does the upload API send Retry-After headers when throttling?"
QUARANTINED_U = "Whether the CDN caches 429 responses from the upload API"
RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
NIGHTLY = "Switch the nightly job to its own bucket prefix"
NOW = demo.DEMO_NOW.timestamp()










def test_resolve_writes_a_ui_resolution_and_daimon_withholds_it(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    assert RETRY_Q in brief(demo_store)
    result = writer.resolve(item, "merged", "shipped in 1.2", project=p)
    assert result.outcome == "applied" and result.after == "resolved"
    row = events(demo_store)[-1]
    assert (row["item_ref"], row["status"], row["source"]) == (item, "merged", "ui")
    assert row["kind"] == "resolution"
    assert RETRY_Q not in brief(demo_store)
    assert api.why(str(demo_store.project), item)["lifecycle_event"]["source"] == "ui"
    assert view.lineage(str(demo_store.project), item).lifecycle == "resolved"


def test_restore_reopens_a_human_resolution_and_undo_round_trip_keeps_both(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RESOLVED_Q]
    assert RESOLVED_Q not in brief(demo_store)
    before = len(events(demo_store))
    result = writer.restore(item, project=p)
    assert result.outcome == "applied" and result.op == "reopen" and result.undid == "resolved"
    assert RESOLVED_Q in brief(demo_store)
    # undo of the restore: resolve again with the status it undid, a later second
    again = writer.resolve(item, result.undid or "resolved", project=p)
    assert again.outcome == "applied"
    rows = [r for r in events(demo_store) if r["item_ref"] == item]
    assert [r["status"] for r in rows] == ["resolved", "reopened", "resolved"]
    assert len(events(demo_store)) == before + 2
    assert rows[1]["ts"] < rows[2]["ts"] and rows[0]["ts"] < rows[1]["ts"]
    assert RESOLVED_Q not in brief(demo_store)


def test_resolve_then_undo_restores_the_verdict_with_both_records(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[NIGHTLY]
    first = writer.resolve(item, "done", project=p)
    undo = writer.reopen(item, "undo", project=p)
    assert first.outcome == undo.outcome == "applied"
    rows = [r for r in events(demo_store) if r["item_ref"] == item]
    assert [(r["status"], r["source"]) for r in rows] == [("done", "ui"), ("reopened", "ui")]
    assert rows[0]["ts"] < rows[1]["ts"]
    assert NIGHTLY in brief(demo_store)
    assert api.why(str(demo_store.project), item)["axes"]["lifecycle"] == "active"


def test_retract_hides_every_copy_and_release_brings_it_back(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[NIGHTLY]
    result = writer.quarantine(item, "never decided", ("issue:7",), project=p)
    assert result.outcome == "applied" and result.ledger == "trust.jsonl"
    record = trust.get(result.ref, project_dir=str(demo_store.project))
    assert record["state"] == "active" and record["activation_channel"] == "ui"
    looked = api.lookup(str(demo_store.project), item)
    assert isinstance(looked, view.Withheld) and looked.reason == "quarantine"
    assert NIGHTLY not in brief(demo_store)
    # every copy: the older sessions' copies are withheld too
    for sid in ("S-day1", "S-day2", "S-day3"):
        opened = view.open_sessions(str(demo_store.project), [sid], live=False)[sid]
        assert NIGHTLY not in json.dumps(opened.checkpoint)
    released = writer.release(item, project=p)
    assert released.outcome == "applied"
    assert trust.get(result.ref, project_dir=str(demo_store.project))["state"] == "released"
    assert NIGHTLY in brief(demo_store)


def test_restore_releases_the_demo_quarantine(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[QUARANTINED_U]
    assert QUARANTINED_U not in brief(demo_store)
    result = writer.restore(item, project=p)
    assert result.outcome == "applied" and result.op == "release"
    assert QUARANTINED_U in brief(demo_store)


def test_forget_removes_it_and_why_says_forgotten_and_unforget_restores_nothing(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[NIGHTLY]
    facts = plans.item_facts(p, item, with_reach=True)
    assert facts.reach is not None
    refused = writer.forget_item(item, "r-000000000000", project=p)
    assert refused.outcome == "refused" and refused.code == "typed-id-mismatch"
    result = writer.forget_item(item, item, "secret", project=p)
    assert result.outcome == "applied"
    assert NIGHTLY not in brief(demo_store)
    looked = api.lookup(str(demo_store.project), item)
    assert isinstance(looked, view.Withheld) and looked.reason == "forgotten"
    assert api.why(str(demo_store.project), item)["axes"]["lifecycle"] == "forgotten"
    tomb = [r for r in events(demo_store) if r["item_ref"] == item][-1]
    assert tomb["kind"] == "tombstone" and tomb["source"] == "cli"  # daimon 0.61's forget step
    lifted = writer.unforget(item, project=p)
    assert lifted.outcome == "applied" and "does not come back" in lifted.message
    assert [r for r in events(demo_store) if r["item_ref"] == item][-1]["source"] == "ui"
    assert NIGHTLY not in brief(demo_store)
    assert isinstance(api.lookup(str(demo_store.project), item), view.Absent)


def test_restore_refuses_a_superseded_item_with_a_live_substitute(demo_store) -> None:
    p, table = ref(demo_store), ids(demo_store.project)
    old, new = table[NIGHTLY], table[RETRY_Q]
    assert store.append_event(old, f"superseded-by:{new}", source="ui", project_dir=str(demo_store.project),
                              writer=Writer.HUMAN)
    before = len(events(demo_store))
    result = writer.restore(old, project=p)
    assert result.outcome == "refused" and result.code == "live-substitute"
    assert len(events(demo_store)) == before


def test_restore_refuses_a_machine_verdict(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[NIGHTLY]
    assert store.append_event(item, "gone", source="serializer", project_dir=str(demo_store.project),
                              writer=Writer.HUMAN)
    result = writer.restore(item, project=p)
    assert result.outcome == "refused" and result.code == "machine-verdict"


def test_reverify_without_evidence_is_refused_with_evidence_reopens(demo_store) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RESOLVED_Q]
    before = len(events(demo_store))
    refused = writer.reverify(item, "", project=p)
    assert refused.outcome == "refused" and refused.code == "evidence-required"
    assert len(events(demo_store)) == before
    done = writer.reverify(item, "checked the API docs", project=p)
    assert done.outcome == "applied"
    row = events(demo_store)[-1]
    assert (row["status"], row["source"], row["note"]) == ("reopened", "ui", "evidence: checked the API docs")
    assert RESOLVED_Q in brief(demo_store)


def test_every_write_is_refused_when_events_jsonl_has_a_garbage_line(demo_store) -> None:
    p, table = ref(demo_store), ids(demo_store.project)
    path = store.ledger_file(str(demo_store.project), "events.jsonl")
    with path.open("a") as handle:
        handle.write("<<<<<<< garbage\n")
    size = path.stat().st_size
    for result in (writer.resolve(table[RETRY_Q], project=p),
                   writer.reverify(table[RETRY_Q], "seen", project=p),
                   writer.restore(table[RESOLVED_Q], project=p),
                   writer.forget_item(table[NIGHTLY], table[NIGHTLY], project=p)):
        assert result.outcome == "refused", result
        assert "events.jsonl" in result.message
    assert path.stat().st_size == size


def test_every_write_is_refused_when_daimon_is_disabled(demo_store) -> None:
    p, table = ref(demo_store), ids(demo_store.project)
    path = store.ledger_file(str(demo_store.project), "events.jsonl")
    size = path.stat().st_size
    with config.settings_override({**config.active_settings(), "DAIMON_DISABLE": "1"}):
        results = (writer.resolve(table[RETRY_Q], project=p),
                   writer.quarantine(table[NIGHTLY], "wrong", ("issue:1",), project=p),
                   writer.restore(table[QUARANTINED_U], project=p),
                   writer.forget_item(table[NIGHTLY], table[NIGHTLY], project=p))
    for result in results:
        assert result.outcome == "refused" and result.code == "disabled", result
        assert "DAIMON_DISABLE" in result.message
    assert path.stat().st_size == size
    assert NIGHTLY in brief(demo_store)


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.t = start
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += timedelta(seconds=seconds)


def test_timing_waits_until_the_second_rolls_over() -> None:
    clock = FakeClock(datetime(2026, 12, 2, 10, 0, 0, 400000, tzinfo=UTC))
    timing = writer.Timing(now=clock.now, sleep=clock.sleep)
    waited = timing.wait_past("2026-12-02T10:00:00Z")
    assert 0.6 <= waited <= 0.7 and clock.t >= datetime(2026, 12, 2, 10, 0, 1, tzinfo=UTC)
    assert timing.wait_past("2026-12-02T09:59:59Z") == 0.0
    assert timing.wait_past("not a stamp") == 0.0
    assert timing.wait_past(None) == 0.0


@pytest.mark.parametrize("max_wait", [0.5])
def test_timing_wait_is_bounded(max_wait: float) -> None:
    clock = FakeClock(datetime(2026, 12, 2, 10, 0, 0, tzinfo=UTC))
    timing = writer.Timing(now=clock.now, sleep=clock.sleep, max_wait=max_wait)
    assert timing.wait_past("2026-12-02T10:00:05Z") == pytest.approx(max_wait)


# ---- issue 24 point 8: "applied" only when daimon's latest record is the app's own row ----


def test_a_write_is_applied_only_when_daimons_latest_record_is_its_own_row(
        demo_store, monkeypatch: pytest.MonkeyPatch) -> None:
    """daimon's append answered True, but the row daimon holds last is another
    instance's resolve of the same item (same `ui` source, same status, its
    own note), landed meanwhile: this write is not reported applied."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    real = store.append_event

    def another_instance_won(item_ref: str, status: str, **kw: object) -> bool:
        return real(item_ref, status, note="fixed upstream", source="ui", project_dir=p.target,
                    writer=Writer.HUMAN)

    monkeypatch.setattr(store, "append_event", another_instance_won)
    result = writer.resolve(item, "resolved", "shipped in 1.2", project=p)
    assert result.outcome == "not-applied" and "not this write's row" in result.message


def test_an_older_ui_row_is_not_the_write_daimon_holds(demo_store, monkeypatch: pytest.MonkeyPatch) -> None:
    """daimon's append answered True and wrote nothing new after it: its latest
    row for the item, a `ui` row of the same status and note stamped before
    the write began, is not this write's."""
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    real = store.append_event
    earlier = datetime.now(UTC) - timedelta(seconds=30)

    def stamped_before(item_ref: str, status: str, **kw: object) -> bool:
        from tests.daimon_records import events_stamped

        with events_stamped(earlier):
            return real(item_ref, status, **kw)

    monkeypatch.setattr(store, "append_event", stamped_before)
    result = writer.resolve(item, "resolved", "", project=p)
    assert view.lineage(str(demo_store.project), item).lifecycle == "resolved"  # that row is daimon's latest
    assert result.outcome == "not-applied"
