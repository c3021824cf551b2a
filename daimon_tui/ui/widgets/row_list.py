"""A keyboard list of prebuilt rows for thousands of items (Textual's Line API).

Why not `OptionList`: at 5,000 wrapped rows it re-wraps the visible options on
every highlight move (its render cache is keyed by the style, which changes
with the highlight), which put a cursor move at ~27 ms p95, and it lays out
every option up front. Here line breaks are measured on plain text, only rows
on screen are rendered, and their strips are kept; a move repaints two rows,
and a page turn replays kept strips. The list scrolls itself (its own `top`
line, no Textual scroll offset, no scrollbar): a page turn is one repaint of
this widget, with none of the scroll machinery's layout work. Rows are Rich
`Text` built by the caller from inert strings: this widget never parses
markup.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from daimon_tui.ui.navigation import when_shown
from daimon_tui.ui.widgets.line_breaks import line_breaks

# Rendered rows kept between paints: a few screens' worth at any width.
RENDERED_ROWS_KEPT = 600
# Rows rendered ahead per turn of the event loop (~0.3 ms each).
PREFETCH_ROWS_PER_STEP = 4
# Lines a mouse wheel notch scrolls.
WHEEL_LINES = 3


@dataclass(frozen=True, slots=True)
class Entry:
    """One row: its text, and the caller's key (None: a heading, never highlighted)."""

    prompt: Text
    key: int | None = None

    @property
    def selectable(self) -> bool:
        return self.key is not None


class RowList(Widget, can_focus=True):
    """Rows of Rich text, one highlighted; `Highlighted` and `Selected` messages."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", show=False),
        Binding("up", "cursor_up", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("enter", "select", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--cursor", "row-list--heading"}

    DEFAULT_CSS = """
    RowList {
        overflow: hidden hidden;
        background: $surface;
        & > .row-list--cursor {
            background: $block-cursor-blurred-background;
        }
        &:focus > .row-list--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
        & > .row-list--heading {
            color: $text;
        }
    }
    """

    # repaint=False: a move repaints the two rows it touches, not the whole list.
    highlighted: reactive[int | None] = reactive(None, repaint=False, init=False)

    class Highlighted(Message):
        def __init__(self, row_list: RowList, index: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.index = index

        @property
        def control(self) -> RowList:
            return self.row_list

    class Selected(Highlighted):
        pass

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: list[Entry] = []
        # Per width: where each row's lines break and the line each row starts
        # on; rendered strips are kept for the rows painted (cursor or not).
        self._width = -1
        self._breaks: list[list[int]] = []
        self._starts: list[int] = []
        self._rendered: dict[tuple[int, bool], list[Strip]] = {}
        self._prefetching = False
        # The list scrolls itself: the first line shown, and how many there are.
        self.top = 0
        self.total_lines = 0

    # ---- content -----------------------------------------------------------

    def set_entries(self, entries: Sequence[Entry], highlight: int | None = None) -> None:
        """Replace every row; `highlight` (an index) or the first selectable row."""
        self.entries = list(entries)
        self._width = -1
        self._breaks, self._starts = [], []
        self._rendered.clear()
        self.total_lines = 0  # `top` stays: a rebuild (a live change) keeps the view where it was
        self._layout()
        self.set_reactive(RowList.highlighted, None)
        target = highlight if highlight is not None and self._selectable(highlight) else self._step(-1, 1)
        self.highlighted = target
        self.refresh()  # every row may have changed, not just the highlighted two

    def replace_prompt(self, index: int, prompt: Text) -> None:
        """One row's text changed (a mark): re-measure that row alone."""
        if not 0 <= index < len(self.entries):
            return
        self.entries[index] = Entry(prompt, self.entries[index].key)
        self._drop_row(index)
        if self._width <= 0:
            return
        breaks = line_breaks(prompt.plain, self._width)
        if len(breaks) != len(self._breaks[index]):
            self._breaks[index] = breaks
            self._count_lines()
            self.refresh()
            return
        self._breaks[index] = breaks
        self._refresh_row(index)

    @property
    def entry_count(self) -> int:
        return len(self.entries)

    # ---- layout ------------------------------------------------------------
    # Line breaks for every row are computed on the plain text (cheap: ~10 µs a
    # row); Rich renders a row only when it is on screen, split at exactly
    # those breaks, so the heights and the painted lines always agree.

    def _layout(self) -> None:
        if not self.is_mounted:
            return
        width = self.scrollable_content_region.width
        if width == self._width or width <= 0:
            return  # unchanged, or not laid out yet (wrapping at width 0 is waste)
        self._width = width
        self._rendered.clear()
        self._breaks = [line_breaks(entry.prompt.plain, width) for entry in self.entries]
        self._count_lines()
        self._prefetch_soon()

    def _count_lines(self) -> None:
        self._starts = []
        total = 0
        for breaks in self._breaks:
            self._starts.append(total)
            total += len(breaks) + 1
        self.total_lines = total
        self.top = min(self.top, max(0, total - 1))

    def _drop_row(self, index: int) -> None:
        self._rendered.pop((index, False), None)
        self._rendered.pop((index, True), None)

    def on_resize(self, _event: events.Resize) -> None:
        before = self._width
        self._layout()
        if self._width != before:
            self.refresh()
        # a shorter view (not only new line breaks) can leave the cursor row off screen
        self.call_after_refresh(when_shown(self, self._show_highlight))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._rendered.clear()

    # ---- painting ----------------------------------------------------------

    def _row_strips(self, index: int) -> list[Strip]:
        cursor = index == self.highlighted
        key = (index, cursor)
        strips = self._rendered.get(key)
        if strips is None:
            base = self.rich_style
            if cursor:
                base = base + self.get_component_rich_style("row-list--cursor")
            elif not self.entries[index].selectable:
                base = base + self.get_component_rich_style("row-list--heading")
            strips = self._render_row(self.entries[index].prompt, self._breaks[index], base)
            if len(self._rendered) > RENDERED_ROWS_KEPT:
                self._rendered.clear()
            self._rendered[key] = strips
        return strips

    def _render_row(self, prompt: Text, breaks: list[int], base: Style) -> list[Strip]:
        console: Console = self.app.console
        width = self._width
        lines = prompt.divide(breaks) if breaks else [prompt]
        if prompt.style:  # `Text.render` leaves the text's own style to its caller
            base = base + console.get_style(prompt.style, default=Style.null())
        strips = []
        for line in lines:
            line.rstrip()
            # Prompts come from `inert` (newlines escaped); a stray one must
            # still never reach the compositor as a line break.
            rendered = [Segment(seg.text.replace("\n", " "), seg.style) if "\n" in seg.text else seg
                        for seg in line.render(console)]
            segments = Segment.apply_style(rendered, base)
            strips.append(Strip(segments).adjust_cell_length(width, base))
        return strips

    def render_line(self, y: int) -> Strip:
        self._layout()
        line = self.top + y
        if not self._starts or not 0 <= line < self.total_lines:
            return Strip.blank(self.size.width, self.rich_style)
        index = bisect_right(self._starts, line) - 1
        return self._row_strips(index)[line - self._starts[index]]

    def _refresh_row(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self._breaks):
            return
        top = self._starts[index] - self.top
        self.refresh(Region(0, top, self.scrollable_content_region.width, len(self._breaks[index]) + 1))

    # ---- the highlight -----------------------------------------------------

    def _selectable(self, index: int | None) -> bool:
        return index is not None and 0 <= index < len(self.entries) and self.entries[index].selectable

    def _step(self, start: int, delta: int) -> int | None:
        index = start + delta
        while 0 <= index < len(self.entries):
            if self.entries[index].selectable:
                return index
            index += delta
        return None

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self._show_highlight()
        if new is not None:
            self.post_message(self.Highlighted(self, new))

    def _show_highlight(self) -> None:
        # A cursor leaving the view turns the page (mutt-style), not one row:
        # a scroll repaints every visible line, a plain move only two rows,
        # so holding `j` pays a full repaint once a page.
        index = self.highlighted
        if index is None or not 0 <= index < len(self._breaks):
            return
        top, bottom = self._starts[index], self._starts[index] + len(self._breaks[index]) + 1
        last = self._step(index, 1) is None
        if last:
            bottom = self.total_lines  # the notes after the last row: no cursor reaches them otherwise
        view, height = self.top, self.scrollable_content_region.height
        if height <= 0 or (top >= view and bottom <= view + height):
            return
        margin = 0 if last else min(2, height // 4)  # a line or two of the page before stays in view
        y = top - margin if bottom > view + height else bottom - height + margin
        self._show_from(max(0, min(y, top)))

    def _show_from(self, top: int) -> None:
        # Not `_scroll_to`: that is Textual's own (scroll offsets), unused here.
        top = max(0, min(top, self.total_lines - 1))
        if top != self.top:
            self.top = top
            self.refresh()
        self._prefetch_soon()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._show_from(min(self.top + WHEEL_LINES, max(0, self.total_lines - self.scrollable_content_region.height)))

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._show_from(self.top - WHEEL_LINES)

    # ---- rendering ahead ---------------------------------------------------
    # A page turn paints a page of rows never painted before; rendering them
    # (Rich) is most of that frame. So while keys rest, the pages either side
    # of the view are rendered into the kept strips, a few rows per turn of
    # the event loop, and a page turn replays them.

    def _prefetch_soon(self) -> None:
        if not self._prefetching:
            self._prefetching = True
            self.call_later(when_shown(self, self._prefetch_step))

    def _prefetch_step(self) -> None:
        self._prefetching = False
        if not self._starts or self._width <= 0:
            return
        height = max(1, self.scrollable_content_region.height)
        view = self.top
        first = bisect_right(self._starts, max(0, view - height)) - 1
        last = bisect_right(self._starts, view + 2 * height)
        done = 0
        for index in range(max(0, first), min(last, len(self.entries))):
            if (index, index == self.highlighted) not in self._rendered:
                self._row_strips(index)
                done += 1
                if done == PREFETCH_ROWS_PER_STEP:
                    self._prefetch_soon()
                    return

    def _move_to(self, target: int | None) -> None:
        if target is not None:
            self.highlighted = target

    def action_cursor_down(self) -> None:
        self._move_to(self._step(-1 if self.highlighted is None else self.highlighted, 1))

    def action_cursor_up(self) -> None:
        self._move_to(self._step(len(self.entries) if self.highlighted is None else self.highlighted, -1))

    def action_page(self, direction: int) -> None:
        if not self._starts or self.highlighted is None:
            return
        line = self._starts[self.highlighted] + direction * max(1, self.scrollable_content_region.height)
        line = min(max(line, 0), self.total_lines - 1)
        index = bisect_right(self._starts, line) - 1
        if not self._selectable(index):
            # a heading: the next row past it, else the one before (index 0 is a row, not "none")
            ahead = self._step(index, direction)
            index = ahead if ahead is not None else self._step(index, -direction)
        self._move_to(index)

    def action_first(self) -> None:
        self._move_to(self._step(-1, 1))

    def action_last(self) -> None:
        self._move_to(self._step(len(self.entries), -1))

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self, self.highlighted))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self._starts:
            return
        line = self.top + offset.y
        if not 0 <= line < self.total_lines:
            return
        index = bisect_right(self._starts, line) - 1
        if not self._selectable(index):
            return
        if index == self.highlighted and event.chain > 1:
            self.action_select()
        self.highlighted = index
