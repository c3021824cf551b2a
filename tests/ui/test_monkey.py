"""The monkey test: seeded random key sequences on every screen of the demo
store, through Pilot on the real app. Nothing may raise, the app keeps
running, and daimon's ledgers still parse line by line."""

from __future__ import annotations

import json
import random

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, TextArea

from daimon_tui.store import paths
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
VIEW_KEYS = ("1", "2", "3", "4", "5", "6")
ALWAYS = ("escape", "enter", "tab", "shift+tab", *VIEW_KEYS)
TYPED = (*"abcdyn x3-:", "backspace")
# The two ways out are the only keys a monkey may not press.
QUITTING = frozenset({"ctrl+q", "ctrl+c"})


def pool(app: DaimonTUI) -> list[str]:
    """Every key bound where the monkey stands, plus the keys everyone presses."""
    keys = [k for k in app.screen.active_bindings if k not in QUITTING]
    if type(app.screen) is BriefingScreen:
        keys = [k for k in keys if k != "q"]  # `q` on the briefing quits, as it should
    keys += ALWAYS
    if isinstance(app.focused, Input | TextArea):
        keys += TYPED * 2
    return keys


async def monkey(store: demo.DemoStore, seed: int, presses: int, size: tuple[int, int],
                 starts: tuple[str, ...] = VIEW_KEYS) -> None:
    rng = random.Random(seed)
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for start in starts:
            await pilot.press(start)
            await settle(pilot, rounds=1)
            for _ in range(presses):
                # The palette's system commands include Quit: it is only opened and closed.
                key = "escape" if isinstance(app.screen, CommandPalette) else rng.choice(pool(app))
                await pilot.press(key)
                assert app.is_running, f"seed {seed}: the app stopped after {key!r} on {start}"
            # Back to the briefing however deep the monkey went.
            for _ in range(8):
                await pilot.press("escape")
            await settle(pilot, rounds=1)
            assert app.is_running
        await settle(pilot)
    assert app.return_code in (None, 0)
    bucket = paths.bucket_dir(demo_slug(store))
    assert bucket is not None
    for ledger in bucket.glob("*.jsonl"):
        for number, line in enumerate(ledger.read_text().splitlines(), 1):
            if line.strip():
                try:
                    json.loads(line)
                except ValueError:
                    pytest.fail(f"{ledger.name} line {number} no longer parses")


def demo_slug(store: demo.DemoStore) -> str:
    from daimon_tui.store.read import reader

    return reader.resolve_project(str(store.project), None).slug


@pytest.mark.timeout(300)  # a few hundred keys: a minute alone, more on a loaded machine
async def test_monkey_short(demo_store: demo.DemoStore) -> None:
    await monkey(demo_store, seed=13, presses=40, size=(100, 30))


# One test per seed and first view (150 keys each, 1,800 in all): the slow pass's two workers share them
# out evenly. The real-terminal run (test_terminal_monkey.py, 3 x 400 keys) is the long random-key test.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("start", VIEW_KEYS)
@pytest.mark.parametrize("seed", [1, 2])
async def test_monkey_long(demo_store: demo.DemoStore, seed: int, start: str) -> None:
    await monkey(demo_store, seed=seed * 10 + int(start), presses=150, size=(80, 24), starts=(start,))
