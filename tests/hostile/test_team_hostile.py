"""A teammate's memory is text another machine wrote: shown inert, and a broken
team copy is a note, never a crash."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from daimon_tui.domain import filtering
from daimon_tui.headless.team import run_brief_team, team_json
from daimon_tui.store.read import reader
from daimon_tui.store.read.team import load_team
from daimon_tui.ui.widgets.team_section import team_rows
from tests.team_store import TeamStore
from tests.team_store import team_store as build_team_store

from .conftest import MARKUP, PAYLOADS, hostile_text, unsafe_chars


@pytest.fixture
def hostile_team(sandbox_root: Path) -> Iterator[TeamStore]:
    extra = tuple({"text": f"Decision {hostile_text(name)}", "trust": "verbatim", "quote": f"q {payload} {MARKUP}",
                   "quote_verified": True} for name, payload in PAYLOADS.items())
    with build_team_store(sandbox_root, bob_extra=extra, bob_topic=f"topic {PAYLOADS['osc52']} {MARKUP}") as store:
        yield store


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_a_teammates_hostile_text_is_inert_everywhere(hostile_team: TeamStore) -> None:
    project = reader.resolve_project(str(hostile_team.project))
    team = load_team(project)
    raw = " ".join(e.item.text for e in team.items())
    assert unsafe_chars(raw), "the store must hold the payloads raw"
    for value in _strings(team_json(team)):
        assert not unsafe_chars(value), value
    out = io.StringIO()
    run_brief_team(reader.load_briefing(project), project, as_json=False, out=out)
    assert not unsafe_chars(out.getvalue())
    assert MARKUP in out.getvalue()  # markup stays literal text
    console = Console(file=io.StringIO(), width=200, color_system=None, record=True)
    for text, _row in team_rows(team, filtering.read("").terms, set()):
        console.print(text)
    screen = console.export_text()
    assert not unsafe_chars(screen) and MARKUP in screen


def test_a_broken_team_copy_is_a_note_not_a_crash(team_store: TeamStore) -> None:
    clone = next(p for p in (team_store.root / "alice" / "team").iterdir() if (p / ".git").exists())
    bob = next(p for p in clone.rglob("authors/bob") if p.is_dir())
    (bob / "quarantines.jsonl").write_bytes(b'{"torn": \n\x00\xff garbage')
    (bob / "S-bob-2.json").write_text('{"session_id": "S-bob-2", "working_con', encoding="utf-8")
    project = reader.resolve_project(str(team_store.project))
    team = load_team(project)
    # daimon does not admit an author whose published ledger cannot be proven, and says so.
    assert team.notes and not team.teammates
    out = io.StringIO()
    assert run_brief_team(reader.load_briefing(project), project, as_json=True, out=out) == 0
    assert json.loads(out.getvalue())["team"]["notes"]
