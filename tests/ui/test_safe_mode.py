"""Safe mode in the app: the banner says which daimon and what is off; a verb
that needs a private daimon call is refused with the reason, and logged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store.daimon_api import mode
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.safe_mode_banner import SafeModeBanner
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


@pytest.fixture
def safe(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(mode, "installed_version", lambda: "0.70.1")
    mode.set_current(None)
    yield
    mode.set_current(None)


async def test_the_banner_names_the_daimon_and_what_is_off_and_retract_is_refused(
        demo_store: demo.DemoStore, safe: None, private_action_log: Path) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.briefing is not None
        banner = screen.query_one(SafeModeBanner)
        assert banner.display and banner.region.height >= 1
        text = str(banner.render())
        assert "Safe mode: daimon-briefing 0.70.1" in text and "public API only" in text
        for off in mode.current().off():  # the banner names each thing that is off
            assert off.split(": off (")[0] in text
        assert screen.briefing.items()  # the briefing still reads
        await pilot.press("d")  # rows as daimon prints them: its public lines (the briefed split is off)
        await settle(pilot)
        assert app.screen is screen and screen.as_daimon
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert app.screen is screen  # no modal opened: refused before it
    rows = [json.loads(line) for line in private_action_log.read_text(encoding="utf-8").splitlines()]
    refused = [r for r in rows if r.get("verb") == "retract"]
    assert refused and refused[-1]["outcome"] == "refused"


async def test_no_banner_in_full_mode(demo_store: demo.DemoStore) -> None:
    mode.set_current(None)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.screen.query_one(SafeModeBanner).display


async def test_as_of_in_history_is_refused_with_the_reason_in_safe_mode(demo_store: demo.DemoStore, safe: None) -> None:
    from daimon_tui.ui.history.screen import HistoryScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot, rounds=4)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await pilot.press("@")
        await settle(pilot)
        assert app.screen is screen  # no picker: refused before it
        said = [str(n.message) for n in app._notifications]
        assert any("the briefing as of a time is off in safe mode" in m and "store._session_files" in m for m in said)
