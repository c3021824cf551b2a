"""The evidence on screen: the transcript excerpt in the pane and in `o`, the
witnesses' words, the world's lines and diff, the keys that open the pager or
editor (a fake program records what it was given) and copy to the clipboard,
hostile transcript text shown inert, and a snapshot of the pane."""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.item.screen import ItemScreen
from daimon_tui.ui.key_table import class_bindings
from daimon_tui.ui.widgets.evidence import EvidencePanel
from daimon_tui.ui.widgets.item_detail import ItemDetail
from tests.transcript_store import transcript_store
from tests.ui.settle import press_until, settle, wait_until

NOW = demo.DEMO_NOW.timestamp()
RETRY = "Should uploads retry on HTTP 429 with exponential backoff?"
RETRY_FILE = "Whether src/upload/retry.py still reads the old RETRY_MAX setting"


@pytest.fixture
def store(sandbox_root: Path, request: pytest.FixtureRequest) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root, getattr(request, "param", None)) as st:
        yield st


def shown(panel: EvidencePanel) -> str:
    detail = ItemDetail()
    detail.shown = panel.content  # type: ignore[assignment]
    return detail.plain(120)


def recorder(folder: Path) -> tuple[Path, Path]:
    """A fake $PAGER/$EDITOR: it writes its argv and the file it was given."""
    out = folder / "argv.json"
    script = folder / "fake-pager"
    script.write_text(
        f"#!{sys.executable}\nimport json, sys, pathlib\n"
        f"pathlib.Path({str(out)!r}).write_text(json.dumps({{'argv': sys.argv[1:], "
        f"'text': pathlib.Path(sys.argv[-1]).read_text()}}))\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, out


async def to_item(pilot, text: str) -> BriefingScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, BriefingScreen)
    await press_until(pilot, "j", lambda: getattr(screen.current_item(), "text", None) == text)
    await settle(pilot)
    return screen


async def test_the_pane_shows_the_quoted_turn_and_the_witnesses(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await to_item(pilot, RETRY)
        panel = screen.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the excerpt")
        text = shown(panel)
        assert "session S-day3 (claude-code) · locator resolved" in text and "bytes unchanged" in text
        assert "Retry on 429 with exponential backoff, as agreed." in text
        assert "The flag, and whether the nightly job shares our bucket prefix." in text  # the turn before
        assert "Then the change is complete." in text  # the turn after
        assert "Let's ship it" not in text  # brief: one turn each side
        assert "Witnesses' own words" in text and "Still: retry on 429 with exponential backoff." in text


async def test_a_moved_cursor_never_gets_the_answer_for_the_row_it_left(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await to_item(pilot, RETRY)
        await pilot.press("j")  # away before (or as) the read lands
        await settle(pilot)
        panel = screen.query_one(EvidencePanel)
        assert panel.item is screen.current_item()
        assert "Retry on 429" not in shown(panel)


async def test_o_shows_the_whole_window_and_scrolls(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, ItemScreen)
        panel = app.screen.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the excerpt")
        text = shown(panel)
        for turn in ("PR #42 is merged. What is left?", "Let's ship it behind the UPLOAD_RETRY flag",
                     "I'll switch the nightly job to its own bucket prefix first."):
            assert turn in text  # every turn of the window, not one each side
        await pilot.press("j", "j")
        assert app.screen.query_one("#item-full").scroll_y > 0


async def test_the_world_evidence_shows_the_named_file(store: demo.DemoStore) -> None:
    demo.init_repo(store.project)
    (store.project / "src" / "upload" / "retry.py").write_text("RETRY_MAX = 7\nBAD = '\x1b[31m\u202e'\n")
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await to_item(pilot, RETRY_FILE)
        panel = screen.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "src/upload/retry.py" in shown(panel), what="the file")
        text = shown(panel)
        assert "RETRY_MAX = 7" in text and "\\x1b[31m\\u202e" in text
        assert "\x1b" not in text and "\u202e" not in text
        assert "the working tree differs from HEAD" in text


async def test_O_opens_a_masked_copy_of_the_transcript_at_the_quoted_turn(store: demo.DemoStore, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    script, out = recorder(tmp_path)
    monkeypatch.setenv("PAGER", str(script))
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY)
        await pilot.press("O")
        await wait_until(pilot, out.exists, what="the pager ran")
    got = json.loads(out.read_text())
    assert got["argv"][0] != str(store.project)  # a private copy, not the transcript file
    lines = got["text"].splitlines()
    assert "Retry on 429 with exponential backoff" in "\n".join(lines)
    # a pager that is not known to take +LINE gets the file alone
    assert len(got["argv"]) == 1 and got["argv"][0].endswith(".txt")


async def test_E_opens_the_named_file_read_only_at_its_line(store: demo.DemoStore, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    demo.init_repo(store.project)
    vim = tmp_path / "vim"
    script, out = recorder(tmp_path)
    vim.symlink_to(script)
    monkeypatch.setenv("EDITOR", str(vim))
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY_FILE)
        await pilot.press("E")
        await wait_until(pilot, out.exists, what="the editor ran")
    got = json.loads(out.read_text())
    assert got["argv"] == ["-R", "+1", str(store.project / "src" / "upload" / "retry.py")]
    assert got["text"].startswith("from upload.settings import SETTINGS")


async def test_copy_keys(store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await to_item(pilot, RETRY)
        await pilot.press("c", "C", "Y")
        await settle(pilot)
        item = screen.current_item()
        assert copied == [item.id, RETRY, "retry on 429 with exponential backoff"]


async def test_the_keys_are_in_help_and_the_palette(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        from daimon_tui.ui.commands import ActionCommands

        descriptions = {s.description for s in ActionCommands._specs(None)}  # type: ignore[arg-type]
        assert {"Copy the item's id", "Copy the item's quote"} <= descriptions
        assert any(d.startswith("Open the transcript at the quoted turn") for d in descriptions)
        bound = class_bindings(type(app.screen)).key_to_bindings
        keys = {b.key for key in bound for b in bound[key]}
        assert {"O", "E", "c", "C", "Y"} <= keys


HOSTILE = {"S-day3": (
    ("user", "PR #42 is merged. \x1b]8;;http://evil.example\x07click\x1b]8;;\x07 [bold red]not markup[/]"),
    ("assistant", "\u202eright-to-left\u202c and \x1b[2J a clear-screen"),
    ("user", "Retry on 429 with exponential backoff, as agreed."),
)}


@pytest.mark.parametrize("store", [HOSTILE], indirect=True)
async def test_hostile_transcript_text_is_inert(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY)
        await pilot.press("o")
        await settle(pilot)
        panel = app.screen.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the excerpt")
        text = shown(panel)
        assert "\\x1b]8;;http://evil.example\\x07click" in text and "[bold red]not markup[/]" in text
        assert "\\u202eright-to-left\\u202c" in text and "\\x1b[2J" in text
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text


def test_snapshot_of_the_pane(snap_compare, sandbox_root: Path) -> None:
    with transcript_store(sandbox_root) as st:
        app = DaimonTUI(project_path=str(st.project), now=NOW, demo=True)

        async def run_before(pilot) -> None:
            screen = await to_item(pilot, RETRY)
            panel = screen.query_one(EvidencePanel)
            await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the excerpt")
            screen.query_one("#detail-scroll").scroll_to_widget(panel, animate=False, top=True)
            await settle(pilot)

        assert snap_compare(app, terminal_size=(140, 40), run_before=run_before)


def test_pager_and_editor_commands() -> None:
    from daimon_tui.ui.item.evidence import command

    path = Path("/tmp/x.txt")
    assert command("less -S", path, 12) == ["less", "-S", "+12", "/tmp/x.txt"]
    assert command("/usr/bin/nvim", path, 3) == ["/usr/bin/nvim", "-R", "+3", "/tmp/x.txt"]
    assert command("my-viewer --flag 'a b'", path, 3) == ["my-viewer", "--flag", "a b", "/tmp/x.txt"]
    assert command(None, path, 0) == ["less", "+1", "/tmp/x.txt"]


async def test_o_shows_the_header_and_verdicts_before_the_turns(store: demo.DemoStore,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The view never waits on a transcript scan: the item and daimon's `why`
    come first, "reading…" where the turns will be, the turns when found."""
    import asyncio

    from daimon_tui.services import evidence as evidence_service

    release = asyncio.Event()
    real = evidence_service.transcript_excerpt

    async def held(project, item_id, brief):  # type: ignore[no-untyped-def]
        if not brief:
            await release.wait()
        return await real(project, item_id, brief)

    monkeypatch.setattr(evidence_service, "transcript_excerpt", held)
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY)
        await pilot.press("o")  # no settle: it would wait for the held read
        await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), what="the item view")
        detail = app.screen.query_one("#item-full-detail", ItemDetail)
        await wait_until(pilot, lambda: "support" in detail.plain(120), what="daimon's verdicts")
        panel = app.screen.query_one(EvidencePanel)
        assert "transcript: reading…" in shown(panel) and "▶ user" not in shown(panel)
        release.set()
        await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the turns")
