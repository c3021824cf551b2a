"""No exception from a read ends the app: a Pilot walk of every view over a
store whose files hold fields of the wrong JSON type (the issue's cases, then
fields drawn by Hypothesis), and hostile text typed into the as-of box."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.widgets.item_detail import ItemDetail

from .conftest import NOW
from .test_wrong_types_named import CASES, damage
from .wrong_types import HOSTILE_AS_OF, sweep, sweep_store, walk

SIZE = (140, 40)


async def _tour(project: Path, *, as_of: tuple[str, ...] = ("S-day1",)) -> list[str]:
    app = DaimonTUI(project_path=str(project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        seen = await walk(app, pilot, as_of=as_of)
        assert app.is_running
    return seen


EVERY_VIEW = ("BriefingScreen", "ItemScreen", "HistoryScreen", "QueueScreen", "AuditScreen", "LogScreen",
              "SearchScreen")


@pytest.mark.timeout(600)
def test_the_app_survives_every_view_with_all_five(demo_store: demo.DemoStore) -> None:
    """The issue's five cases in one checkpoint (one tour in the default run)."""
    for edit, _field in CASES.values():
        damage(demo_store, edit)
    seen = asyncio.run(_tour(demo_store.project))
    assert all(screen in seen for screen in EVERY_VIEW), seen


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_app_survives_every_view(demo_store: demo.DemoStore, case: str) -> None:
    damage(demo_store, CASES[case][0])
    seen = asyncio.run(_tour(demo_store.project))
    assert all(screen in seen for screen in EVERY_VIEW), seen


@pytest.mark.timeout(600)
def test_hostile_text_in_the_as_of_box_is_refused_inert(demo_store: demo.DemoStore) -> None:
    async def run() -> None:
        from daimon_tui.ui.history.screen import AsOfPicker, HistoryScreen
        from tests.ui.settle import settle

        app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            assert isinstance(app.screen, HistoryScreen)
            for text in HOSTILE_AS_OF:
                await pilot.press("@")
                await settle(pilot)
                picker = app.screen
                assert isinstance(picker, AsOfPicker)
                picker.query_one("#as-of-input").value = text  # type: ignore[attr-defined]
                await pilot.press("enter")
                await settle(pilot)
                assert app.is_running and app.screen is picker, text  # refused in the box
                shown = str(picker.query_one("#as-of-error", Static).render())
                assert "\x1b" not in shown and "\u202e" not in shown and "\x00" not in shown
                assert "is not" in shown or "outside" in shown
                await pilot.press("escape")
                await settle(pilot)

    asyncio.run(run())


@pytest.mark.timeout(600)
def test_a_read_that_raises_is_a_message_in_its_pane(demo_store: demo.DemoStore,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The boundary itself: whatever a read raises (here, the detail pane's
    read in the judging child and in the app), the app keeps running and the
    pane that asked names the project's files."""
    from daimon_tui.store.child import judge_service
    from daimon_tui.store.read import provisional_details

    real = judge_service.read

    async def broken(what: str, *args: Any) -> Any:
        if what == "details":
            raise RuntimeError("a read nobody expected to fail")
        return await real(what, *args)

    def broken_provisional(*_args: Any) -> Any:
        raise RuntimeError("a read nobody expected to fail")

    monkeypatch.setattr(judge_service, "read", broken)
    monkeypatch.setattr(provisional_details, "read_provisional", broken_provisional)

    async def run() -> None:
        from tests.ui.settle import settle

        app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("j", "k")
            await pilot.pause(0.3)
            await settle(pilot)
            assert app.is_running
            pane = app.screen.query_one(ItemDetail).plain(width=400)
            assert "a read nobody expected to fail" in pane and "checkpoints" in pane, pane

    asyncio.run(run())


def _app_sweep(root: Path, examples: int) -> None:
    with sweep_store(root) as (store, fields):
        sweep(fields, store.checkpoint_dir, examples, lambda: asyncio.run(_tour(store.project)))


@pytest.mark.timeout(600)
def test_the_app_survives_damaged_fields(sandbox_root: Path) -> None:
    _app_sweep(sandbox_root, 1)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_the_app_survives_damaged_fields_long(sandbox_root: Path) -> None:
    _app_sweep(sandbox_root, 5)
