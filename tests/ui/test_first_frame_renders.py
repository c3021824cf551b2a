"""What Textual draws before a later open's kept first frame: the briefing first and nothing else,
and the frame is said to be drawn only once it reached the terminal.

Every full render of the screen costs the first frame ~10 ms (every widget's lines); each screen
drawn before the briefing (Textual's blank default screen) delays it by its compose, layout, render
and resize. A frame drawn inside the app's mount (a batch) is dropped: the frame's followers (the judging
child, daimon's import) then ran before anything was on screen (0.28 s -> 0.63 s in tmux)."""

from __future__ import annotations

import pytest
from textual._compositor import Compositor
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import ProgressBar

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.first_frame import FirstFrame
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import wait_until
from tests.ui.test_first_frame_kept import NOW, confirmed_open, small_store


async def test_the_kept_frame_is_the_first_screen_drawn_and_it_reaches_the_terminal(
        empty_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    small_store(empty_store.project, 2, 5)
    await confirmed_open(empty_store.project)
    drawn: list[str] = []  # each render's screen, in order, and whether it reached the terminal; "FRAME"
    full = Compositor.render_full_update
    partial = Compositor.render_partial_update
    display = DaimonTUI._display
    on_drawn = FirstFrame.on_drawn

    def full_update(self: Compositor, *args: object, **kwargs: object) -> object:
        drawn.append(f"full {type(self.root).__name__}")
        return full(self, *args, **kwargs)

    def partial_update(self: Compositor) -> object:
        update = partial(self)
        if update is not None:
            drawn.append(f"partial {type(self.root).__name__}")
        return update

    def shown(self: DaimonTUI, screen: object, renderable: object) -> None:
        if renderable is not None:  # Textual drops what is drawn inside a batch (the app's mount is one)
            drawn.append("dropped" if self._batch_count else "displayed")
        display(self, screen, renderable)  # type: ignore[arg-type]

    def frame(self: FirstFrame, screen: BriefingScreen) -> None:
        if not self.drawn.is_set():
            drawn.append("FRAME")
        on_drawn(self, screen)

    monkeypatch.setattr(Compositor, "render_full_update", full_update)
    monkeypatch.setattr(Compositor, "render_partial_update", partial_update)
    monkeypatch.setattr(FirstFrame, "on_drawn", frame)
    monkeypatch.setattr(DaimonTUI, "_display", shown)
    focused: list[str] = []  # what had the keys on the way to the first frame
    set_focus = Screen.set_focus

    def focus(self: Screen, widget: Widget | None, *args: object, **kwargs: object) -> None:
        if "FRAME" not in drawn and widget is not None:
            focused.append(widget.id or type(widget).__name__)
        set_focus(self, widget, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "set_focus", focus)
    app = DaimonTUI(project_path=str(empty_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: "FRAME" in drawn, timeout=30, what="the first frame")
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.first_frame.drawn.is_set()
    assert not screen.query(ProgressBar)  # the world-checks' bar: made when a check first starts
    # The list has the keys from the start: Textual's first focusable (the hidden `/` box) was focused
    # at compose and blurred at mount, each restyled.
    assert set(focused) == {"items"}, focused
    before = drawn[:drawn.index("FRAME")]
    assert before[:2] == ["full BriefingScreen", "displayed"], before  # the first thing drawn, and shown
    # Then Textual's own: the resized screen's partial renders, and the repaint a pushed screen's resume asks for.
    assert "dropped" not in before and {r for r in before if r.startswith(("full", "partial"))} == {
        "full BriefingScreen", "partial BriefingScreen"}, before

