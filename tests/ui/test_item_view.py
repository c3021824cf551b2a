"""The item view (`o`, `ui/item/`) and the whole text (`enter`): every key the
footer or `?` shows there answers when pressed (issue 39, deliverable 5): it
closes the view or opens another, scrolls, copies, runs the person's program,
or says why not. Never silence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.screen import Screen

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.item.full_text import FullTextScreen
from daimon_tui.ui.item.screen import ItemScreen
from daimon_tui.ui.key_table import KEY_NAMES, LEAD_IDS, class_bindings, global_id_rows, id_rows
from daimon_tui.ui.navigation import navigator
from tests.transcript_store import transcript_store
from tests.ui.settle import press_until, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)  # wide enough for every key of the footer beneath the view
RETRY = "Should uploads retry on HTTP 429 with exponential backoff?"  # a transcript: the view scrolls
KEYS = {label: key for key, label in KEY_NAMES.items()}


@pytest.fixture
def store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root) as st:
        yield st


def help_keys(view: Screen, app: DaimonTUI) -> list[str]:
    """The keys `?` lists over the view: its own, then those that work everywhere."""
    own = class_bindings(type(view))
    rows = id_rows(own, view.check_action, skip_ids=LEAD_IDS) + global_id_rows(class_bindings(type(app)), own)
    return [KEYS.get(label, label) for keys, _does, _id in rows for label in keys.split(", ")]


def footer_keys(app: DaimonTUI) -> list[str]:
    """The keys the footer in sight shows: the view's own (the item view's hides the briefing's),
    else the one beneath (the whole text has none)."""
    for screen in reversed(app.screen_stack):
        footers = list(screen.query("Footer"))
        if footers:
            return [key.key for footer in footers for key in footer.query("FooterKey") if key.display]  # type: ignore[attr-defined]
    return []


async def opened(app: DaimonTUI, pilot, briefing: BriefingScreen, key: str, kind: type[Screen]) -> Screen:  # type: ignore[no-untyped-def]
    """The view `key` opens over the briefing, scrolled to its middle (so `j` and `k` both move it)."""
    if not isinstance(app.screen, kind):
        navigator(app).back_to(briefing)
        await settle(pilot)
        await pilot.press(key)
        await wait_until(pilot, lambda: isinstance(app.screen, kind), what=kind.__name__)
        await settle(pilot)
    view = app.screen
    assert isinstance(view, kind)
    for box in view.query(VerticalScroll):
        box.scroll_to(y=box.max_scroll_y // 2, animate=False)
    await settle(pilot)
    return view


def scrolled(view: Screen) -> tuple[float, ...]:
    return tuple(box.scroll_y for box in view.query(VerticalScroll))


@pytest.mark.parametrize(("key", "kind", "own"), [
    ("o", ItemScreen, {"escape", "q", "o", "j", "k", "O", "E", "c", "C", "Y"}),
    ("enter", FullTextScreen, {"escape", "q"}),
])
async def test_every_key_the_footer_or_help_shows_on_an_item_view_answers(
        store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, kind: type[Screen],
        own: set[str]) -> None:
    ran = tmp_path / "ran"
    program = tmp_path / "program"
    program.write_text(f"#!/bin/sh\ntouch {ran}\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PAGER", str(program))
    monkeypatch.setenv("EDITOR", str(program))
    told: list[str] = []
    copied: list[str] = []
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    notify = app.notify
    app.notify = lambda message, *a, **kw: told.append(str(message)) or notify(message, *a, **kw)  # type: ignore[method-assign]
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        await press_until(pilot, "j", lambda: getattr(briefing.current_item(), "text", None) == RETRY)
        view = await opened(app, pilot, briefing, key, kind)
        if kind is ItemScreen:
            assert view.query_one("#item-full", VerticalScroll).max_scroll_y > 2, "j and k need room to scroll"
        keys = list(dict.fromkeys(footer_keys(app) + help_keys(view, app)))
        assert own | {"question_mark", "1", "2", "P"} <= set(keys), keys
        keys.sort(key=lambda k: k == "ctrl+q")  # the one that ends the app, last
        silent = []
        for pressed in keys:
            view = await opened(app, pilot, briefing, key, kind)
            at = scrolled(view)
            told.clear()
            copied.clear()
            ran.unlink(missing_ok=True)
            await pilot.press(pressed)
            await settle(pilot)
            if pressed == "ctrl+q":
                await pilot.pause(0.2)
                if app.is_running:
                    silent.append(pressed)
                break
            if not (app.screen is not view or told or copied or ran.exists() or scrolled(view) != at):
                silent.append(pressed)
        assert silent == [], f"keys shown on {kind.__name__} that do nothing: {silent}"


def _frame_lines(app: DaimonTUI) -> list[str]:
    """The frame Textual composes for the terminal now, screens beneath included, line by line."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return ["".join(segment.text for segment in strip) for strip in update.strips]  # type: ignore[union-attr]


async def test_the_item_view_hides_the_briefing_and_its_own_footer_never_says_quit(
        store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41 (`o` at 1 MB): the item view's first frame spent a quarter of its time dimming the
    briefing beneath it, and that briefing's footer still offered "q back/quit" where `q` closes the
    view and never quits. The view is opaque, so nothing beneath is rendered, and shows its own keys."""
    from textual.renderables.background_screen import BackgroundScreen

    dimmed: list[int] = []
    real = BackgroundScreen.process_segments.__func__  # type: ignore[attr-defined]

    def counted(cls, segments, color):  # type: ignore[no-untyped-def]
        dimmed.append(1)
        return real(cls, segments, color)

    monkeypatch.setattr(BackgroundScreen, "process_segments", classmethod(counted))
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        await press_until(pilot, "j", lambda: getattr(briefing.current_item(), "text", None) == RETRY)
        view = await opened(app, pilot, briefing, "o", ItemScreen)
        dimmed.clear()
        view.refresh()
        await settle(pilot)
        lines = _frame_lines(app)
        assert dimmed == [], "the briefing beneath the item view was rendered and dimmed"
        footer = lines[-1].lower()
        assert "quit" not in footer, footer
        assert "close" in footer and "help" in footer, footer  # the view's own keys
        assert not any("HANDOFF" in line for line in lines), "the briefing shows through"


async def test_the_item_views_tables_are_drawn_once_per_width(store: demo.DemoStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41 (`o` at 1 MB): Rich tables were a third of the item view's first frame, and each
    was drawn twice at the same width, since Textual draws a Static's content once to measure its
    height and again for its lines, and both again on a new layout (failed before: 8 of 8 tables
    drawn 4 times). The view keeps each width's lines: one drawing per width."""
    from collections import Counter

    from rich.table import Table

    drawn: Counter[tuple[int, int]] = Counter()
    real = Table.__rich_console__

    def counted(table, console, options):  # type: ignore[no-untyped-def]
        if isinstance(app.screen, ItemScreen):  # not the briefing's pane, drawn before
            drawn[(id(table), options.max_width)] += 1
        return real(table, console, options)

    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        await press_until(pilot, "j", lambda: getattr(briefing.current_item(), "text", None) == RETRY)
        await settle(pilot)
        monkeypatch.setattr(Table, "__rich_console__", counted)
        view = await opened(app, pilot, briefing, "o", ItemScreen)
        view.query_one("#item-full-detail").refresh(layout=True)  # a layout again at the same width
        await settle(pilot)
        assert drawn, "the view drew no table"
        twice = {key: n for key, n in drawn.items() if n > 1}
        assert twice == {}, f"{len(twice)} of {len(drawn)} tables drawn again at the same width"
