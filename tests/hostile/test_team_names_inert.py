"""Issue 24, point 9 (read side): a teammate's author name, their checkpoint's
`created` and the team remote's URL are text another machine chose. Terminal
escapes, bidi overrides and markup in them are shown inert everywhere they
appear: the team section and its detail pane, search hits, and the headless
`brief --team` and `search` output (plain and JSON)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from daimon_tui.cli import main
from daimon_tui.domain import filtering
from daimon_tui.headless.search import result_json, write_plain
from daimon_tui.headless.team import run_brief_team, team_json
from daimon_tui.store.read import reader, search
from daimon_tui.store.read.team import load_team
from daimon_tui.ui.widgets.team_section import team_detail, team_rows
from tests.team_store import TeamStore
from tests.team_store import team_store as build_team_store

from .conftest import PAYLOADS, unsafe_chars

HOSTILE = f"{PAYLOADS['csi']}{PAYLOADS['osc8']}{PAYLOADS['bidi']}[bold]m[/bold]"


@pytest.fixture
def hostile_names(sandbox_root: Path) -> Iterator[TeamStore]:
    with build_team_store(sandbox_root, bob=f"bob{HOSTILE}", remote_name=f"remote{PAYLOADS['csi']}\u202e.git",
                          bob_created=f"2026-12-01{HOSTILE}") as store:
        yield store


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


def _printed(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=300, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def test_hostile_names_are_inert_in_every_team_surface(hostile_names: TeamStore) -> None:
    project = reader.resolve_project(str(hostile_names.project))
    team = load_team(project)
    raw = " ".join(m.author + (m.created or "") for m in team.teammates)
    assert unsafe_chars(raw), "the store must hold the names raw"
    for value in _strings(team_json(team)):
        assert not unsafe_chars(value), value
    out = io.StringIO()
    run_brief_team(reader.load_briefing(project), project, as_json=False, out=out)
    assert not unsafe_chars(out.getvalue()), out.getvalue()
    assert "[bold]m[/bold]" in out.getvalue()  # markup stays literal text
    lines = team_rows(team, filtering.read("").terms, set())
    for text, row in lines:
        shown = _printed(text)
        assert not unsafe_chars(shown), shown
        if row is not None:
            detail = _printed(team_detail(row, team))
            assert not unsafe_chars(detail), detail


def test_hostile_names_are_inert_in_search(hostile_names: TeamStore, capsys: pytest.CaptureFixture[str]) -> None:
    project = reader.resolve_project(str(hostile_names.project))
    result = search.search(project, "importer retries")
    assert any(hit.author and unsafe_chars(hit.author) for hit in result.hits), "a teammate's hit, name raw"
    for value in _strings(result_json(result)):
        assert not unsafe_chars(value), value
    out = io.StringIO()
    write_plain(result, out)
    assert not unsafe_chars(out.getvalue())
    for argv in (["search", "importer retries", "--json", "--project", str(hostile_names.project)],
                 ["brief", "--team", "--project", str(hostile_names.project)],
                 ["brief", "--team", "--json", "--project", str(hostile_names.project)]):
        main(argv)
        printed = capsys.readouterr().out
        assert not unsafe_chars(printed), argv
        if "--json" in argv:
            json.loads(printed)


@pytest.mark.timeout(600)
def test_hostile_names_are_inert_in_the_app(hostile_names: TeamStore) -> None:
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.search.screen import SearchScreen
    from daimon_tui.ui.widgets.item_detail import ItemDetail
    from tests.ui.settle import settle

    async def run() -> None:
        app = DaimonTUI(project_path=str(hostile_names.project))
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(pilot)
            await pilot.press("t")
            await settle(pilot)
            panes = []
            for _ in range(30):  # every row, the teammates' included
                await pilot.press("j")
                await pilot.pause(0.12)
                await settle(pilot, rounds=1)
                panes.append(app.screen.query_one(ItemDetail).plain(width=200))
            assert any("bob" in pane for pane in panes)
            for pane in panes:
                assert not unsafe_chars(pane), pane
            screen_text = app.export_screenshot()
            assert "\x1b[31m" not in screen_text and "\u202e" not in screen_text
            await pilot.press("6")
            await settle(pilot)
            assert isinstance(app.screen, SearchScreen)
            await pilot.press(*"importer retries")
            await settle(pilot)
            await pilot.press("tab")
            await settle(pilot)
            shown = app.screen.query_one(ItemDetail).plain(width=200) if app.screen.query(ItemDetail) else ""
            assert not unsafe_chars(shown), shown
            assert app.is_running

    asyncio.run(run())
