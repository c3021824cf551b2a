"""While daimon's first confirmation runs, the item at rest is answered from
its own rows, says "provisional", and the confirmed answer replaces it."""

from __future__ import annotations

import asyncio

import pytest

from daimon_tui.store.child import first_paint
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.screens.briefing import BriefingScreen
from daimon_tui.ui.widgets.item_detail import PROVISIONAL_NOTE, ItemDetail
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


async def test_the_item_at_rest_is_answered_while_the_first_confirmation_runs(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = asyncio.Event()
    confirm = first_paint.confirm_async

    async def slow_confirm(project, now=None, **kw):  # the judging child busy with the first fold
        await release.wait()
        return await confirm(project, now, **kw)

    monkeypatch.setattr(first_paint, "confirm_async", slow_confirm)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and bool(app.screen.rows),
                         what="first paint")
        screen = app.screen
        await pilot.press("j", "j", "j")
        item = screen.current_item()
        await wait_until(pilot, lambda: item.id in screen.provisional_details, what="provisional details")
        assert screen.provisional and item.id not in screen.details
        shown = screen.query_one(ItemDetail).plain(140)
        assert PROVISIONAL_NOTE in shown and "reading…" not in shown
        assert "trust inspector (daimon why)" in shown and "witness" in shown
        provisional = screen.provisional_details[item.id]

        release.set()
        await settle(pilot)
        await wait_until(pilot, lambda: item.id in screen.details, what="confirmed details")
        await settle(pilot)
        assert screen.current_item().id == item.id and not screen.provisional
        # the confirmed answer is the provisional one, and the pane no longer says provisional
        assert screen.details[item.id] == provisional and not screen.provisional_details
        shown = screen.query_one(ItemDetail).plain(140)
        assert PROVISIONAL_NOTE not in shown and "trust inspector (daimon why)" in shown
