"""Broken files: each becomes a diagnostic naming the file, the rest of the
store stays usable, and nothing is repaired or rewritten (hashed before/after)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from daimon_tui.headless.brief import briefing_json
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import inspector, reader
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle

from .conftest import NOW, tree_hashes

Damage = Callable[[demo.DemoStore, Path], None]


def _append(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def _edit_latest(bucket: Path, **fields: object) -> None:
    path = bucket / "latest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(fields)
    path.write_text(json.dumps(data), encoding="utf-8")


def _replace_with_dir(path: Path) -> None:
    path.unlink()
    path.mkdir()


# (damage, file named in a note, words in that note, a repair daimon suggests,
#  does the briefing still show items?)
CASES: dict[str, tuple[Damage, str, str, str | None, bool]] = {
    "torn events tail": (lambda s, b: _append(b / "events.jsonl", b'{"id": "o-1", "sta'),
                         "events.jsonl", "degraded", "daimon ledger repair events", True),
    "invalid JSON line": (lambda s, b: _append(b / "events.jsonl", b"not json at all\n"),
                          "events.jsonl", "unreadable", "daimon ledger repair events", True),
    "invalid UTF-8 line": (lambda s, b: _append(b / "events.jsonl", b'{"id": "\xff\xfe"}\n'),
                           "events.jsonl", "unreadable", "daimon ledger repair events", True),
    "events rows of wrong type": (lambda s, b: _append(b / "events.jsonl", b'42\nnull\n["x"]\n'),
                                  "events.jsonl", "unreadable", "daimon ledger repair events", True),
    "events is a directory": (lambda s, b: _replace_with_dir(b / "events.jsonl"),
                              "events.jsonl", "EISDIR", "daimon status", True),
    "trust ledger garbage": (lambda s, b: _append(b / "trust.jsonl", b"<<<<<<< HEAD\n"),
                             "trust.jsonl", "unreadable", "daimon trust repair", False),
    "torn latest.json": (lambda s, b: (b / "latest.json").write_bytes((b / "latest.json").read_bytes()[:90]),
                         "latest.json", "torn", None, False),
    "empty latest.json": (lambda s, b: (b / "latest.json").write_bytes(b""), "latest.json", "empty", None, False),
    "latest.json is a directory": (lambda s, b: _replace_with_dir(b / "latest.json"),
                                   "latest.json", "directory", None, False),
    "latest.json invalid UTF-8": (lambda s, b: (b / "latest.json").write_bytes(b'{"session_id": "\xff"}'),
                                  "latest.json", "UTF-8", None, False),
    "latest.json holds a list": (lambda s, b: (b / "latest.json").write_bytes(b"[1, 2]"),
                                 "latest.json", "list", None, False),
    "open_questions is a string": (lambda s, b: _edit_latest(b, working_context={"open_questions": "x"}),
                                   "latest.json", "working_context.open_questions is a str", None, True),
    "items that are strings and nulls": (
        lambda s, b: _edit_latest(b, working_context={"open_questions": [
            "bare", None, {"text": 42, "trust": "inferred"},
            {"text": "A real open question here", "trust": "inferred"}]}),
        "latest.json", "not items", None, True),
    "text is a number": (
        lambda s, b: _edit_latest(b, working_context={"open_questions": [{"text": 42, "trust": "inferred"}]}),
        "latest.json", "text is not a string", None, True),
    "working_context is a list": (lambda s, b: _edit_latest(b, working_context=[1], epistemic_snapshot="x"),
                                  "latest.json", "working_context is a list", None, False),
    "unknown format_version": (lambda s, b: _edit_latest(b, format_version="D-999"), "", "D-999", None, True),
    "session file missing behind the pointer": (lambda s, b: (s.checkpoint_dir / "S-day3.json").unlink(),
                                                "S-day3.json", "missing", None, True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_file_is_a_named_diagnostic_and_nothing_is_rewritten(demo_store: demo.DemoStore, case: str) -> None:
    damage, named, words, repair, usable = CASES[case]
    project = reader.resolve_project(str(demo_store.project))
    bucket = demo_store.checkpoint_dir / project.slug
    damage(demo_store, bucket)
    before = tree_hashes(demo_store.root)

    briefing = reader.load_briefing(project, now=NOW)
    matching = [n for n in briefing.notes if named in n.message and words in n.message]
    assert matching, [n.message for n in briefing.notes]
    if repair:
        assert any(n.repair == repair for n in matching)
    assert bool(briefing.items()) == usable
    briefing_json(briefing)  # the headless document builds
    for item in briefing.items()[:3]:
        inspector.inspect(project, item.id or "", now=NOW)
    projects, _notes = reader.list_projects()
    assert project.slug in {p.slug for p in projects} or any(project.slug in n.message for n in _notes)

    assert tree_hashes(demo_store.root) == before  # nothing repaired, nothing rewritten


def test_a_broken_project_does_not_hide_the_others(demo_store: demo.DemoStore) -> None:
    other = demo_store.root / "other"
    other.mkdir()
    demo.seed(other, demo.session("S-other", demo.DEMO_NOW, "other project"))
    broken = reader.resolve_project(str(demo_store.project))
    (demo_store.checkpoint_dir / broken.slug / "latest.json").write_bytes(b'{"session_id": "\xff"}')
    projects, notes = reader.list_projects()
    slugs = {p.slug for p in projects}
    assert reader.resolve_project(str(other)).slug in slugs
    assert any("latest.json" in n.message for n in notes) or broken.slug in slugs


def test_inspect_never_raises_on_odd_ids(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    for odd in (None, "", "../../etc/passwd", "\x1b[2J", "x" * 10_000):
        assert inspector.inspect(project, odd, now=NOW).found is False  # type: ignore[arg-type]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_latest_is_named(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    latest = demo_store.checkpoint_dir / project.slug / "latest.json"
    latest.chmod(0)
    try:
        briefing = reader.load_briefing(project, now=NOW)
        assert any("latest.json" in n.message and "cannot be read" in n.message for n in briefing.notes)
    finally:
        latest.chmod(0o600)


def test_unreadable_file_as_root_uses_a_fifo_instead(demo_store: demo.DemoStore) -> None:
    """As root, chmod 000 does not stop a read; an unreadable-as-a-file thing
    (a FIFO, which would block a naive reader) stands in for it."""
    project = reader.resolve_project(str(demo_store.project))
    latest = demo_store.checkpoint_dir / project.slug / "latest.json"
    latest.unlink()
    os.mkfifo(latest)
    briefing = reader.load_briefing(project, now=NOW)
    assert briefing.state == "unavailable"
    assert any("latest.json" in n.message and "not a regular file" in n.message for n in briefing.notes)
    _projects, notes = reader.list_projects()  # never opens the FIFO either
    assert any(project.slug in n.message for n in notes)


async def test_the_app_header_shows_the_file(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    (demo_store.checkpoint_dir / project.slug / "latest.json").write_bytes(b'{"torn')
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        header = app.screen.query_one("#briefing-header").render()
        assert "latest.json is torn" in str(header)
