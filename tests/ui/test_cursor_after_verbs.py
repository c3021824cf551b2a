"""Where the cursor lands after a verb, as the app does it today (issue 39: no test
asserted it, so a move of the list's state could change it unnoticed). If a redesign
means to land elsewhere (e.g. on the next row after a resolve), change these on purpose."""

from __future__ import annotations

from textual.widgets import Input

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ResolveModal, RetractModal
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def row_ids(screen: BriefingScreen) -> list[str | None]:
    return [r.item.id if r.item else r.withheld.id if r.withheld else None for r in screen.rows]


def cursor(screen: BriefingScreen) -> tuple[int, str | None]:
    """The cursor's row index and the id of the item on it."""
    row = screen.current_row()
    assert row is not None
    item_id = row.item.id if row.item else row.withheld.id if row.withheld else None
    return row_ids(screen).index(item_id), item_id


async def _resolve(pilot, app: DaimonTUI) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, ResolveModal)
    await pilot.press("enter")  # daimon's default status
    await settle(pilot)
    assert isinstance(app.screen, PlanPreviewModal)
    await pilot.press("y")
    await settle(pilot, rounds=8)


async def _undo(pilot, app: DaimonTUI) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("z")
    await settle(pilot)
    assert isinstance(app.screen, PlanPreviewModal)
    await pilot.press("y")
    await settle(pilot, rounds=8)


async def test_after_a_resolve_the_cursor_is_on_the_first_row_and_after_undo_it_stays_on_its_item(
    demo_store: demo.DemoStore,
) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("j", "j")
        await settle(pilot)
        before = row_ids(screen)
        at, resolved = cursor(screen)
        assert at == 2
        await _resolve(pilot, app)
        assert isinstance(app.screen, BriefingScreen)
        # The resolved row leaves the list and the cursor goes to the top, not to the next row.
        assert row_ids(screen) == [i for i in before if i != resolved]
        assert cursor(screen) == (0, before[0])
        await pilot.press("j", "j")
        await settle(pilot)
        on = cursor(screen)
        assert on == (2, before[3])
        await _undo(pilot, app)
        await wait_until(pilot, lambda: resolved in row_ids(screen), what="the undone item back in the list")
        await settle(pilot)
        # The reopened item is back in its place; the cursor stays on its item, one row down.
        assert row_ids(screen) == before
        assert cursor(screen) == (3, before[3])


async def test_with_withheld_shown_the_cursor_follows_a_resolved_item_into_withheld(
    demo_store: demo.DemoStore,
) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        before = row_ids(screen)
        _, resolved = cursor(screen)
        await _resolve(pilot, app)
        ids = row_ids(screen)
        assert resolved in ids and ids.index(resolved) > before.index(resolved)  # now under "Withheld"
        assert screen.briefing is not None and resolved in {i.id for i in screen.briefing.resolved}
        assert cursor(screen) == (ids.index(resolved), resolved)


async def test_after_a_retract_the_cursor_is_on_the_first_row(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.briefing is not None
        await pilot.press("j", "j", "j")
        await settle(pilot)
        before = row_ids(screen)
        at, retracted = cursor(screen)
        assert at == 3
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, RetractModal)
        app.screen.query_one("#retract-reason", Input).value = "it was never right"
        app.screen.query_one("#retract-evidence", Input).value = "issue:42"
        app.screen.query_one("#retract-evidence", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        await pilot.press("y")
        await wait_until(pilot, lambda: any(w.id == retracted for w in screen.briefing.withheld), timeout=60,
                         what="the briefing re-read after the retraction")
        await settle(pilot)
        assert row_ids(screen) == [i for i in before if i != retracted]
        assert cursor(screen) == (0, before[0])
