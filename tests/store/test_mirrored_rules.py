"""Rules the app mirrors from daimon are daimon's own (issue 25, point 10):
each is compared here with daimon's function on the same inputs."""

from __future__ import annotations

import re

import pytest
from daimon_briefing import trust

from daimon_tui.domain import verbs
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.write import plans

SECRET = "AKIAIOSFODNN7EXAMPLE"  # 20 characters; daimon redacts it to 18 before its length gate
RETRACT = verbs.RetractInput(reason="it was never right", evidence=("issue:1",))
TEXTS = [SECRET, "x" * 19, "x" * 20, "  spaced   out   text   here  ", "é" * 20, "token ghp_" + "a" * 36,
         "password=hunter2hunter2", "short", "\u200b" * 25, "a\tb\nc" * 5]


def _daimon_refuses(text: str) -> bool:
    try:
        trust.value_key(text)
    except trust.TrustError:
        return True
    return False


@pytest.mark.parametrize("text", TEXTS)
def test_retracts_short_text_gate_is_daimons(text: str) -> None:
    facts = verbs.ItemFacts(item_id="r-aaaaaa", kind="decision", text=text, in_live=True, lifecycle="active",
                            value_refused=plans.value_refusal(text))
    ok = verbs.StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"})
    refused = [r.code for r in verbs.plan_retract("p", [facts], ok, RETRACT).refusals]
    assert ("text-too-short" in refused) == _daimon_refuses(text)


def test_a_hand_edited_secret_is_refused_as_daimon_refuses_it(empty_store: demo.DemoStore) -> None:
    """A value daimon redacts before its gate: 20 characters as stored, 18 as daimon judges it."""
    cp = demo.session("S-1", demo.DEMO_NOW, "Keys")
    cp["working_context"]["recent_decisions"] = [{"text": "placeholder decision text here", "trust": "inferred"}]
    demo.seed(empty_store.project, cp)
    for path in empty_store.checkpoint_dir.rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("placeholder decision text here", SECRET), encoding="utf-8")
    ref = reader.resolve_project(str(empty_store.project))
    item = next(i for i in reader.load_briefing(ref).items() if i.kind == "decision")
    assert item.text == SECRET and _daimon_refuses(SECRET)
    plan = plans.build_plan("retract", (item.id or "",), ref, RETRACT)
    assert not plan.writes and plan.refusals[0].code == "text-too-short"
    assert "too short" in plan.refusals[0].reason


def test_the_corroboration_reset_warning_follows_daimons_badge(demo_store: demo.DemoStore) -> None:
    """The resolve preview warns of a reset exactly where daimon's briefing prints a corroboration badge."""
    ref = reader.resolve_project(str(demo_store.project))
    items = [i for i in reader.load_briefing(ref).items() if i.id]
    warned = {i.id for i in items
              if any("corroboration" in e for e in plans.build_plan("resolve", (i.id or "",), ref).effects)}
    badged = {i.id for i in items if "[≈ corroborated" in (i.line or "")}  # daimon's own line
    assert warned == badged and warned


def test_constants_named_after_daimons_are_daimons() -> None:
    from daimon_briefing import briefing, store

    assert verbs.HUMAN_SOURCES == store.HUMAN_EVENT_SOURCES
    assert verbs.ItemFacts(item_id="x").badge_min == briefing.CORROBORATION_MIN == plans.badge_min()


# ---- the words and thresholds the app restates, each against daimon's own (issue 25, point 10) ----------


def test_mark_labels_are_daimons() -> None:
    """The labels the rows and the audit print are the ones daimon's briefing prints."""
    from daimon_briefing import briefing

    from daimon_tui.domain.badges import mark_label
    from daimon_tui.store.daimon_api import rendering

    for label, word in rendering.mark_words().items():
        assert mark_label(word) == label
    assert mark_label("stale") == briefing._STALE_CARRIED_MARK  # a verbatim item carried past its budget


def test_section_titles_are_daimons_headers() -> None:
    from daimon_briefing import briefing, marks

    assert set(reader.SECTION_TITLES) == set(briefing.SECTION_HEADERS)
    for key, title in reader.SECTION_TITLES.items():
        header = briefing.SECTION_HEADERS[key]
        assert header == f"{title}:" or (title == marks.VERIFY_PHRASE and header.startswith(title)), key


def test_the_format_daimon_writes_is_one_the_reader_knows() -> None:
    from daimon_briefing import serializer

    assert serializer.PROMPT_VERSION in reader.KNOWN_FORMATS


def test_ledger_words_are_daimons() -> None:
    """Status words and ledger names the app matches rows by."""
    from daimon_briefing import store, surfaces

    from daimon_tui.store.write import decisions

    assert verbs.LIFT_STATUS == store.LIFT_STATUS
    assert verbs.WITNESS_PREFIX == store._CORROBORATED_BY
    assert verbs.SUPERSEDED_PREFIX in store._STATUS_CLASS_PREFIXES
    names = set(surfaces.bucket_ledger_names())
    assert {verbs.EVENTS, verbs.TRUST} <= names
    assert {decisions.AMENDMENTS, decisions.RELATIONS, decisions.REFUTATIONS, decisions.REQUESTS} <= names


@pytest.mark.parametrize("status", [*verbs.RESOLVE_STATUSES, "superseded-by:d-0123456789ab"])
def test_every_resolve_status_closes_the_item_in_daimons_fold(status: str) -> None:
    from daimon_briefing import store

    assert store.is_resolved({"status": status})
    assert verbs.safe_status(status) == status  # the log keeps it as daimon wrote it


@pytest.mark.parametrize("text", TEXTS)
def test_the_log_keeps_the_tombstone_word_daimons_forget_writes(text: str) -> None:
    """daimon's forget writes `forgotten:<content key>`; the log keeps exactly that word."""
    from daimon_briefing import normalize, store

    status = f"forgotten:{normalize.content_key(text)}"
    assert store.is_tombstone_status(status)
    assert verbs.logged_status("forget", status) == status
    assert verbs.logged_status("unforget", store.LIFT_STATUS) == store.LIFT_STATUS


def test_diff_change_marks_are_daimons() -> None:
    from daimon_briefing.cli import history as daimon_history

    from daimon_tui.ui.history import screen as history_screen

    # `daimon-tui diff` prints daimon's own change lines (diff_verb calls its steps); the view mirrors the marks
    assert daimon_history._MARKERS == history_screen._CHANGE_MARK


def test_withheld_states_cover_daimons_reasons() -> None:
    """Every reason daimon withholds an item for has a state in the filter and search."""
    import typing

    from daimon_briefing import view

    from daimon_tui.domain import filtering
    from daimon_tui.store.read import search as search_read

    ours = {"quarantine": "quarantined"}  # daimon's reason -> the app's word (daimon's `retract` is quarantine)
    reasons = set(typing.get_args(view.Reason))
    assert reasons and {ours.get(r, r) for r in reasons} <= set(filtering.WITHHELD_STATES)
    assert {ours.get(r, r) for r in reasons} - {"closed"} <= set(typing.get_args(search_read.HitState))


def test_audit_vocabulary_is_daimons() -> None:
    """The world classes, cure checks and reason codes the audit names are the ones daimon writes."""
    import inspect

    from daimon_briefing import serializer, store, view, worldcheck

    from daimon_tui.domain import audit_report
    from daimon_tui.store.read import audit as audit_read

    assert set(audit_read.WORLD_CLASSES) == {worldcheck.PR_STATE, worldcheck.BRANCH_STATE, worldcheck.FILE_EXISTS} \
        == set(worldcheck._WORLD_LEDGER_CLASSES)
    assert worldcheck.LEDGER_CONFIRM_CHECK in audit_read.CURE_CHECKS
    # the world-check writes "claim-" + its outcome for each world class it checked
    written = (set(worldcheck._LEDGER_REASONS.values()) | {worldcheck._LEDGER_CONFIRM_REASON}
               | {f"claim-{outcome}" for outcome in worldcheck._OUTCOME_RANK if outcome != "skipped"})
    source = inspect.getsource(serializer) + inspect.getsource(store) + inspect.getsource(worldcheck)
    for code in audit_read.REASONS:
        assert code in written or f'"{code}"' in source, code
    # daimon's cheap receipt answer, as its docstring lists it: each has a row in the agreement table
    listed = set(re.findall(r'"([a-z]+)"', (view.receipt_state.__doc__ or "").split("}", 1)[0])) - {"state", "detail"}
    assert listed == set(audit_report.DAIMON_AGREES) == audit_read._DAIMON_STATES


def test_the_decide_queue_explains_every_kind_daimon_queues() -> None:
    import inspect

    from daimon_briefing import pending

    from daimon_tui.store.read import queue

    kinds = set(re.findall(r'kind="([a-z]+)"', inspect.getsource(pending)))
    assert kinds and kinds <= set(queue._DECIDE_WHY)


def test_badge_labels_are_the_ones_daimon_prints() -> None:
    """The corroboration and world-checked badges read as daimon's line prints them."""
    from daimon_briefing import briefing

    from daimon_tui.domain.badges import badge_label
    from daimon_tui.models import Badge
    from daimon_tui.store.daimon_api import rendering

    printed = briefing.corroboration_badge({"_corroborated": 3})
    assert printed == f" [{badge_label(Badge(kind='corroborated', count=3))}]"
    line = rendering.line({"text": "Keep the worker single-threaded", "trust": "inferred",
                           "_worldcheck_confirmed": True})
    assert f"[{badge_label(Badge(kind='world-checked'))}]" in line


def test_the_transcript_words_cover_daimons_states() -> None:
    """Every locator state daimon's provenance resolves to, and every answer of its
    bytes axis, has the app's words (a state without words would print nothing)."""
    import inspect

    from daimon_briefing import inspector, provenance

    from daimon_tui.store.read import transcripts

    located = set(re.findall(r'SourceResolution\("([a-z-]+)"', inspect.getsource(provenance)))
    assert located and located <= set(transcripts.LOCATOR_WORDS)
    answers = set(re.findall(r'"(unchanged|changed|unknown|[a-z]+)"', inspect.getsource(inspector._bytes_axis)))
    answers -= {"scope", "raw-file", "value", "digest", "resolved"}
    assert answers == set(transcripts.BYTES_WORDS)


def test_the_sync_command_the_app_names_is_daimons() -> None:
    from daimon_briefing.cli import main as daimon_main

    from daimon_tui.models.team import SYNC_COMMAND

    program, *argv = SYNC_COMMAND.split()
    assert program == "daimon"
    with pytest.raises(SystemExit) as help_exit:
        daimon_main([*argv, "--help"])
    assert help_exit.value.code == 0
