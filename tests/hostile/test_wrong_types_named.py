"""Issue 24, point 1: the wrong JSON types that ended the app, one by one.

Each damages one field of a demo store written by daimon, then: the headless
`brief --json` prints a document (no traceback) whose notes name the file and
the field, the well-formed items still show, and an item's details (the
detail pane's read) come back with the damage named, not raised."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from daimon_tui.cli import main
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import details, reader

from .conftest import NOW

Edit = Callable[[dict], None]


def _decision(cp: dict) -> dict:
    return cp["working_context"]["recent_decisions"][0]


# (the edit of the checkpoint, the field a note names)
CASES: dict[str, tuple[Edit, str]] = {
    "open_questions is a number": (lambda cp: cp["working_context"].update(open_questions=5),
                                   "working_context.open_questions"),
    "contradictions_flagged is a number": (lambda cp: cp["epistemic_snapshot"].update(contradictions_flagged=5),
                                           "epistemic_snapshot.contradictions_flagged"),
    "a decision's trust is a number": (lambda cp: _decision(cp).update(trust=3), "trust"),
    "session_id is a number": (lambda cp: cp.update(session_id=7), "session_id"),
    "an item's carried_from is a number": (lambda cp: _decision(cp).update(carried_from=9), "carried_from"),
}


def damage(store: demo.DemoStore, edit: Edit) -> Path:
    """The edit applied to the latest pointer and to its session's own file
    (a hand edit of the checkpoint; daimon reads both)."""
    slug = reader.resolve_project(str(store.project)).slug
    latest = store.checkpoint_dir / slug / "latest.json"
    checkpoint = json.loads(latest.read_text(encoding="utf-8"))
    session_file = store.checkpoint_dir / f"{checkpoint['session_id']}.json"
    edit(checkpoint)
    for path in (latest, session_file):
        path.write_text(json.dumps(checkpoint), encoding="utf-8")
    return latest


@pytest.mark.parametrize("case", sorted(CASES))
def test_brief_json_names_the_file_and_field(demo_store: demo.DemoStore, case: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    edit, field = CASES[case]
    damage(demo_store, edit)
    assert main(["brief", "--json", "--project", str(demo_store.project)]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    document = json.loads(captured.out)
    items = [i for s in document["sections"] for i in s["items"]]
    assert items, "the well-formed items still show"
    assert any("latest.json" in n and field in n for n in document["notes"]), document["notes"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_items_details_read_without_raising(demo_store: demo.DemoStore, case: str) -> None:
    edit, field = CASES[case]
    damage(demo_store, edit)
    project = reader.resolve_project(str(demo_store.project))
    briefing = reader.load_briefing(project, now=NOW)
    named = [d.message for d in briefing.notes]
    for item in briefing.items():
        found = details.read_details(project, item.id or "", NOW)  # the detail pane's read
        if found.timeline is not None:
            named += [d.message for d in found.timeline.diagnostics]
    assert any(field in message and ".json" in message for message in named), named


def test_a_headless_read_that_raises_is_one_line_not_a_traceback(demo_store: demo.DemoStore,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise TypeError("'int' object is not iterable")

    monkeypatch.setattr(reader, "load_briefing", broken)
    assert main(["brief", "--json", "--project", str(demo_store.project)]) == 5  # Exit.READ_FAILED
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "brief could not finish reading daimon's store in" in err and "TypeError" in err
