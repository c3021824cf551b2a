"""Item text is inert everywhere: `brief --json`, plain output and the app."""

from __future__ import annotations

import io
import json

import pytest
from rich.text import Text

from daimon_tui.cli import main
from daimon_tui.domain.inert import inert, is_unsafe
from daimon_tui.headless.brief import briefing_json, write_plain
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.item_row import ROW_TEXT_LIMIT, item_row
from daimon_tui.ui.widgets.row_list import RowList
from tests.ui.settle import settle

from .conftest import MARKUP, NOW, PAYLOADS, hostile_text, unsafe_chars

# ---- the function itself ------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_inert_leaves_no_acting_character(name: str) -> None:
    shown = inert(PAYLOADS[name], keep_newlines=True)
    assert not unsafe_chars(shown)
    assert "\x1b" not in shown and "\r" not in shown and "\x08" not in shown


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("\x1b[31m", "\\x1b[31m"),
        ("\x9b", "\\x9b"),
        ("a\u202eb", "a\\u202eb"),
        ("\u200b", "\\u200b"),
        ("\u3164", "\\u3164"),  # Hangul filler: a "letter" that renders blank
        ("\U000e0041", "\\U000e0041"),  # tag character
        ("line\nnext", "line\\x0anext"),
        ("tab\there", "tab here"),
        ("café 日本 🎉", "café 日本 🎉"),
        (MARKUP, MARKUP),
    ],
)
def test_inert_escapes_visibly(raw: str, expected: str) -> None:
    assert inert(raw) == expected


def test_inert_keeps_newlines_only_when_asked() -> None:
    assert inert("a\nb", keep_newlines=True) == "a\nb"
    assert inert("a\r\nb", keep_newlines=True) == "a\\x0d\nb"


def test_stacked_combining_marks_are_capped() -> None:
    shown = inert("a" + "\u0300" * 50)
    assert shown.count("\u0300") == 4 and shown.count("\\u0300") == 46


def test_megabyte_text_is_cut_with_a_marker() -> None:
    # How fast: benchmarks/ (no wall clock asserted here).
    huge = ("x" * 999 + "\x1b") * 3000  # 3 MB with an escape every KB
    shown = inert(huge, limit=500)
    assert shown.endswith(f" … [+{len(huge) - 500:,} chars]")
    full = inert(huge, limit=None)
    assert "\x1b" not in full and full.count("\\x1b") == 3000


# ---- headless output ------------------------------------------------------------


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(key)
            yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


def test_json_holds_no_acting_character_and_markup_stays_literal(hostile_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(hostile_store.project))
    briefing = reader.load_briefing(project, now=NOW)
    assert len(briefing.items()) == len(PAYLOADS)
    document = json.loads(json.dumps(briefing_json(briefing), ensure_ascii=False))
    for text in _strings(document):
        assert not unsafe_chars(text, allow=""), text
    texts = [item["text"] for section in document["sections"] for item in section["items"]]
    assert all(MARKUP in text for text in texts)
    assert "[@click=app.quit]quit[/]" in " ".join(texts)
    assert "\\x1b]52;c;" in " ".join(texts)  # the OSC 52 write is shown, not performed
    assert document["session_id"] == "S-\\x1b[31mevil\\u202e"


def test_cli_json_and_plain_are_inert(hostile_store: demo.DemoStore, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["brief", "--json", "--project", str(hostile_store.project)],
                 ["brief", "--project", str(hostile_store.project)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert not unsafe_chars(out), argv
        assert MARKUP in out


def test_plain_output_shows_markup_literally(hostile_store: demo.DemoStore) -> None:
    briefing = reader.load_briefing(reader.resolve_project(str(hostile_store.project)), now=NOW)
    out = io.StringIO()
    write_plain(briefing, out)
    text = out.getvalue()
    assert not unsafe_chars(text)
    assert "[link=https://evil.example]l[/link]" in text
    assert "safe\\x08\\x08\\x08\\x08evil\\x0dOVERWRITTEN" in text


# ---- the app ------------------------------------------------------------------


def _screen_text(app: DaimonTUI) -> str:
    """Every character the compositor would paint, style codes excluded."""
    update = app.screen._compositor.render_update(full=True)
    return "".join(segment.text for strip in update.strips for segment in strip)


async def test_app_renders_hostile_items_inert(hostile_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(hostile_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        row_list = screen.query_one("#items", RowList)
        prompts = [entry.prompt for entry in row_list.entries]
        assert all(isinstance(p, Text) for p in prompts)
        rows = [p.plain for p in prompts if hostile_text("csi")[:12] in p.plain or "Question" in p.plain]
        assert len(rows) == len(PAYLOADS)
        assert all(MARKUP in row and not unsafe_chars(row) for row in rows)
        seen = set()
        for _ in PAYLOADS:
            detail = screen.query_one(ItemDetail).plain()
            assert not unsafe_chars(detail)
            assert MARKUP in detail and "quote " in detail
            seen.add(screen.current_item().id)
            painted = _screen_text(app)
            assert not unsafe_chars(painted), sorted(unsafe_chars(painted))
            assert "[bold red]x[/]" in painted
            await pilot.press("j")
            await settle(pilot)
        assert len(seen) == len(PAYLOADS)
        await pilot.press("h")  # withheld: the resolved decision and its hostile note
        await settle(pilot)
        assert not unsafe_chars(_screen_text(app))
        assert app.is_running  # [@click=app.quit] never acted


# ---- size ---------------------------------------------------------------------


def test_rows_truncate_and_the_detail_marks_what_is_cut(empty_store: demo.DemoStore) -> None:
    cp = demo.session("S-big", demo.DEMO_NOW, "big")
    big = "A long line " + "y" * 2_000_000
    cp["working_context"]["open_questions"] = [{"text": big, "trust": "inferred"}]
    demo.seed(empty_store.project, cp)
    briefing = reader.load_briefing(reader.resolve_project(str(empty_store.project)), now=NOW)
    item = briefing.items()[0]
    row = item_row(item)
    assert len(row.plain) < ROW_TEXT_LIMIT + 200 and "[+" in row.plain
    from rich.console import Console

    from daimon_tui.ui.widgets.item_detail import DETAIL_LIMIT, item_fields

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(item_fields(item))
    shown = console.export_text()
    assert f"[+{len(item.text) - DETAIL_LIMIT:,} chars]" in shown


async def test_thousands_of_items_stay_responsive(empty_store: demo.DemoStore) -> None:
    cp = demo.session("S-many", demo.DEMO_NOW, "many")
    cp["working_context"]["open_questions"] = [
        {"text": f"Open question number {n} {PAYLOADS['csi']}", "trust": "inferred"} for n in range(3000)
    ]
    demo.seed(empty_store.project, cp)
    app = DaimonTUI(project_path=str(empty_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.briefing is not None
        assert len(screen.briefing.items()) >= 3000
        # How fast a move is: benchmarks/ (no wall clock asserted here).
        for _ in range(10):
            await pilot.press("j")
        await pilot.pause()
        assert screen.current_item() is not None and "number 10 " in screen.current_item().text
        assert not unsafe_chars(_screen_text(app))


def test_is_unsafe_covers_every_c0_and_c1_control() -> None:
    for code in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]:
        assert is_unsafe(chr(code)), hex(code)


def test_a_cut_marker_never_costs_more_than_it_hides() -> None:
    """Issue 40 point 10: `… [+1 chars]` took 13 characters to hide 1; a text
    whose overflow is no longer than the marker is shown whole."""
    assert inert("x" * 101, limit=100) == "x" * 101
    marker = len(" … [+13 chars]")
    assert inert("x" * (100 + marker), limit=100) == "x" * (100 + marker)
    longer = inert("x" * (100 + marker + 1), limit=100)
    assert longer == "x" * 100 + f" … [+{marker + 1} chars]"
