"""The briefing screen says what the agent will be told: the handoff first,
daimon's headings and order, the rows daimon leaves out, daimon's own lines."""

from __future__ import annotations

from textual.widgets import Input, Static

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.row_list import RowList
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def rows(screen: BriefingScreen) -> list[str]:
    return [e.prompt.plain for e in screen.query_one("#items", RowList).entries]


async def test_handoff_headings_split_and_daimon_lines(budget_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(budget_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and not screen.provisional
        header = str(screen.query_one("#briefing-header", Static).render())
        assert header.startswith("HANDOFF (left deliberately by previous session, ")
        assert "→ Run the retry tests first\n→ then ship behind the flag" in header
        assert "§ Never retry non-idempotent uploads" in header
        listed = rows(screen)
        loops = screen.briefing.sections[1]
        assert loops.key == "open_loops"
        briefed = loops.briefed_count()
        assert briefed is not None and 0 < briefed < 16
        assert f"Open loops ({briefed} of 16 briefed)" in listed
        assert listed.index("Active topic: Budgeted topic") < next(
            n for n, r in enumerate(listed) if r.startswith("Contradictions flagged"))
        left_out = [r for r in listed if r.startswith("· ")]
        assert len(left_out) == 16 - briefed
        await pilot.press("d")
        await settle(pilot)
        as_daimon = rows(screen)
        item = next(i for i in loops.items if i.briefed)
        assert f"  {item.briefed_line}" in as_daimon
        await pilot.press("d")
        await settle(pilot)
        assert rows(screen) == listed


async def test_briefed_facet_filters_the_rows_daimon_leaves_out(budget_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(budget_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("slash")
        screen.query_one("#filter", Input).value = "briefed:no"
        await pilot.press("enter")  # applies the filter now (typing is debounced)
        await settle(pilot)
        assert screen.rows and all(r.item is not None and r.item.briefed is False for r in screen.rows)
        assert len(screen.rows) == sum(1 for i in screen.briefing.items() if i.briefed is False)


async def test_a_retained_sessions_receipt_warning_names_that_checkpoint(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.history.screen import SessionScreen
    from tests.daimon_records import project_ref

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(SessionScreen(project_ref(demo_store), "S-day2", now=NOW))  # S-day2 is tampered
        await settle(pilot)
        header = str(app.screen.query_one("#briefing-header", Static).render())
        assert "RECEIPT UNVERIFIED: this checkpoint no longer matches" in header
        assert "latest checkpoint" not in header


async def test_daimons_recorded_world_verdict_shows_on_the_row(budget_store: demo.DemoStore) -> None:
    from daimon_briefing import store

    from tests.daimon_records import LOOPS, item_ids

    ref = item_ids(budget_store.project)[LOOPS[0]]
    assert store.append_verification(ref, "pr-state", "claim-contradicted", project_dir=str(budget_store.project),
                                     claim_key="b" * 64)
    app = DaimonTUI(project_path=str(budget_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        row = next(r for r in rows(app.screen) if LOOPS[0] in r)
        assert "[✗ daimon recorded: world contradicts]" in row and "[✗ world contradicts]" not in row
