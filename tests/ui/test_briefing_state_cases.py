"""Issue 39's three state cases: the detail pane shows only the row under the
cursor (a filter to nothing while a read runs, an item forgotten from outside),
and a retract under a filter keeps the row reachable (`h`, then `u`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from daimon_tui.ui.widgets.evidence import EvidencePanel
from daimon_tui.ui.widgets.item_detail import ItemDetail
from tests.daimon_cli import daimon
from tests.transcript_store import transcript_store
from tests.ui.settle import press_until, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)
RETRY = "Should uploads retry on HTTP 429 with exponential backoff?"
QUOTED_TURN = "Retry on 429 with exponential backoff, as agreed."
CEILING = "Use a 30 second ceiling for upload retries"


@pytest.fixture
def store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root) as st:
        yield st


def evidence_shown(screen: BriefingScreen) -> str:
    detail = ItemDetail()
    detail.shown = screen.query_one(EvidencePanel).content  # type: ignore[assignment]
    return detail.plain(120)


def pane_shown(screen: BriefingScreen) -> str:
    return screen.query_one(ItemDetail).plain(120) + evidence_shown(screen)


async def opened(app: DaimonTUI, pilot) -> BriefingScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and app.screen.briefing is not None
                     and not app.screen.provisional and app.screen.current_item() is not None,
                     timeout=60, what="daimon's confirmed briefing")
    assert isinstance(app.screen, BriefingScreen)
    return app.screen


async def test_a_filter_to_nothing_during_a_read_clears_the_pane_and_keeps_it_clear(
        store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    released = asyncio.Event()
    asked: list[str] = []
    read = judge_service.read

    async def slow_read(kind: str, *args, **kwargs):  # the transcript read still running
        if kind == "evidence":
            asked.append(args[1])
            await released.wait()
        return await read(kind, *args, **kwargs)

    monkeypatch.setattr(judge_service, "read", slow_read)
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        await press_until(pilot, "j", lambda: getattr(screen.current_item(), "text", None) == RETRY)
        item = screen.current_item()
        await wait_until(pilot, lambda: item.id in asked, what="the transcript read started")
        await pilot.press("slash", *"zzzz-matches-nothing", "enter")
        await wait_until(pilot, lambda: not screen.rows, what="the filter matched nothing")
        await pilot.pause(0.3)
        assert "No item under the cursor." in pane_shown(screen)
        released.set()
        await settle(pilot)
        await pilot.pause(0.3)
        shown = pane_shown(screen)
        assert "No item under the cursor." in shown
        assert QUOTED_TURN not in shown and "▶" not in shown and RETRY not in shown


@pytest.mark.parametrize("query", ["", "exponential"], ids=["whole-list", "filtered-to-it"])
async def test_an_item_forgotten_from_outside_leaves_the_pane(store: demo.DemoStore, query: str) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        if query:  # the person found it with the filter
            await pilot.press("slash", *query, "enter")
            await wait_until(pilot, lambda: [r.item.text for r in screen.rows if r.item] == [RETRY],
                             what="the filter kept the item")
        await press_until(pilot, "j", lambda: getattr(screen.current_item(), "text", None) == RETRY)
        gone = screen.current_item().id
        await wait_until(pilot, lambda: QUOTED_TURN in evidence_shown(screen), timeout=30, what="the excerpt")
        assert daimon("forget", gone, "--reason", "elsewhere", "--project", str(store.project)) == 0
        await wait_until(pilot, lambda: gone not in {r.item.id for r in screen.rows if r.item}
                         and not screen.provisional, timeout=60, what="the row left, confirmed")
        await settle(pilot)
        await pilot.pause(0.5)
        shown = pane_shown(screen)
        assert QUOTED_TURN not in shown and RETRY not in shown, shown
        under = screen.current_row()
        assert under is None or under.item is None or under.item.id != gone


def _told_app(store: demo.DemoStore) -> tuple[DaimonTUI, list[str]]:
    """The app on `store`, with every notice it gives also kept in a list."""
    told: list[str] = []
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    notify = app.notify
    app.notify = lambda message, *a, **kw: told.append(str(message)) or notify(message, *a, **kw)  # type: ignore[method-assign]
    return app, told


async def _retract_under_a_filter(app: DaimonTUI, pilot: Any, screen: Any) -> str:
    """Filter the list to the ceiling item and retract it: its id, once it has left the list."""
    await pilot.press("slash", *"ceiling", "enter")
    await wait_until(pilot, lambda: [r.item.text for r in screen.rows if r.item] == [CEILING],
                     what="the filter kept one item")
    target = screen.current_item().id
    await pilot.press("x")
    await settle(pilot)
    await pilot.press(*"wrong")
    await pilot.press("tab", *"issue:1", "enter")
    await settle(pilot)
    assert isinstance(app.screen, PlanPreviewModal)
    await pilot.press("y")
    await wait_until(pilot, lambda: not screen.rows and not screen.provisional, timeout=60,
                     what="the retracted row left the filtered list")
    await settle(pilot)
    return target


async def test_retract_under_a_filter_then_h_shows_the_row_and_u_restores_it(demo_store: demo.DemoStore) -> None:
    app, told = _told_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        target = await _retract_under_a_filter(app, pilot, screen)
        await pilot.press("h")
        await settle(pilot)
        # `h` shows the withheld rows the filter matches, the cursor on the same item
        row = screen.current_row()
        assert row is not None and row.withheld is not None and row.withheld.id == target
        # the filter cleared, the cursor stays on it
        await pilot.press("escape")
        await settle(pilot)
        assert screen.filter_text == ""
        row = screen.current_row()
        assert row is not None and row.withheld is not None and row.withheld.id == target
        # `u` on a live row says what it restores and why there is nothing here
        await press_until(pilot, "k", lambda: getattr(screen.current_item(), "state", None) == "visible")
        told.clear()
        await pilot.press("u")
        await settle(pilot)
        assert not isinstance(app.screen, PlanPreviewModal)
        said = " ".join(told)
        assert "restore" in said.lower() and "withheld" in said.lower(), told
        # back on the withheld row, `u` restores it
        await press_until(pilot, "j", lambda: getattr(screen.current_row().withheld, "id", None) == target)
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)


async def test_retract_under_a_filter_then_the_filter_cleared_and_h_finds_the_row(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        target = await _retract_under_a_filter(app, pilot, screen)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.filter_text == "" and screen.rows
        await pilot.press("h")
        await settle(pilot)
        row = screen.current_row()
        assert row is not None and row.withheld is not None and row.withheld.id == target


async def test_u_on_a_live_row_says_what_u_restores(demo_store: demo.DemoStore) -> None:
    app, told = _told_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        assert screen.current_item().state == "visible"
        told.clear()
        await pilot.press("u")
        await settle(pilot)
        assert not isinstance(app.screen, PlanPreviewModal)
        said = " ".join(told).lower()
        assert "restores a withheld item" in said and "nothing to restore" in said, told


async def test_every_verb_key_answers_on_a_live_row(demo_store: demo.DemoStore) -> None:
    """Each verb key the footer or help shows answers on a live row: a dialog, or a
    notice that says why not (never silence)."""
    from daimon_tui.domain.verb_registry import VERBS

    app, told = _told_app(demo_store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot)
        for verb in VERBS:
            assert screen.current_item().state == "visible"
            told.clear()
            await pilot.press(verb.key)
            await settle(pilot)
            answered = app.screen is not screen or told
            assert answered, f"{verb.key} ({verb.name}) said nothing"
            while app.screen is not screen:
                await pilot.press("escape")
                await settle(pilot)
