"""While daimon's first confirmation runs, the item at rest is answered from
its own rows, says "provisional", and the confirmed answer replaces it."""

from __future__ import annotations

import asyncio

import pytest

from daimon_tui.store.child import first_paint
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.item_detail import PROVISIONAL_NOTE, ItemDetail
from tests.ui.held import hold_confirmation
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


async def test_a_held_provisional_answer_never_paints_over_the_row_the_cursor_moved_to(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The provisional twin of the confirmed path's test (test_everyday_second_pass):
    the first row's provisional read is held while the cursor moves to a row whose
    answer is already known (so no new lookup cancels the held one); released, it is
    kept but never painted over that row. (Mutation checked: with `if True` for
    `if host.current_item() is item` after the read in `DetailPane.inspect_provisionally`,
    the first row's text is painted and this test fails.)"""
    import threading

    from daimon_tui.store.read import provisional_details

    release_confirm = hold_confirmation(monkeypatch)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and bool(app.screen.rows),
                         what="first paint")
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.provisional
        first = screen.current_item()
        assert first is not None and first.id
        await pilot.press("j")
        second = screen.current_item()
        assert second is not None and second is not first and second.id
        assert first.text[:40] != second.text[:40]
        await wait_until(pilot, lambda: second.id in screen.provisional_details, what="the second row's answer")
        # The second row's answer is known, so coming back to it starts no lookup.
        screen.details[second.id] = screen.provisional_details[second.id]
        real = provisional_details.read_provisional
        release = threading.Event()  # the read runs in a thread
        held: list[str] = []

        def slow_read(project, item_id, now=None):  # type: ignore[no-untyped-def]
            if item_id == first.id:
                held.append(item_id)
                release.wait(10)
            return real(project, item_id, now)

        monkeypatch.setattr(provisional_details, "read_provisional", slow_read)
        detail = screen.query_one(ItemDetail)
        await pilot.press("k")  # the first row's provisional lookup starts and is held
        await wait_until(pilot, lambda: bool(held), what="the first row's lookup is held")
        await pilot.press("j")
        await wait_until(pilot, lambda: second.text[:40] in detail.plain(140), what="the second row painted")
        assert screen.current_item() is second and screen.provisional
        release.set()
        await wait_until(pilot, lambda: first.id in screen.provisional_details, what="the held answer arrived")
        await pilot.pause(0.1)
        assert screen.provisional and screen.current_item() is second
        assert second.text[:40] in detail.plain(140)
        assert first.text[:40] not in detail.plain(140)
        release_confirm.set()
