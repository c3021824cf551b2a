"""`daimon brief`'s own output and allocation, read without its side effects.

Stores are made by daimon's testing helpers: a handoff, a standing ruling and
an open-loops section daimon trims for its byte budget."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import timedelta

import pytest
from daimon_briefing import cli as daimon_cli
from daimon_briefing import testing

from daimon_tui import cli
from daimon_tui.headless.brief import write_plain
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import daimon_brief, reader
from tests.daimon_records import BATON, LOOPS, project_ref


def _daimon_cli_output(d: demo.DemoStore, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert daimon_cli.main(["brief", "--project", str(d.project)]) == 0
    return capsys.readouterr().out


def test_as_daimon_equals_daimon_brief_byte_for_byte(budget_store, capsys) -> None:
    expected = _daimon_cli_output(budget_store, capsys)
    assert "HANDOFF" in expected and "of 16 shown" in expected  # the store exercises both
    assert cli.main(["brief", "--as-daimon", "--project", str(budget_store.project)]) == 0
    assert capsys.readouterr().out.encode() == expected.encode()


def test_as_daimon_equals_daimon_brief_on_the_demo_store(demo_store, capsys) -> None:
    expected = _daimon_cli_output(demo_store, capsys)
    assert daimon_brief.daimon_text(project_ref(demo_store)) == expected


def test_briefed_split_is_daimons_own(budget_store, capsys) -> None:
    printed = _daimon_cli_output(budget_store, capsys)
    briefing = reader.load_briefing(project_ref(budget_store))
    loops = next(s for s in briefing.sections if s.key == "open_loops")
    briefed = [i for i in loops.items if i.briefed]
    left_out = [i for i in loops.items if i.briefed is False]
    assert briefed and left_out and len(briefed) + len(left_out) == 16
    for item in briefed:
        assert item.briefed_line is not None and item.briefed_line in printed
    for item in left_out:
        assert item.text not in printed
    assert loops.briefed_count() == len(briefed)
    assert loops.note is not None and loops.note in printed
    assert loops.header == "Open loops:"


def test_handoff_order_and_rulings_in_the_model(budget_store) -> None:
    briefing = reader.load_briefing(project_ref(budget_store))
    assert briefing.handoff is not None and briefing.handoff.note == BATON
    assert briefing.greeting == "While you were away — here's where we left off."
    assert briefing.order.index("active_topic") < briefing.order.index("contradictions")
    assert briefing.rulings[0].startswith("Standing rulings")
    assert "§ Never retry non-idempotent uploads" in briefing.rulings


def test_plain_report_leads_with_the_handoff_and_keeps_daimons_order(budget_store) -> None:
    out = io.StringIO()
    write_plain(reader.load_briefing(project_ref(budget_store)), out)
    text = out.getvalue()
    assert text.index("HANDOFF (left deliberately by previous session") < text.index("While you were away")
    assert "→ Run the retry tests first\n→ then ship behind the flag" in text
    assert text.index("Active topic: Budgeted topic") < text.index("Contradictions flagged (")
    assert "of 16 briefed)" in text
    assert "\n· [~ inferred] Open question" in text


def test_json_carries_handoff_split_and_order(budget_store, capsys) -> None:
    assert cli.main(["brief", "--json", "--project", str(budget_store.project)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["handoff"]["note"] == BATON and data["handoff"]["ts"]
    assert data["order"][-2:] == ["active_topic", "contradictions"]
    loops = next(s for s in data["sections"] if s["key"] == "open_loops")
    flags = [i["briefed"] for i in loops["items"]]
    assert True in flags and False in flags and loops["total"] == 16
    assert loops["briefed"] == flags.count(True)
    assert loops["header"] == "Open loops:"


def test_first_paint_leaves_the_split_unknown(budget_store) -> None:
    briefing = reader.load_briefing(project_ref(budget_store), budgeted=False)
    assert all(i.briefed is None for i in briefing.items())
    assert all(s.briefed_count() is None for s in briefing.sections)
    assert briefing.handoff is None  # the light read leaves the events ledger to the confirming one


def test_as_daimon_refuses_json(budget_store, capsys) -> None:
    assert cli.main(["brief", "--as-daimon", "--json", "--project", str(budget_store.project)]) == 2


def test_daimons_recorded_world_verdicts_are_shown_apart_from_live_checks(budget_store, capsys) -> None:
    from daimon_briefing import store

    from tests.daimon_records import item_ids

    ids = item_ids(budget_store.project)
    contradicted, confirmed = ids[LOOPS[0]], ids[LOOPS[1]]
    key = "a" * 64
    for ref, check, reason in ((contradicted, "pr-state", "claim-contradicted"),
                               (confirmed, "file-exists", "claim-contradicted"),
                               (confirmed, "file-exists-ok", "claim-confirmed")):
        assert store.append_verification(ref, check, reason, project_dir=str(budget_store.project), claim_key=key)
    briefing = reader.load_briefing(project_ref(budget_store))
    first = briefing.find(contradicted)
    second = briefing.find(confirmed)
    assert first is not None and first.has_badge("recorded-contradicted") and not first.has_badge("world-contradicted")
    assert second is not None and second.has_badge("recorded-confirmed") and not second.has_badge("world-checked")
    assert cli.main(["brief", "--json", "--project", str(budget_store.project)]) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {i["id"]: i for s in data["sections"] for i in s["items"]}
    assert by_id[contradicted]["daimon_world"]["verdict"] == "contradicted"
    assert "pr-state at 20" in by_id[contradicted]["daimon_world"]["recorded"]
    assert by_id[confirmed]["daimon_world"]["verdict"] == "confirmed"
    assert "recorded-contradicted" in by_id[contradicted]["badges"]


def test_as_daimon_writes_nothing(budget_store) -> None:
    before = {p: p.read_bytes() for p in budget_store.root.rglob("*") if p.is_file()}
    assert "HANDOFF" in daimon_brief.daimon_text(project_ref(budget_store))
    after = {p: p.read_bytes() for p in budget_store.root.rglob("*") if p.is_file()}
    assert before == after


def test_history_and_as_of_show_the_handoff_that_held_then(empty_store) -> None:
    from daimon_tui.services.as_of import briefing_as_of

    project = empty_store.project
    t0 = demo.DEMO_NOW - timedelta(days=3)
    for n, sid in enumerate(("S-a", "S-b", "S-c")):
        cp = demo.session(sid, t0 + timedelta(days=n), f"topic {sid}")
        cp["working_context"]["recent_decisions"] = [{"text": f"decision {sid}", "trust": "inferred"}]
        if sid == "S-b":  # the baton is left between S-a and S-b
            demo.leave_handoff(project, "then-baton", t0 + timedelta(hours=12))
        testing.seed_checkpoint(project, cp, session_id=sid)
    ref = project_ref(empty_store)
    # Two sessions serialized after it: daimon has consumed it by now.
    assert reader.load_briefing(ref).handoff is None
    assert reader.load_briefing(ref, session_id="S-a").handoff is None
    held = reader.load_briefing(ref, session_id="S-b").handoff
    assert held is not None and held.note == "then-baton"
    past = asyncio.run(briefing_as_of(ref, "S-b")).handoff
    assert past is not None and past.note == "then-baton"
    assert asyncio.run(briefing_as_of(ref, "S-c")).handoff is None


def test_as_daimon_by_slug_equals_daimon_brief_slug(budget_store, capsys) -> None:
    ref = project_ref(budget_store)
    capsys.readouterr()
    assert daimon_cli.main(["brief", f"--slug={ref.slug}"]) == 0
    expected = capsys.readouterr().out
    assert "cross-project briefing" in expected
    assert cli.main(["brief", "--as-daimon", f"--slug={ref.slug}"]) == 0
    assert capsys.readouterr().out == expected


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_as_daimon_to_a_terminal_is_inert() -> None:
    from daimon_tui.headless.brief import run_as_daimon

    hostile = "- [~ inferred] red \x1b[31mALERT\x1b[0m \u202egnp.exe\n"
    to_pipe, to_terminal = io.StringIO(), _Terminal()
    run_as_daimon(hostile, to_pipe, io.StringIO())
    run_as_daimon(hostile, to_terminal, io.StringIO())
    assert to_pipe.getvalue() == hostile  # daimon's bytes, for a diff
    assert "\x1b" not in to_terminal.getvalue() and "\u202e" not in to_terminal.getvalue()


def test_at_any_size_the_split_is_daimons(budget_store, capsys) -> None:
    """Our allocator decides at any size: no item count leaves the split unknown."""
    printed = _daimon_cli_output(budget_store, capsys)
    briefing = reader.load_briefing(project_ref(budget_store))
    left_out = [i for i in briefing.items() if i.briefed is False]
    briefed = [i for i in briefing.items() if i.briefed]
    assert left_out and briefed
    assert all(i.briefed_line in printed for i in briefed) and all(i.text not in printed for i in left_out)


def test_in_safe_mode_the_split_is_off_and_said(budget_store, monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.store.daimon_api import mode

    monkeypatch.setenv(mode.ENV_SAFE, "1")
    mode.set_current(None)
    try:
        briefing = reader.load_briefing(project_ref(budget_store))
        assert all(i.briefed is None for i in briefing.items())
        assert any("is off in safe mode" in n.message for n in briefing.notes)
    finally:
        monkeypatch.delenv(mode.ENV_SAFE)
        mode.set_current(None)
