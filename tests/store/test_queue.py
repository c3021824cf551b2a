"""The triage queue: what waits on the person, in order, and the verdicts on it."""

from __future__ import annotations

import unittest.mock
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import amendments, api, briefing, refutations, relations, requests, store, testing, trust
from daimon_briefing.surfaces import Writer

from daimon_tui.domain import queue_order
from daimon_tui.models import ProjectRef
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read.queue import build_queue, prefill_status, reclassify
from daimon_tui.store.write import decisions, writer

NOW = demo.DEMO_NOW
STAGING = "Is the staging deploy still pinned to the old image tag?"
SPIKE = "Branch spike/sqlite-wal still holds the WAL experiment"
EXPORT = "Does the nightly export still write CSV files?"
CACHE = "Should the cache key include the tenant id?"
CACHE2 = "Add the region to every cache key before the EU rollout"
PR7 = "PR #7 for the retry change is open and waiting for review"
BUDGET = "Whether the retry budget is shared across worker processes"
RULING = "Never retry a request that already timed out at the gateway"


def ids_by_text(project: Path) -> dict[str, str]:
    latest = store.read_latest_body(project_dir=str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    return {
        item["text"]: item["id"]
        for section in ("working_context", "epistemic_snapshot")
        for value in (latest.get(section) or {}).values()
        if isinstance(value, list)
        for item in value
        if isinstance(item, dict)
    }


def build_queue_store(project: Path) -> dict[str, str]:
    """A store with one item of every kind that waits on a person. Ledger rows
    follow a step clock (fixed dates); event rows are wall clock."""
    p = str(project)
    s0 = demo.session("S-q0", NOW - timedelta(days=20), "Queue")
    s0["working_context"]["open_questions"] = [{"text": STAGING, "trust": "inferred"}]
    demo.seed(project, s0)
    s1 = demo.session("S-q1", NOW - timedelta(days=12), "Queue")
    s1["working_context"]["open_questions"] = [
        {"text": SPIKE, "trust": "inferred", "external_state": True},
        {"text": CACHE, "trust": "inferred"},
    ]
    demo.seed(project, s1)
    s2 = demo.session("S-q2", NOW - timedelta(days=1), "Queue")
    s2["working_context"]["open_questions"] = [
        {"text": EXPORT, "trust": "inferred"},
        {"text": PR7, "trust": "inferred", "external_state": True},
        {"text": CACHE2, "trust": "inferred"},
    ]
    s2["epistemic_snapshot"]["uncertainties"] = [{"text": BUDGET, "trust": "inferred"}]
    demo.seed(project, s2)
    ids = ids_by_text(project)
    # an agent's resolve claim, exactly as `daimon resolve --by agent --evidence` writes it
    store.append_event(
        ids[EXPORT],
        "resolving-candidate",
        note="the export job now writes parquet only",
        source="agent",
        project_dir=p,
        writer=Writer.HUMAN,
    )
    # a serializer supersede candidate, as capture's `_emit_supersede_candidates` writes it
    store.append_event(
        ids[CACHE],
        f"supersede-candidate:{ids[CACHE2]}",
        source="serializer",
        project_dir=p,
        writer=Writer.EMITTER,
    )
    start = int((NOW - timedelta(hours=6)).timestamp()) * 10**9
    with testing.deterministic(testing.StepClock(start, 60 * 10**9, seed="queue")):
        aid = amendments.propose(
            item_id=ids[PR7],
            change="progressed",
            evidence="PR 7 got two approvals",
            channel="cli-agent",
            project_dir=p,
        )
        amendments.verify(aid, role="user", project_dir=p)
        rel = relations.propose(
            type_="revision-of",
            from_endpoint={"session_id": "S-q2", "field": "open_questions", "item_id": ids[CACHE2]},
            to_endpoint={"session_id": "S-q1", "field": "open_questions", "item_id": ids[CACHE]},
            matched_by=["carry-ratio"],
            matcher_version="tui-test",
            channel="serializer",
            project_dir=p,
        )
        tid = trust.propose(
            text=BUDGET,
            kind="uncertainty",
            reason="the budget is per process, see the config",
            evidence=["artifact:config/retry.toml"],
            channel="cli-agent",
            item_id=ids[BUDGET],
            project_dir=p,
        )
        rid = refutations.assert_ruling(
            subject="retries",
            verdict=RULING,
            scope="this project",
            evidence=["artifact:gateway.md"],
            channel="cli-agent",
            project_dir=p,
        )
        fid = refutations.assert_refutation(
            subject="gzip quota",
            verdict="gzip uploads do not count twice against quota",
            scope="this project",
            evidence=["artifact:quota.md"],
            channel="cli-agent",
            project_dir=p,
        )
    return {**ids, "aid": aid, "rel": rel, "tid": str(tid), "rid": rid, "fid": fid}


@pytest.fixture
def queue_store(empty_store, tmp_path, monkeypatch):
    monkeypatch.setenv("DAIMON_TUI_LOG", str(tmp_path / "actions.jsonl"))
    ids = build_queue_store(empty_store.project)
    project = ProjectRef(
        slug=api.project_slug(str(empty_store.project)), name="proj", path=str(empty_store.project)
    )
    return project, ids


FAST = writer.Timing(max_wait=2.0)


def daimon_loops(project: ProjectRef, capsys) -> list[str]:
    """The item ids `daimon loops` prints, in its order (its CLI, in-process)."""
    from daimon_briefing.cli import main as daimon_main

    capsys.readouterr()
    assert daimon_main(["loops", "--project", project.target]) == 0
    return [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]


def test_every_kind_of_waiting_item_is_in_the_queue_in_order(queue_store, capsys):
    project, ids = queue_store
    queue = build_queue(project, NOW.timestamp())
    got = [(e.kind, e.ref) for e in queue.entries]
    # every loop daimon lists waits here once, in one lane or another
    listed = daimon_loops(project, capsys)
    assert set(listed) <= {ref for _kind, ref in got} and len(listed) == 7
    # daimon's own decide queue is the reference for its rows: all of them, in its order.
    theirs = [(row["kind"], row["id"]) for row in api.queue(project_dir=project.target)["rows"]]
    assert len(theirs) == 4
    assert [g for g in got if g in theirs] == theirs
    assert [g for g in got if g[0] in {k for k, _ in theirs}] == theirs  # nothing of those kinds beyond daimon's
    # Our own lanes around them: the briefing's flags first, then relations, carried items and
    # the rest of `daimon loops` (an amended or quarantine-proposed loop is still an open loop).
    assert got == [
        ("agent-claim", ids[EXPORT]),
        ("supersede-candidate", ids[CACHE]),
        *theirs,
        ("relation", ids["rel"]),
        ("carried-external", ids[SPIKE]),
        ("carried-open-loop", ids[STAGING]),
        ("open-loop", ids[PR7]),
        ("open-loop", ids[CACHE2]),
        ("open-loop", ids[BUDGET]),
    ]
    claim, candidate = queue.entries[0], queue.entries[1]
    assert claim.verbs == ("claim-confirm", "claim-reopen")
    assert candidate.substitute_id == ids[CACHE2]
    ruling = queue.find(f"ruling:{ids['rid']}")
    assert ruling.record.binding.verdict_key
    assert ("Text", RULING) in ruling.record.fields
    assert queue.find(f"carried-open-loop:{ids[STAGING]}").stale_days == pytest.approx(20, abs=1)


def test_stalest_first_within_a_lane_and_contradictions_jump_ahead(queue_store):
    project, ids = queue_store
    # the staging question (20d) would come after the spike branch (external lane)...
    queue = build_queue(project, NOW.timestamp(), contradicted={ids[SPIKE]: "spike/sqlite-wal: no such ref"})
    kinds = [e.kind for e in queue.entries]
    assert kinds[0] == "contradicted" and queue.entries[0].ref == ids[SPIKE]
    assert queue.entries[0].prefill_status == "gone"
    assert queue.entries[0].verbs[0] == "resolve"
    # a world-check result arriving later re-orders only what was not seen yet
    plain = build_queue(project, NOW.timestamp())
    seen = frozenset({plain.entries[0].key})
    moved = reclassify(plain, {ids[STAGING]: "merged in 3f2a1c"}, keep=seen)
    assert moved.entries[0].key == plain.entries[0].key
    assert moved.entries[1].kind == "contradicted" and moved.entries[1].prefill_status == "merged"


def test_order_key_is_blocking_then_lane_then_stalest():
    key = queue_order.order_key
    rows = [
        ("carried-open-loop", False, 3.0, "", 0),
        ("carried-open-loop", False, 20.0, "", 1),
        ("trust", False, None, "2026-12-01T00:00:00Z", 2),
        ("trust", False, None, "2026-11-01T00:00:00Z", 3),
        ("request", True, None, "2026-12-02T00:00:00Z", 4),
    ]
    ordered = sorted(
        rows, key=lambda r: key(kind=r[0], blocking=r[1], stale_days=r[2], waiting_since=r[3], seq=r[4])
    )
    assert [r[4] for r in ordered] == [4, 3, 2, 1, 0]
    assert prefill_status("src/x.py deleted in 3f2a1c") == "gone"
    assert queue_order.progress_line(
        7, 19, {"a": "resolve", "b": "resolve", "c": "retract", "d": "skip"}
    ) == ("7 of 19; 2 resolved, 1 retracted, 1 skipped")


def test_every_verdict_lands_in_daimon_on_the_ui_channel(queue_store, tmp_path):
    project, ids = queue_store
    log = ActionLog(tmp_path / "actions.jsonl")
    queue = build_queue(project, NOW.timestamp())
    by_kind = {e.kind: e for e in queue.entries}
    plan = [
        ("agent-claim", "claim-confirm"),
        ("supersede-candidate", "supersede-reject"),
        ("amendment", "amend-ratify"),
        ("ruling", "ruling-ratify"),
        ("trust", "trust-dismiss"),
        ("refutation", "refutation-ratify"),
        ("relation", "relation-confirm"),
    ]
    for kind, verb in plan:
        verdict = decisions.decide(by_kind[kind], verb, project, log=log, timing=FAST)
        assert verdict.outcome == "applied", (verb, verdict)
    p = project.target
    assert amendments.get(ids["aid"], project_dir=p)["state"] == "ratified"
    assert refutations.get(ids["rid"], project_dir=p)["state"] == "active"
    assert refutations.get(ids["fid"], project_dir=p)["state"] == "active"
    assert trust.get(ids["tid"], project_dir=p)["state"] == "dismissed"
    assert relations.get(ids["rel"], project_dir=p)["state"] == "confirmed"
    latest = store.resolutions(project_dir=p)
    assert latest[ids[EXPORT]]["status"] == "resolved" and latest[ids[EXPORT]]["source"] == "ui"
    assert latest[ids[CACHE]]["status"] == "reopened" and latest[ids[CACHE]]["note"] == "candidate rejected"
    # the log holds ids and codes, never text
    raw = (tmp_path / "actions.jsonl").read_text()
    assert [e.verb for e in log.entries()] == [v for _k, v in plan]
    # daimon's own word for the row it wrote (its `event`), not the folded state ("active")
    assert [e.records[0].status for e in log.entries()] == [
        "resolved", "reopened", "ratified", "ratified", "dismissed", "ratified", "confirmed"]
    assert all(r.ts for e in log.entries() for r in e.records)
    assert RULING not in raw and "parquet" not in raw
    assert log.verify_chain().ok
    again = build_queue(project, NOW.timestamp())
    assert {e.kind for e in again.entries} == {"carried-external", "carried-open-loop", "open-loop"}


def test_a_ruling_whose_text_changed_after_display_is_not_activated(queue_store, tmp_path):
    project, ids = queue_store
    shown = build_queue(project, NOW.timestamp()).find(f"ruling:{ids['rid']}")
    # the agent rewrites the candidate's text while the person reads the old one
    refutations.revise(
        ids["rid"],
        channel="cli-agent",
        evidence=["artifact:gateway.md"],
        verdict="Always retry a request that timed out at the gateway",
        project_dir=project.target,
    )
    verdict = decisions.decide(shown, "ruling-ratify", project, log=ActionLog(tmp_path / "log.jsonl"))
    assert verdict.outcome == "not-applied" and verdict.code == "not-activated"
    assert "not activated" in verdict.message
    assert refutations.get(ids["rid"], project_dir=project.target)["state"] == "candidate"
    # shown afresh, the new text ratifies
    fresh = build_queue(project, NOW.timestamp()).find(f"ruling:{ids['rid']}")
    assert decisions.decide(fresh, "ruling-ratify", project, log=ActionLog(tmp_path / "log.jsonl")).applied


def test_supersede_confirm_and_claim_reopen(queue_store, tmp_path):
    project, ids = queue_store
    log = ActionLog(tmp_path / "actions.jsonl")
    queue = build_queue(project, NOW.timestamp())
    claim = queue.find(f"agent-claim:{ids[EXPORT]}")
    refused = decisions.decide(claim, "claim-reopen", project, log=log, timing=FAST)
    assert refused.outcome == "refused" and refused.code == "evidence-required"
    reopened = decisions.decide(
        claim, "claim-reopen", project, log=log, evidence="the export still writes CSV", timing=FAST
    )
    assert reopened.applied
    candidate = queue.find(f"supersede-candidate:{ids[CACHE]}")
    assert decisions.decide(candidate, "supersede-confirm", project, log=log, timing=FAST).applied
    latest = store.resolutions(project_dir=project.target)
    assert latest[ids[CACHE]]["status"] == f"superseded-by:{ids[CACHE2]}"
    assert latest[ids[EXPORT]]["status"] == "reopened"
    text = api.render_briefing(project.target, now=NOW.timestamp()).text
    assert CACHE not in text and EXPORT in text and "agent claims resolved" not in text
    # a verb that does not fit the entry is refused and logged
    assert decisions.decide(candidate, "amend-ratify", project, log=log).code == "verb-does-not-fit"


def test_kill_switch_refuses_and_writes_nothing(queue_store, tmp_path):
    project, ids = queue_store
    entry = build_queue(project, NOW.timestamp()).find(f"trust:{ids['tid']}")
    with unittest.mock.patch("daimon_tui.store.write.decisions.config.is_disabled", return_value=True):
        verdict = decisions.decide(entry, "trust-confirm", project, log=ActionLog(tmp_path / "a.jsonl"))
    assert verdict.outcome == "refused" and verdict.code == "disabled"
    assert trust.get(ids["tid"], project_dir=project.target)["state"] == "candidate"
    assert ActionLog(tmp_path / "a.jsonl").entries()[0].outcome == "refused"


def test_a_verdict_whose_intent_cannot_be_logged_is_refused_and_writes_nothing(queue_store, tmp_path):
    project, ids = queue_store
    blocker = tmp_path / "state"
    blocker.write_text("a file where the log's directory should be")
    entry = build_queue(project, NOW.timestamp()).find(f"amendment:{ids['aid']}")
    before = amendments.get(ids["aid"], project_dir=project.target)["state"]
    verdict = decisions.decide(entry, "amend-ratify", project, log=ActionLog(blocker / "actions.jsonl"))
    assert verdict.outcome == "refused" and verdict.code == "log-unwritable"
    assert str(blocker / "actions.jsonl") in verdict.message
    assert amendments.get(ids["aid"], project_dir=project.target)["state"] == before


STALE_CARRIED = {
    ("working_context", "recent_decisions"): "Use Postgres advisory locks for the job runner",
    ("working_context", "open_questions"): "Is the staging deploy still pinned to the old tag?",
    ("epistemic_snapshot", "strong_beliefs"): "The CDN never caches POST responses at all",
    ("epistemic_snapshot", "uncertainties"): "Whether the retry budget is shared across workers",
}
STALE_EXTERNAL = "Branch spike/wal still holds the WAL experiment"


def test_stale_carried_items_of_every_kind_are_in_the_queue(empty_store):
    """Issue 15 point 7: carried decisions, beliefs and uncertainties that daimon
    marks `? unverified` were missing from the queue."""
    old = demo._stamp(NOW - timedelta(days=30))
    cp = demo.session("S-stale", NOW - timedelta(days=1), "Stale")
    for (section, key), text in STALE_CARRIED.items():
        cp[section][key] = [{"text": text, "trust": "inferred", "carried_from": "S-old", "first_seen": old}]
    cp["working_context"]["open_questions"].append(
        {"text": STALE_EXTERNAL, "trust": "inferred", "external_state": True, "carried_from": "S-old",
         "first_seen": old})
    testing.seed_checkpoint(empty_store.project, cp, session_id="S-stale")
    project = ProjectRef(slug=api.project_slug(str(empty_store.project)), name="proj", path=str(empty_store.project))
    queue = build_queue(project, NOW.timestamp())
    ids = ids_by_text(empty_store.project)
    by_ref = {e.ref: e for e in queue.entries}
    # what daimon itself marks stale, through its own render
    rendered = api.render_briefing(str(empty_store.project), now=NOW.timestamp()).text
    assert rendered.count("? unverified") >= len(STALE_CARRIED) + 1
    for text in (*STALE_CARRIED.values(), STALE_EXTERNAL):
        assert ids[text] in by_ref, text
        assert by_ref[ids[text]].stale_days == pytest.approx(30, abs=1)
    assert by_ref[ids[STALE_EXTERNAL]].kind == "carried-external"
    assert by_ref[ids[STALE_CARRIED["working_context", "open_questions"]]].kind == "carried-open-loop"
    stale_lane = [e for e in queue.entries if e.kind == "carried-stale"]
    assert {e.ref for e in stale_lane} == {ids[STALE_CARRIED[k]] for k in [
        ("working_context", "recent_decisions"), ("epistemic_snapshot", "strong_beliefs"),
        ("epistemic_snapshot", "uncertainties")]}
    assert all(e.verbs == ("resolve", "retract", "reverify") for e in stale_lane)
    assert queue_order.lane_counts(e.kind for e in queue.entries) == (
        "lanes: carried-external 1 · carried-open-loop 1 · carried-stale 3")
    # every item daimon's own preparation (what `daimon loops --stale` reads) stamps stale is queued
    prepared = briefing.prepare(str(empty_store.project), NOW.timestamp(), route=store.Route.OWN)
    assert {i["id"] for i in prepared.stale_items} <= set(by_ref) and len(prepared.stale_items) == 5


def test_a_request_from_another_project_is_queued_with_accept_and_decline(empty_store, tmp_path):
    """Issue 15 point 7: a request had no verb in the queue; accept and decline land in daimon's ledger."""
    demo.seed(empty_store.project, demo.session("S-a", NOW - timedelta(days=1), "A"))
    other = empty_store.project.parent / "other"
    other.mkdir()
    demo.seed(other, demo.session("S-b", NOW - timedelta(days=1), "B"))
    to = api.project_slug(str(empty_store.project))
    asks = [requests.open_request(to=to, ask=f"Please confirm the upload rate limit, case {n}",
                                  why="we size our retry budget on it", channel="cli-tty", project_dir=str(other))
            for n in (1, 2)]
    project = ProjectRef(slug=to, name="proj", path=str(empty_store.project))
    queue = build_queue(project, NOW.timestamp())
    lane = [e for e in queue.entries if e.kind == "request"]
    assert [e.ref for e in lane] == asks  # daimon's order: oldest first
    assert all(e.verbs == ("request-accept", "request-reject") for e in lane)
    log = ActionLog(tmp_path / "actions.jsonl")
    accepted = decisions.decide(lane[0], "request-accept", project, log=log)
    declined = decisions.decide(lane[1], "request-reject", project, log=log)
    assert (accepted.outcome, accepted.after) == ("applied", "accepted")
    assert (declined.outcome, declined.after) == ("applied", "rejected")
    joined = requests.recipient_join(str(empty_store.project))
    assert [joined[r]["state"] for r in asks] == ["accepted", "rejected"]
    assert [e.verb for e in log.entries()] == ["request-accept", "request-reject"]
    assert not [e for e in build_queue(project, NOW.timestamp()).entries if e.kind == "request"]


FRESH_LOOP = "Does the importer still skip rows without a tenant id?"
FRESH_DOUBT = "Whether the nightly job runs before or after the backup"


def test_fresh_open_loops_of_the_latest_session_are_queued_as_daimon_loops_lists_them(empty_store, capsys):
    """Issue 15 point 7: the open loops and uncertainties native to the latest
    session (what `daimon loops` lists) were missing from the queue."""
    cp = demo.session("S-fresh", NOW - timedelta(days=1), "Fresh")
    cp["working_context"]["open_questions"] = [{"text": FRESH_LOOP, "trust": "inferred"}]
    cp["epistemic_snapshot"]["uncertainties"] = [{"text": FRESH_DOUBT, "trust": "inferred"}]
    testing.seed_checkpoint(empty_store.project, cp, session_id="S-fresh")
    project = ProjectRef(slug=api.project_slug(str(empty_store.project)), name="proj", path=str(empty_store.project))
    queue = build_queue(project, NOW.timestamp())
    listed = daimon_loops(project, capsys)
    ids = ids_by_text(empty_store.project)
    assert listed == [ids[FRESH_LOOP], ids[FRESH_DOUBT]]
    assert [e.ref for e in queue.entries] == listed
    assert all(e.kind == "open-loop" and e.verbs == ("resolve", "retract", "reverify") for e in queue.entries)
    assert queue.entries[0].item is not None and queue.entries[0].item.text == FRESH_LOOP
