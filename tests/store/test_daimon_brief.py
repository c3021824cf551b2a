"""`daimon brief`'s own output and allocation, read without its side effects.

Stores are made by daimon's testing helpers: a handoff, a standing ruling and
an open-loops section daimon trims for its byte budget."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import cli as daimon_cli
from daimon_briefing import store, testing
from daimon_briefing.surfaces import Writer

from daimon_tui import cli
from daimon_tui.headless.brief import write_plain
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import daimon_brief, reader
from tests.daimon_records import project_ref

BATON = "Run the retry tests first\nthen ship behind the flag"
LOOPS = [f"Open question {n:02d}: does the uploader retry path {n} need its own ceiling?" for n in range(16)]


def _budget_checkpoint() -> dict:
    cp = demo.session("S-budget", demo.DEMO_NOW - timedelta(hours=2), "Budgeted topic")
    cp["working_context"]["open_questions"] = [{"text": t, "trust": "inferred"} for t in LOOPS]
    cp["working_context"]["recent_decisions"] = [{"text": "Keep the retry ceiling at 30s", "trust": "inferred"}]
    cp["epistemic_snapshot"]["contradictions_flagged"] = [{"text": "Docs say 3 retries, config 5", "trust": "inferred"}]
    return cp


@pytest.fixture
def budget_store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    with demo.sandboxed(sandbox_root, receipts=False, settings={"DAIMON_BRIEF_MAX_BYTES": "1400"}) as d:
        testing.seed_checkpoint(d.project, _budget_checkpoint(), session_id="S-budget")
        testing.seed_ruling(d.project, subject="uploads", verdict="Never retry non-idempotent uploads")
        assert store.append_event("", "active", note=BATON, kind="handoff", project_dir=str(d.project),
                                  writer=Writer.HUMAN)
        yield d


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
        assert item.line in printed
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
    assert text.index("Active topic: Budgeted topic") < text.index("Contradictions flagged:")
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


def test_as_daimon_refuses_json(budget_store, capsys) -> None:
    assert cli.main(["brief", "--as-daimon", "--json", "--project", str(budget_store.project)]) == 2
