"""Navigation in one place (issue 39, point 4): no key, timer or callback
pops an empty stack or touches a widget whose screen is gone, and every
push, pop and dismiss goes through `daimon_tui/ui/navigation.py`."""

from __future__ import annotations

import ast
from pathlib import Path

from textual import events

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.history.screen import HistoryScreen
from daimon_tui.ui.screens.verb_modals import NothingSelectedModal
from daimon_tui.ui.widgets.row_below import RowBelow
from tests.ui.settle import press_settled, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
PACKAGE = Path(__file__).resolve().parents[2] / "daimon_tui"
NAVIGATOR = PACKAGE / "ui" / "navigation.py"
# Textual's own ways to change the stack: only the navigator calls them.
STACK_CALLS = frozenset({"pop_screen", "push_screen", "push_screen_wait", "switch_screen", "switch_mode",
                         "pop_until_active"})
# A screen's own `dismiss` too, in the UI (elsewhere the word is daimon's: a dismissed queue entry).
UI_STACK_CALLS = STACK_CALLS | {"dismiss", "action_dismiss"}


def burst(app: DaimonTUI, *keys: str) -> None:
    """Keys that arrive together (a fast typist, a paste, a loaded machine):
    each is queued before the one before it has been handled."""
    for key in keys:
        app.post_message(events.Key(key, "\r" if key == "enter" else None))


async def test_enter_typed_ahead_on_a_closing_dialog_never_pops_the_briefing_nor_an_empty_stack(
        demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        # A filter that matches nothing, then a verb: "no item selected", closed by Enter.
        await press_settled(pilot, "slash", *"zzqqzz", "enter")
        await press_settled(pilot, "r")
        assert isinstance(app.screen, NothingSelectedModal)
        burst(app, "enter", "enter", "enter", "enter")
        await settle(pilot)
        assert app.is_running
        assert app.screen is briefing, app.screen_stack
    assert app.return_code in (None, 0)


async def test_esc_and_q_at_the_bottom_of_any_view_never_pop_the_last_screen(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        briefing = app.screen
        for view in "234567":
            await press_settled(pilot, view)
            # Each close key of the views and their dialogs, many at once.
            burst(app, "question_mark", "escape", "escape", "escape", "escape", "escape", "escape")
            await settle(pilot)
            assert app.is_running, view
            assert app.screen is briefing, (view, app.screen_stack)
        assert len(app.screen_stack) == 2


async def test_a_view_closed_as_it_opens_leaves_no_callback_behind(demo_store: demo.DemoStore) -> None:
    """`2` and then another view before History has drawn: the row under its
    table was asked to follow after the refresh, by which time History had
    gone (`NoScreen` in `RowBelow.follow`)."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for then in ("queue", "audit", "log", "briefing"):
            app.action_view("history")  # what `2` does,
            app.action_view(then)  # and the key right after it
            await settle(pilot)
            assert app.is_running, then
            await press_settled(pilot, "1")
        assert isinstance(app.screen, BriefingScreen), app.screen_stack
    assert app.return_code in (None, 0)


async def test_row_below_after_history_is_gone_does_nothing(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press_settled(pilot, "2")
        assert isinstance(app.screen, HistoryScreen)
        below = app.screen.query_one(RowBelow)
        below.follow_later()  # as the table's watchers do: runs after the next refresh
        await press_settled(pilot, "escape")
        await wait_until(pilot, lambda: not below.is_attached, what="History removed")
        below.follow()  # a callback that comes after its screen closed
        below.follow_later()
        await settle(pilot)
        assert app.is_running
        assert isinstance(app.screen, BriefingScreen)
    assert app.return_code in (None, 0)


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != NAVIGATOR)


def test_no_screen_binds_a_pop_of_its_own() -> None:
    """Esc and `q` name an action that asks the navigator; never `app.pop_screen` or `dismiss`."""
    offenders = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                    node.value.startswith(("app.pop_screen", "pop_screen", "dismiss(", "app.switch_screen"))):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value}")
    assert not offenders, offenders


def test_only_the_navigator_changes_the_screen_stack() -> None:
    offenders = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            calls = UI_STACK_CALLS if path.is_relative_to(PACKAGE / "ui") else STACK_CALLS
            if isinstance(node, ast.Attribute) and node.attr in calls:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
    assert not offenders, offenders
