"""Terminal sizes: usable at 80x24, readable at 60x20, roomy at 200x60; no
modal cut off."""

from __future__ import annotations

import pytest
from textual.widgets import Label

from daimon_tui.domain import verbs
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.verb_modals import ForgetConfirmModal, PlanPreviewModal
from tests.ui.settle import settle
from tests.ui.test_verb_modals import OK, Host, facts

NOW = demo.DEMO_NOW.timestamp()


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_briefing_at_size(snap_compare, demo_store: demo.DemoStore, size: tuple[int, int]) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run_before(pilot) -> None:
        # The first item: the demo's witness rows carry wall-clock event times.
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def batch_plan() -> verbs.Plan:
    items = [facts(f"o-{n:012x}", text=f"item number {n} " * 6) for n in range(14)]
    return verbs.plan_resolve("demo", items, OK, verbs.ResolveInput(status="done", note="n"))


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_batch_preview_keeps_its_confirm_line(size: tuple[int, int]) -> None:
    app = Host(lambda: PlanPreviewModal(batch_plan()))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        hint = app.screen.query_one("#verb-hint", Label)
        assert "y confirm" in str(hint.render())
        assert hint.region.height >= 1 and hint.region.bottom <= size[1]
        assert hint.region.y >= 0 and hint.region in app.screen.region


async def test_forget_modal_shows_the_id_whole_at_60_columns() -> None:
    item_id = "o-eab53c8845ea-with-a-long-suffix"
    app = Host(lambda: ForgetConfirmModal(item_id))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        label = app.screen.query_one("#verb-items", Label)
        assert item_id in str(label.render())
        assert label.region.width >= len(item_id) or label.region.height > 1
        assert app.screen.query_one("#verb-hint", Label).region.bottom <= 20


def test_batch_preview_snapshot_80x24(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(batch_plan())), terminal_size=(80, 24))


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 30)])
async def test_resolve_statuses_are_never_cut(size: tuple[int, int]) -> None:
    from textual.widgets import RadioButton

    from daimon_tui.ui.screens.verb_modals import ResolveModal

    app = Host(lambda: ResolveModal(("o-1",), status="merged"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        dialog = app.screen.query_one("#verb-dialog").region
        for button in app.screen.query(RadioButton):
            # The button's glyph (3 cells), a space and the whole word.
            assert button.region.width >= len(str(button.label)) + 4, button.label
            assert button.region in dialog
