"""The item list at thousands of rows: line breaks measured on plain text
agree with what is painted, only rows on screen are rendered, a move
repaints two rows, and a cursor leaving the view turns the page."""

from __future__ import annotations

import itertools
import random

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult

from daimon_tui.ui.widgets.line_breaks import line_breaks
from daimon_tui.ui.widgets.row_list import Entry, RowList


def _lines(plain: str, width: int) -> list[str]:
    cuts = [0, *line_breaks(plain, width), len(plain)]
    return [plain[a:b] for a, b in itertools.pairwise(cuts)]


def test_line_breaks_fit_the_width_and_lose_nothing() -> None:
    rng = random.Random(7)
    alphabet = ["a", "b", "é", "漢", "🙂", " ", " ", "x"]
    for _ in range(3000):
        plain = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 150))).lstrip()
        width = rng.randint(2, 50)
        breaks = line_breaks(plain, width)
        assert breaks == sorted(set(breaks)) and all(0 < b < len(plain) for b in breaks)
        lines = _lines(plain, width)
        assert "".join(lines) == plain
        assert all(cell_len(line.rstrip()) <= width for line in lines), (plain, width, lines)


def test_ascii_rows_break_at_spaces_and_fold_long_words() -> None:
    assert line_breaks("alpha beta gamma", 11) == [11]  # "alpha beta " | "gamma"
    assert _lines("alpha beta gamma", 10) == ["alpha beta ", "gamma"]  # a trailing space may overhang
    assert _lines("alpha beta gamma", 9) == ["alpha ", "beta ", "gamma"]
    assert _lines("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]
    assert line_breaks("short", 80) == []
    assert _lines("漢字漢字漢字", 5) == ["漢字", "漢字", "漢字"]  # two cells each


class ListApp(App[None]):
    def __init__(self, entries: list[Entry]) -> None:
        super().__init__()
        self.entries = entries
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield RowList(id="rows")

    def on_mount(self) -> None:
        rows = self.query_one(RowList)
        rows.set_entries(self.entries)
        rows.focus()

    def on_row_list_selected(self, message: RowList.Selected) -> None:
        self.selected.append(message.index)


def _entries(count: int) -> list[Entry]:
    out = [Entry(Text("Heading", style="bold"))]
    out += [Entry(Text(f"row {n} " + "word " * (n % 30)), key=n) for n in range(count)]
    return out


async def test_a_big_list_renders_only_what_is_on_screen_and_turns_pages() -> None:
    app = ListApp(_entries(5000))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        assert rows.highlighted == 1  # the heading is skipped
        assert rows.total_lines > 5000  # wrapped rows are taller than one line
        assert len(rows._rendered) < 200  # only the screen and the pages either side
        height = rows.scrollable_content_region.height
        start = rows.top
        moves = 0
        while rows.top == start:
            await pilot.press("down")
            moves += 1
            assert moves < 100
        # The view moved by most of a page, not by one row, and the cursor row is in view.
        assert rows.top - start >= height // 2
        top = rows._starts[rows.highlighted]
        assert rows.top <= top < rows.top + height
        await pilot.press("end")
        assert rows.highlighted == 5000
        await pilot.press("home")
        assert rows.highlighted == 1
        await pilot.press("enter")
        await pilot.pause()
        assert app.selected == [1]


async def test_a_mark_rewraps_one_row_and_heights_follow() -> None:
    app = ListApp(_entries(50))
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        before = rows.total_lines
        rows.replace_prompt(2, Text("row 1 " + "longer words " * 12))
        await pilot.pause()
        assert rows.total_lines > before
        assert rows.entries[2].prompt.plain.startswith("row 1 longer")
        rows.replace_prompt(2, Text("row 1"))
        await pilot.pause()
        assert rows.total_lines == before


async def test_an_empty_list_and_headings_only_highlight_nothing() -> None:
    app = ListApp([Entry(Text("No item matches the filter."))])
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        assert rows.highlighted is None
        await pilot.press("down", "up", "enter")
        assert rows.highlighted is None and app.selected == []


async def test_new_entries_repaint_every_row_and_keep_the_view() -> None:
    app = ListApp(_entries(200))
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        top = rows.top
        assert top > 0
        renamed = [Entry(Text(e.prompt.plain.replace("row", "new").replace("word", "bird")), key=e.key)
                   for e in _entries(200)[1:]]
        rows.set_entries([Entry(Text("Heading")), *renamed], highlight=rows.highlighted)
        await pilot.pause()
        painted = app.export_screenshot()  # what the screen shows, not what the widget would render
        assert "bird" in painted and "word" not in painted
        assert rows.top == top  # a rebuild (a live change) keeps the view where it was


async def test_a_page_up_landing_on_a_heading_goes_on_to_the_first_row() -> None:
    rows_ = [Entry(Text("first row"), key=0), Entry(Text("Heading")),
             *(Entry(Text(f"row {n}"), key=n) for n in range(2, 40))]
    app = ListApp(rows_)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        height = rows.scrollable_content_region.height
        rows.highlighted = 1 + height  # one page below the heading (one line a row)
        await pilot.press("pageup")
        assert rows.highlighted == 0  # index 0 is a row, not "nothing found"


async def test_the_cursor_row_stays_on_screen_after_shrinking_and_growing_back() -> None:
    app = ListApp([Entry(Text(f"row {n}")) for n in range(200)])
    async with app.run_test(size=(60, 40)) as pilot:
        rows = app.query_one(RowList)
        rows.highlighted = 30
        await pilot.pause()

        def on_screen() -> bool:
            top, height = rows.top, rows.scrollable_content_region.height
            return top <= rows._starts[30] < top + height

        assert on_screen()
        await pilot.resize_terminal(60, 8)
        await pilot.pause()
        await pilot.pause()
        assert on_screen()
        await pilot.resize_terminal(60, 40)
        await pilot.pause()
        await pilot.pause()
        assert on_screen()


async def test_the_last_row_brings_the_notes_after_it_into_view() -> None:
    # The team section ends with lines no cursor can reach (your quarantines):
    # on the last row they come into view, or nothing could ever show them.
    rows_ = [*(Entry(Text(f"row {n}"), key=n) for n in range(30)), *(Entry(Text(f"note {n}")) for n in range(3))]
    app = ListApp(rows_)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        rows = app.query_one(RowList)
        height = rows.scrollable_content_region.height
        rows._show_from(30 - height)  # the last row on the view's bottom line, the notes below it
        rows.highlighted = 28
        await pilot.pause()
        await pilot.press("down")  # onto the last row: no page turn was needed for the row itself
        await pilot.pause()
        assert rows.highlighted == 29
        assert rows.top <= rows._starts[29] and rows.total_lines <= rows.top + height  # the row and every note
        await pilot.press("home")
        await pilot.pause()
        assert rows.top == 0
