"""Pasting is safe: a pasted ESC/CR (and the keys Textual replays after a
pasted ESC) never cancels or submits a dialog; inputs cap their length; the
filter rebuilds once for a burst of keys."""

from __future__ import annotations

from pathlib import Path

from textual import events

from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import FILTER_MAX, BriefingScreen
from daimon_tui.ui.screens.verb_modals import ResolveModal
from daimon_tui.ui.widgets.safe_input import SafeInput
from tests.daimon_records import events as ledger_rows
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.ui.settle import settle
from tests.ui.test_verb_modals import RETRY_Q, drive, on_screen

NOW = demo.DEMO_NOW.timestamp()


def test_a_paste_with_esc_and_cr_neither_cancels_nor_submits(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    before = len(ledger_rows(demo_store))
    seen: dict[str, object] = {}

    async def script(pilot) -> None:
        await pilot.press("r")
        await on_screen(pilot, ResolveModal)
        # "shipped\r" then ESC: Textual delivers the paste up to the ESC, then replays the rest as keys
        pilot.app.post_message(events.Paste("shipped\rdone"))
        await pilot.press("escape", *" it", "enter")
        await pilot.pause(0.1)
        seen["screen"] = pilot.app.screen
        seen["note"] = pilot.app.screen.query_one("#resolve-note", SafeInput).value
        await pilot.pause(0.4)
        await pilot.press("escape")

    app = drive(ref(demo_store), ActionLog(tmp_path / "actions.jsonl"), (item,), script)
    assert isinstance(seen["screen"], ResolveModal)
    assert seen["note"] == "shipped it"
    assert app.outcomes[0].status == "cancelled"  # only the person's own escape, later, closed it
    assert len(ledger_rows(demo_store)) == before


async def test_a_huge_paste_is_cut_and_a_burst_of_keys_rebuilds_the_filter_once(demo_store) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("slash")
        rebuilds = []
        real = screen.rebuild
        screen.rebuild = lambda *a, **k: (rebuilds.append(1), real(*a, **k))[1]
        box = screen.query_one("#filter", SafeInput)
        await pilot.press(*("y" * 40))  # a burst: forty changes, one rebuild
        await pilot.pause(0.4)
        assert box.value == "y" * 40 and screen.filter_text == box.value
        assert len(rebuilds) < 5  # one, unless this run was starved between keys; forty without the debounce
        box.value = ""
        app.post_message(events.Paste("x" * 100_000 + "\x1b"))
        await pilot.pause(0.4)
        assert len(box.value) == FILTER_MAX and screen.filter_text == box.value
        assert isinstance(app.screen, BriefingScreen) and box.has_focus

