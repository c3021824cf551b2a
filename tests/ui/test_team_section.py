"""The teammates' section of the briefing (`t`) on a real two-home team store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from daimon_briefing import trust
from daimon_briefing.cli import main as daimon_main
from textual.widgets import Input

from daimon_tui.domain.team import TEAMMATE_RELEASE_REFUSAL
from daimon_tui.store.read import reader
from daimon_tui.store.read.team import load_team
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, RetractModal
from daimon_tui.ui.widgets.item_detail import ItemDetail
from tests.store.test_team import _teammate_blocks
from tests.team_store import BOB_VERBATIM, SHARED_DECISION, TeamStore, reader_syncs, teammate_pushes
from tests.ui.settle import settle, wait_until


async def _open(pilot, app: DaimonTUI) -> BriefingScreen:
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, BriefingScreen)
    await pilot.press("t")
    await settle(pilot, rounds=5)
    assert screen.team is not None
    return screen


async def _cursor_to(pilot, screen: BriefingScreen, want) -> None:
    for _ in range(len(screen.rows) + 1):
        row = screen.current_row()
        if row is not None and want(row):
            await settle(pilot)
            return
        await pilot.press("j")
    raise AssertionError("no such row")


def _team_rows(screen: BriefingScreen) -> list:
    return [r.team for r in screen.rows if r.team is not None]


def _logged(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def test_t_shows_the_teammates_as_daimon_brief_team(
    team_store: TeamStore, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert daimon_main(["brief", "--team"]) == 0
    blocks = _teammate_blocks(capsys.readouterr().out)
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        shown = [r.entry for r in _team_rows(screen) if r.entry is not None]
        daimon_lines = [line for line in blocks[0] if line.startswith("- ")]
        assert [e.item.line for e in shown] == daimon_lines
        assert [r.mate.author for r in _team_rows(screen) if r.mate] == ["bob"] * len(daimon_lines)
        # The shared claim: once in the section, with both authors and the plain statement.
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.entry and r.team.entry.item.text == SHARED_DECISION)
        pane = screen.query_one(ItemDetail).plain(width=140)
        assert "stated by alice (you), bob" in pane
        assert "does not count the same claim from several authors as corroboration" in pane
        assert "refuses a teammate's" in pane  # no `why` is asked for a teammate's id
        await pilot.press("t")
        await settle(pilot)
        assert _team_rows(screen) == []


async def test_verbs_daimon_refuses_on_a_teammates_item_are_refused_and_logged(
    team_store: TeamStore, private_action_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = reader.resolve_project(str(team_store.project))
    bob_only = next(e for e in load_team(project).items() if e.item.text == BOB_VERBATIM)
    # daimon itself: `why` on a teammate's id finds nothing of the reader's.
    assert daimon_main(["why", bob_only.item.id or ""]) != 0
    capsys.readouterr()
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.entry and r.team.entry.item.text == BOB_VERBATIM)
        for key in ("r", "F"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, BriefingScreen)  # no modal: nothing to confirm
        messages = [n.message for n in app._notifications]
        assert any("refuses a teammate's" in m and m.startswith("resolve") for m in messages)
        assert any(m.startswith("forget") for m in messages)
        # u on a quarantine a teammate published: never released from here.
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.quarantine is not None)
        await pilot.press("u")
        await settle(pilot)
        assert TEAMMATE_RELEASE_REFUSAL in [n.message for n in app._notifications]
    logged = _logged(private_action_log)
    assert [(e["verb"], e["outcome"], e["reason"]) for e in logged] == [
        ("resolve", "refused", "teammate-item"), ("forget", "refused", "teammate-item"),
        ("restore", "refused", "teammate-quarantine"),
    ]
    assert BOB_VERBATIM not in private_action_log.read_text()
    # Nothing was written to daimon's trust ledger by the refusals.
    assert [q.quarantine_id for q in load_team(project).own_quarantines] == [team_store.alice_quarantine]


async def test_retract_a_teammates_value_says_it_will_be_published_then_withholds_it(
    team_store: TeamStore, private_action_log: Path
) -> None:
    project = reader.resolve_project(str(team_store.project))
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.entry and r.team.entry.item.text == BOB_VERBATIM)
        item_id = screen.current_row().team.entry.item.id  # type: ignore[union-attr]
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, RetractModal)
        app.screen.query_one("#retract-reason", Input).value = "three is not what we agreed"
        app.screen.query_one("#retract-evidence", Input).value = "issue:12"
        app.screen.query_one("#retract-evidence", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        effects = " ".join(app.screen.plan.effects)
        assert f"will be published to your clone of {team_store.remote_slug}" in effects
        await pilot.press("y")
        await settle(pilot, rounds=8)
        assert BOB_VERBATIM not in [r.entry.item.text for r in _team_rows(screen) if r.entry]
    team = load_team(project)
    mine = {q.quarantine_id: q for q in team.own_quarantines}
    made = trust.make_id("decision", project.slug, trust.value_key(BOB_VERBATIM))
    assert mine[made].published_to == (team_store.remote_slug,)
    assert BOB_VERBATIM not in [e.item.text for e in team.items()]
    logged = _logged(private_action_log)
    assert [(e["verb"], e["outcome"], e["item_ids"]) for e in logged] == [("retract", "applied", [item_id])]
    assert BOB_VERBATIM not in private_action_log.read_text()


def test_team_section_snapshot(snap_compare, team_store: TeamStore) -> None:
    from daimon_tui.store.demo.builder import DEMO_NOW

    app = DaimonTUI(project_path=str(team_store.project), now=DEMO_NOW.timestamp())

    async def run_before(pilot) -> None:
        await settle(pilot)
        for key in ("t", "j", "j"):  # the section, then the shared claim
            await pilot.press(key)
            await settle(pilot, rounds=4)

    assert snap_compare(app, terminal_size=(150, 45), run_before=run_before)


@pytest.mark.parametrize(("when", "expect_bob"), [("2026-12-01T20:00:00Z", False), ("2026-12-02T09:00:00Z", True)])
async def test_as_of_the_section_shows_the_team_as_it_had_arrived(
    team_store: TeamStore, when: str, expect_bob: bool
) -> None:
    from daimon_tui.ui.history.screen import HistoricalScreen

    project = reader.resolve_project(str(team_store.project))
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        screen = HistoricalScreen(project, when)
        app.push_screen(screen)
        await settle(pilot, rounds=4)
        await pilot.press("t")
        await settle(pilot, rounds=4)
        assert screen.team is not None and screen.show_team
        assert bool([r for r in _team_rows(screen) if r.mate]) is expect_bob
        assert "what had reached this machine's team clone" in screen.team.notes[0].message


async def test_a_retained_session_shows_the_team_as_it_had_arrived_then(team_store: TeamStore) -> None:
    from daimon_tui.ui.history.screen import SessionScreen

    project = reader.resolve_project(str(team_store.project))
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        await settle(pilot)
        screen = SessionScreen(project, "S-alice-1")
        app.push_screen(screen)
        await settle(pilot, rounds=4)
        await pilot.press("t")
        await settle(pilot, rounds=4)
        assert screen.show_team and screen.team is not None
        assert "(S-alice-1): what had reached this machine" in screen.team.notes[0].message


CAROL_DECISION = "Serve the importer's status page from the cache"


async def test_a_sync_in_another_terminal_shows_in_the_section_without_a_key(team_store: TeamStore) -> None:
    teammate_pushes(team_store, "carol", CAROL_DECISION)  # on the remote, not yet in alice's copy
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        assert "carol" not in [r.mate.author for r in _team_rows(screen) if r.mate]
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.entry and r.team.entry.item.text == BOB_VERBATIM)
        await pilot.pause(0.3)  # the watch is set up
        reader_syncs()
        await wait_until(pilot, lambda: CAROL_DECISION in [r.entry.item.text for r in _team_rows(screen) if r.entry],
                         timeout=5, what="carol's decision in the section")
        mate = next(r.mate for r in _team_rows(screen) if r.mate and r.mate.author == "carol")
        assert mate.arrived is not None
        # The cursor stays where the person was, as it does for the briefing's own live changes.
        row = screen.current_row()
        assert row is not None and row.team is not None and row.team.entry is not None
        assert row.team.entry.item.text == BOB_VERBATIM


async def test_d_prints_the_teammates_rows_as_daimon_brief_team_does(
    team_store: TeamStore, capsys: pytest.CaptureFixture[str]
) -> None:
    from daimon_tui.ui.widgets.row_list import RowList

    capsys.readouterr()
    assert daimon_main(["brief", "--team"]) == 0
    daimon_lines = [line for line in _teammate_blocks(capsys.readouterr().out)[0] if line.startswith("- ")]
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("d")
        await settle(pilot)
        entries = screen.query_one("#items", RowList).entries
        team_keys = {n for n, r in enumerate(screen.rows) if r.team is not None and r.team.entry is not None}
        shown = [e.prompt.plain.strip() for e in entries if e.key in team_keys]
        # daimon's exact line leads each row; who else states it follows.
        assert all(row.startswith(line) for row, line in zip(shown, daimon_lines, strict=True)), shown


async def test_u_on_your_own_quarantine_in_the_section_offers_the_restore(
    team_store: TeamStore, private_action_log: Path
) -> None:
    project = reader.resolve_project(str(team_store.project))
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.own
                         and r.team.own.quarantine_id == team_store.alice_quarantine)
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        assert [w.op for w in app.screen.plan.writes] == ["release"]
        await pilot.press("y")
        await settle(pilot, rounds=8)
        assert trust.get(team_store.alice_quarantine, project_dir=str(team_store.project))["state"] == "released"
        assert team_store.alice_quarantine not in [q.quarantine_id for q in load_team(project).own_quarantines]
        await pilot.press("z")  # undo: the same flow as on the withheld row
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        await pilot.press("y")
        await settle(pilot, rounds=8)
    assert [(e["verb"], e["outcome"]) for e in _logged(private_action_log)] == [  # write-ahead, then the outcome
        ("restore", "intent"), ("restore", "applied"), ("undo", "intent"), ("undo", "applied")]
    assert trust.get(team_store.alice_quarantine, project_dir=str(team_store.project))["state"] == "active"


async def test_u_on_your_quarantine_with_no_item_here_says_why(team_store: TeamStore, private_action_log: Path) -> None:
    from daimon_tui.ui.widgets.team_section import OWN_QUARANTINE_UNLISTED

    made = trust.propose(text="A value no checkpoint holds", kind="decision", reason="a test",
                         evidence=["artifact:runbook"], channel="ui", project_dir=str(team_store.project))
    app = DaimonTUI(project_path=str(team_store.project))
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await _open(pilot, app)
        await _cursor_to(pilot, screen, lambda r: r.team and r.team.own and r.team.own.quarantine_id == str(made))
        await pilot.press("u")
        await settle(pilot)
        assert app.screen is screen
        assert OWN_QUARANTINE_UNLISTED in [n.message for n in app._notifications]
    assert trust.get(str(made), project_dir=str(team_store.project))["state"] == "active"
