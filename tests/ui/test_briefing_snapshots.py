"""Snapshots of the briefing screen in its states (fixed size, frozen clock)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


def snap(snap_compare, store: demo.DemoStore, *keys: str, demo_mode: bool = False) -> bool:
    # As the demo, where the screen names files (no checkpoint, a torn file): the app then
    # shows the temporary directory as `<demo>`, so the picture is the same on every machine.
    app = DaimonTUI(project_path=str(store.project), now=NOW, demo=demo_mode)

    async def run_before(pilot) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        # A focused box's cursor blinks on the clock (the switcher's filter): held on.
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    return snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_mixed_trust_classes(snap_compare, demo_store: demo.DemoStore) -> None:
    assert snap(snap_compare, demo_store)


def test_carried_and_stale(snap_compare, demo_store: demo.DemoStore) -> None:
    assert snap(snap_compare, demo_store, "j", "j", "j", "j")


def test_corroborated(snap_compare, demo_store: demo.DemoStore) -> None:
    assert snap(snap_compare, demo_store, *["j"] * 6)


def test_degraded_receipt(snap_compare, demo_store: demo.DemoStore) -> None:
    demo.tamper(demo_store.checkpoint_dir, "S-day3")
    assert snap(snap_compare, demo_store, "j")


def test_withheld_shown(snap_compare, demo_store: demo.DemoStore) -> None:
    assert snap(snap_compare, demo_store, "h", *["j"] * 12)


def test_empty_store(snap_compare, empty_store: demo.DemoStore) -> None:
    assert snap(snap_compare, empty_store, demo_mode=True)


def test_torn_latest(snap_compare, demo_store: demo.DemoStore) -> None:
    bucket = next(p for p in Path(demo_store.checkpoint_dir).iterdir() if p.is_dir())
    (bucket / "latest.json").write_text('{"session_id": "S-day3", "working_con', encoding="utf-8")
    assert snap(snap_compare, demo_store, demo_mode=True)


def test_help(snap_compare, demo_store: demo.DemoStore) -> None:
    assert snap(snap_compare, demo_store, "question_mark")
