"""Pure verb planning: daimon's CLI gates, side effects in words, undo mapping."""

from __future__ import annotations

from daimon_tui.domain import undo_plan, verb_registry, verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.verbs import ForgetInput, ForgetReach, ItemFacts, LatestEvent, StoreGuard

OK = StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"})
ENTRY = ActionEntry(action_id="act-1", time="2026-12-02T10:00:01Z", user="u", project="p", verb="resolve",
                    item_ids=("o-aaaaaa",), outcome="applied")
TEXT = "Should uploads retry on HTTP 429 with exponential backoff?"


def live(item_id: str = "o-aaaaaa", **kw) -> ItemFacts:
    base = {"item_id": item_id, "kind": "question", "text": TEXT, "in_live": True, "lifecycle": "active"}
    return ItemFacts(**{**base, **kw})


def resolved(source: str = "ui", status: str = "resolved", **kw) -> ItemFacts:
    return live(lifecycle="resolved", latest=LatestEvent(status=status, source=source,
                                                          ts="2026-12-02T10:00:00Z"), **kw)


def test_registry_keys_match_the_design() -> None:
    assert {s.name: s.key for s in verb_registry.VERBS} == {
        "resolve": "r", "retract": "x", "restore": "u", "reverify": "v", "forget": "F", "undo": "z"}
    assert verb_registry.verb_for_key("F").irreversible
    assert verb_registry.verb_for_key("q") is None


def test_resolve_is_one_record_per_item_and_names_the_corroboration_reset() -> None:
    items = [live("o-aaaaaa", corroboration=3), live("o-bbbbbb")]
    plan = verbs.plan_resolve("p", items, OK, verbs.ResolveInput(status="merged", note="n"))
    assert [(w.item_id, w.ledger, w.channel, w.status) for w in plan.writes] == [
        ("o-aaaaaa", "events.jsonl", "ui", "merged"), ("o-bbbbbb", "events.jsonl", "ui", "merged")]
    assert any("corroboration ×3 is reset" in e and "will not come back on reopen" in e for e in plan.effects)
    assert not any("o-bbbbbb: corroboration" in e for e in plan.effects)


def test_resolve_refuses_a_tombstone_status_and_an_id_outside_the_live_body() -> None:
    plan = verbs.plan_resolve("p", [live()], OK, verbs.ResolveInput(status="forgotten:abc"))
    assert plan.refusals[0].code == "tombstone-status" and not plan.allowed
    plan = verbs.plan_resolve("p", [live(in_live=False)], OK, verbs.ResolveInput())
    assert plan.refusals[0].code == "no-match"


def test_any_write_is_refused_when_disabled_or_the_ledger_is_unreadable() -> None:
    disabled = StoreGuard(disabled=True, ledgers=OK.ledgers)
    garbage = StoreGuard(ledgers={"events.jsonl": "unreadable", "trust.jsonl": "ok"})
    data = verbs.RetractInput(reason="wrong", evidence=("issue:1",))
    assert verbs.plan_resolve("p", [live()], disabled, verbs.ResolveInput()).refusals[0].code == "disabled"
    assert verbs.plan_retract("p", [live()], disabled, data).refusals[0].code == "disabled"
    assert verbs.plan_forget("p", live(), disabled).refusals[0].code == "disabled"
    refused = verbs.plan_resolve("p", [live()], garbage, verbs.ResolveInput()).refusals[0]
    assert refused.code == "ledger-unwritable" and "daimon ledger repair events" in refused.reason
    assert verbs.plan_restore("p", [resolved()], garbage).refusals[0].code == "ledger-unwritable"
    # the trust ledger is fine, so a retraction is not blocked by events.jsonl
    assert verbs.plan_retract("p", [live()], garbage, data).allowed


def test_retract_says_it_hides_every_copy_and_needs_reason_and_evidence() -> None:
    data = verbs.RetractInput(reason="wrong", evidence=("issue:1",))
    plan = verbs.plan_retract("p", [live(copies=3)], OK, data)
    assert plan.writes[0].ledger == "trust.jsonl" and plan.writes[0].op == "quarantine"
    assert any("hides every item with this text, including future captures" in e for e in plan.effects)
    assert any("3 copies" in e for e in plan.effects)
    assert verbs.plan_retract("p", [live()], OK, verbs.RetractInput(reason="", evidence=("issue:1",))
                              ).refusals[0].code == "reason-required"
    assert verbs.plan_retract("p", [live()], OK, verbs.RetractInput(reason="x", evidence=())
                              ).refusals[0].code == "evidence-required"
    too_short = live(text="too short", value_refused="quarantine text is too short (9 < 20 characters)")
    assert verbs.plan_retract("p", [too_short], OK, data).refusals[0].code == "text-too-short"


def test_restore_refuses_a_superseded_item_with_a_live_substitute() -> None:
    facts = live(lifecycle="superseded", substitute_id="o-bbbbbb", substitute_live=True,
                 latest=LatestEvent(status="superseded-by:o-bbbbbb", source="ui", ts="t"))
    refusal = verbs.plan_restore("p", [facts], OK).refusals[0]
    assert refusal.code == "live-substitute" and "o-bbbbbb" in refusal.reason
    gone = facts.model_copy(update={"substitute_live": False})
    assert verbs.plan_restore("p", [gone], OK).writes[0].op == "reopen"


def test_restore_refuses_a_machine_verdict() -> None:
    for source in ("serializer", "agent"):
        refusal = verbs.plan_restore("p", [resolved(source=source)], OK).refusals[0]
        assert refusal.code == "machine-verdict" and source in refusal.reason
    assert verbs.plan_restore("p", [resolved(source="cli-tty")], OK).allowed


def test_restore_picks_release_reopen_or_unforget() -> None:
    q = live(lifecycle="quarantined", quarantine_id="tr-000000000001")
    plan = verbs.plan_restore("p", [q, resolved(item_id="o-cccccc"),
                                    live("o-dddddd", lifecycle="forgotten", forgotten_key=True)], OK)
    assert [(w.op, w.ledger) for w in plan.writes] == [
        ("release", "trust.jsonl"), ("reopen", "events.jsonl"), ("unforget", "events.jsonl")]
    assert any("content does NOT come back" in e for e in plan.effects)
    teammate = live(lifecycle="quarantined", teammate_quarantine=True)
    assert verbs.plan_restore("p", [teammate], OK).refusals[0].code == "teammate-quarantine"
    assert verbs.plan_restore("p", [live()], OK).refusals[0].code == "nothing-to-restore"


def test_reverify_gate_mirrors_the_cli() -> None:
    none = verbs.ReverifyInput()
    assert verbs.plan_reverify("p", [live()], OK, none).refusals[0].code == "evidence-required"
    assert verbs.plan_reverify("p", [live()], OK, verbs.ReverifyInput(evidence="saw it")
                               ).writes[0].note == "evidence: saw it"
    anchored = verbs.plan_reverify("p", [live(anchor_live=True)], OK, none)
    assert anchored.writes[0].note == "reverified: anchor live"
    assert verbs.plan_reverify("p", [live(serializer_candidate=True)], OK, none
                               ).writes[0].note == "candidate rejected"
    quarantined = live(lifecycle="quarantined", quarantine_id="tr-000000000001", anchor_live=True)
    assert verbs.plan_reverify("p", [quarantined], OK, none).refusals[0].code == "evidence-required"
    assert verbs.plan_reverify("p", [live(in_live=False)], OK, none).refusals[0].code == "no-match"


def test_forget_lists_its_reach_and_needs_the_typed_id() -> None:
    facts = live(reach=ForgetReach(siblings=("o-bbbbbb",), ledger_records=("a-111111111111",),
                                   active_rulings=("r-222222222222",), quarantines=("tr-333333333333",)))
    preview = verbs.plan_forget("p", facts, OK)
    text = " ".join(preview.effects + preview.warnings)
    for needle in ("o-bbbbbb", "a-111111111111", "r-222222222222", "tr-333333333333", "ACTIVE ruling",
                   'source "cli"', "irreversible"):
        assert needle in text
    assert preview.irreversible and preview.confirm_id == "o-aaaaaa"
    assert preview.writes[0].channel == "cli"
    wrong = verbs.plan_forget("p", facts, OK, ForgetInput(typed_id="o-aaaaab"))
    assert wrong.refusals[0].code == "typed-id-mismatch" and not wrong.allowed
    assert verbs.plan_forget("p", facts, OK, ForgetInput(typed_id="o-aaaaaa")).allowed


def test_undo_maps_each_write_to_its_compensation() -> None:
    done = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="done"),
            undo_plan.DoneRecord(item_id="o-bbbbbb", op="quarantine", quarantine_id="tr-000000000001"),
            undo_plan.DoneRecord(item_id="o-cccccc", op="reopen", undid="merged"),
            undo_plan.DoneRecord(item_id="o-dddddd", op="release", quarantine_id="tr-000000000002"),
            undo_plan.DoneRecord(item_id="o-eeeeee", op="forget")]
    facts = {"o-aaaaaa": resolved(item_id="o-aaaaaa", status="done"),
             "o-bbbbbb": live("o-bbbbbb", lifecycle="quarantined", quarantine_id="tr-000000000001"),
             "o-cccccc": live("o-cccccc"), "o-dddddd": live("o-dddddd"),
             "o-eeeeee": live("o-eeeeee", lifecycle="forgotten")}
    plan = undo_plan.plan_undo("p", ENTRY, done, facts, OK)
    assert [(w.item_id, w.op, w.status) for w in plan.writes] == [
        ("o-aaaaaa", "reopen", "reopened"), ("o-bbbbbb", "release", None),
        ("o-cccccc", "resolve", "merged"), ("o-dddddd", "quarantine", None)]
    assert plan.refusals[0].code == "not-undoable" and plan.undoes == "act-1"
    moved = undo_plan.plan_undo("p", ENTRY, done[:1], {"o-aaaaaa": live("o-aaaaaa")}, OK)
    assert moved.refusals[0].code == "state-moved"


def test_undo_refuses_when_daimons_current_record_is_not_the_apps_write() -> None:
    """#16 point 4: a verdict written since (here daimon's CLI) is named, never overwritten."""
    done = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="done", ts="2026-12-02T10:00:00Z")]
    ours = undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": resolved(status="done")}, OK)
    assert [w.op for w in ours.writes] == ["reopen"]
    newer = live(lifecycle="resolved", latest=LatestEvent(status="merged", source="cli", ts="2026-12-02T10:05:00Z"))
    plan = undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": newer}, OK)
    assert not plan.writes and plan.refusals[0].code == "newer-record"
    assert "'merged' from 'cli' at 2026-12-02T10:05:00Z" in plan.refusals[0].reason
    requarantined = live(lifecycle="quarantined", quarantine_id="tr-000000000009")
    done_q = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="quarantine", quarantine_id="tr-000000000001")]
    assert undo_plan.plan_undo("p", ENTRY, done_q, {"o-aaaaaa": requarantined}, OK).refusals[0].code == "newer-record"


def test_undo_refuses_a_newer_ui_resolution_with_the_same_status() -> None:
    """The latest record looks like ours (source `ui`, the same status) but was written
    later, e.g. by a second resolve from this app: undo names it and does not reopen.
    (Mutation checked: without the time check in `_not_ours`, the undo plans a reopen.)"""
    done = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="done", ts="2026-12-02T10:00:00Z")]
    newer = live(lifecycle="resolved", latest=LatestEvent(status="done", source="ui", ts="2026-12-02T10:07:00Z"))
    plan = undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": newer}, OK)
    assert not plan.writes and [r.code for r in plan.refusals] == ["newer-record"]
    assert "'done' from 'ui' at 2026-12-02T10:07:00Z" in plan.refusals[0].reason
    # the same record at the write's own time is the app's write: undone
    same = live(lifecycle="resolved", latest=LatestEvent(status="done", source="ui", ts="2026-12-02T10:00:00Z"))
    assert [w.op for w in undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": same}, OK).writes] == ["reopen"]


def test_undo_preview_names_the_action_and_what_it_steps_over() -> None:
    done = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="done")]
    newer = ActionEntry(action_id="act-2", time="2026-12-02T10:09:00Z", user="u", project="p", verb="forget",
                        item_ids=("o-bbbbbb",), outcome="applied")
    plan = undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": resolved(status="done")}, OK, (newer,))
    assert plan.warnings[0] == "undoes: resolve of o-aaaaaa at 2026-12-02T10:00:01Z (act-1)"
    assert "forget of o-bbbbbb at 2026-12-02T10:09:00Z (act-2)" in plan.warnings[1]
    assert any("corroboration reset by the resolution does NOT come back" in e for e in plan.effects)
    assert any("freshly verified" in e for e in plan.effects)


def test_log_status_is_daimons_own_word_and_never_free_text() -> None:
    """Issue 15 point 4 (a forget is never logged as resolved) and issue 25
    point 9 (the word is the one daimon wrote: `reopened:unforget`, not `lifted`)."""
    assert verbs.logged_status("forget", "forgotten:0123abcd4567ef89") == "forgotten:0123abcd4567ef89"
    assert verbs.logged_status("forget", "forgotten: some text") is None
    assert verbs.logged_status("unforget", "reopened:unforget") == "reopened:unforget"
    assert verbs.logged_status("quarantine", "proposed") == "proposed"
    assert verbs.logged_status("release", "released") == "released"
    assert verbs.logged_status("reopen", "reopened") == "reopened"
    assert verbs.logged_status("resolve", "merged") == "merged"
    assert verbs.logged_status("resolve", "secret words") == "resolved"
    assert verbs.logged_status("amend-ratify", "ratified") == "ratified"
    assert verbs.logged_status("amend-ratify", "Secret Words") is None
    assert not verbs.log_status_allowed("forget", "resolved")
    assert not verbs.log_status_allowed("unforget", "lifted")
    assert verbs.log_status_allowed("resolve", "superseded-by:o-abcdef")


def test_batch_resolve_plans_each_items_own_status_and_flags_a_confirmed_claim() -> None:
    """Issue 15 point 5: the cursor's `gone` does not land on an item whose branch the world confirmed."""
    data = verbs.ResolveInput(status="gone", per_item={"o-aaaaaa": "gone", "o-bbbbbb": "resolved"},
                              world_confirmed=frozenset({"o-bbbbbb"}))
    plan = verbs.plan_resolve("p", [live("o-aaaaaa"), live("o-bbbbbb")], OK, data)
    assert [(w.item_id, w.status) for w in plan.writes] == [("o-aaaaaa", "gone"), ("o-bbbbbb", "resolved")]
    assert plan.warnings[0].startswith("o-bbbbbb: the world-check CONFIRMED")


def test_safe_status_keeps_free_text_out() -> None:
    assert verbs.safe_status("merged") == "merged"
    assert verbs.safe_status("superseded-by:o-abcdef") == "superseded-by:o-abcdef"
    assert verbs.safe_status("the password is hunter2") == "resolved"


def test_every_preview_says_how_mark_and_badges_change_and_what_is_not_reversed() -> None:
    """Issue 15 point 3."""
    done = [undo_plan.DoneRecord(item_id="o-aaaaaa", op="resolve", status="done")]
    plans = [
        verbs.plan_resolve("p", [live(corroboration=3)], OK, verbs.ResolveInput()),
        verbs.plan_retract("p", [live()], OK, verbs.RetractInput(reason="wrong", evidence=("issue:1",))),
        verbs.plan_restore("p", [resolved(status="merged")], OK),
        verbs.plan_restore("p", [live(lifecycle="quarantined", quarantine_id="tr-000000000001")], OK),
        verbs.plan_reverify("p", [live()], OK, verbs.ReverifyInput(evidence="checked")),
        verbs.plan_forget("p", live(), OK),
        undo_plan.plan_undo("p", ENTRY, done, {"o-aaaaaa": resolved(status="done")}, OK),
    ]
    for plan in plans:
        assert plan.allowed, plan.verb
        assert any("mark and badges" in line for line in plan.effects), plan.verb
        assert any("not" in line.lower() for line in plan.effects + plan.warnings), plan.verb


def test_restore_of_a_resolution_warns_it_reads_verified_and_keeps_the_interval() -> None:
    plan = verbs.plan_restore("p", [resolved(status="merged")], OK)
    assert plan.warnings[0] == ("o-aaaaaa: withheld since 2026-12-02T10:00:00Z (merged); the reopen is appended, "
                                "so that interval stays in daimon's record")
    assert "nothing re-checked the world" in plan.warnings[1]
