"""`O` on transcripts in the shapes real sessions have (issue 41): a 50 KB
line, ANSI codes, a ~22 MB file (slow pass). A fake `$PAGER` or `$EDITOR`
(named as the program it stands for, so it gets that program's flags)
records its argv and the line it was sent to; the app comes back intact."""

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
from tests.store.test_real_transcripts import QUOTE, opening, with_session
from tests.transcript_gen import Claude, filler, grow
from tests.transcript_store import transcript_store
from tests.ui.settle import settle, wait_until
from tests.ui.test_evidence import NOW, RETRY, to_item


@pytest.fixture
def store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root) as st:
        yield st


def fake(folder: Path, name: str) -> tuple[Path, Path]:
    """A program called `name` that records its argv, the file's line it was
    sent to (`+N`), the file's size and its longest line."""
    out = folder / f"{name}.json"
    script = folder / "bin" / name
    script.parent.mkdir(exist_ok=True)
    script.write_text(
        f"#!{sys.executable}\nimport json, sys, pathlib\n"
        "argv = sys.argv[1:]\n"
        "at = next((int(a[1:]) for a in argv if a.startswith('+')), 1)\n"
        "lines = pathlib.Path(argv[-1]).read_text(encoding='utf-8').split('\\n')\n"
        f"pathlib.Path({str(out)!r}).write_text(json.dumps({{'argv': argv, 'line': lines[at - 1], "
        "'next': lines[at], 'count': len(lines), 'longest': max(map(len, lines)), "
        "'escape': any('\\x1b' in x for x in lines)}))\n",
        encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, out


def real_shaped(size: int = 0) -> Claude:
    """A session with a 50 KB pasted line and coloured tool output before the
    quote (and filler after it up to `size` bytes)."""
    session = opening(Claude("S-day3"))
    filler(session, 5)
    session.user(f"\x1b[31mred\x1b[0m then: {QUOTE}.")
    session.assistant("Done.")
    if size:
        grow(session, size)
    session.user("The last turn.")
    return session


async def opened_in(store: demo.DemoStore, out: Path, timeout: float = 10.0) -> dict:
    """`O` on the retry item; then the app is back: the same screen and item, keys answered."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await to_item(pilot, RETRY)
        item = screen.current_item()
        await pilot.press("O")
        await wait_until(pilot, out.exists, timeout=timeout, what="the program ran")
        await settle(pilot)
        assert app.screen is screen and isinstance(screen, BriefingScreen)
        assert screen.current_item() == item
        await pilot.press("j")
        await settle(pilot)
        assert screen.current_item() != item  # the app answers keys again
        got = json.loads(out.read_text())
    assert not Path(got["argv"][-1]).exists()  # the private copy is gone
    return got


def quoted_head(got: dict) -> None:
    """The program was sent to the quoted turn's head, its text on the next line, inert."""
    assert got["line"].endswith("◀ the quoted turn") and got["argv"][-2] != "+1"
    assert got["next"] == f"\\x1b[31mred\\x1b[0m then: {QUOTE}."
    assert not got["escape"]


async def test_O_in_a_pager_at_the_quoted_line_of_a_real_shaped_session(
        store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_session(real_shaped())
    less, out = fake(tmp_path, "less")
    monkeypatch.setenv("PAGER", str(less))
    got = await opened_in(store, out)
    assert got["argv"][:-1] == [got["argv"][-2]] and got["argv"][-2].startswith("+")
    quoted_head(got)
    assert got["longest"] >= 50_000  # the pasted line, whole


async def test_O_with_only_an_editor_opens_it_read_only_at_the_quoted_line(
        store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No `$PAGER`: the person's `$EDITOR`, read-only, rather than a `less` they may not have."""
    with_session(real_shaped())
    vim, out = fake(tmp_path, "vim")
    monkeypatch.delenv("PAGER", raising=False)
    monkeypatch.setenv("EDITOR", str(vim))
    got = await opened_in(store, out)
    assert got["argv"][0] == "-R" and len(got["argv"]) == 3
    quoted_head(got)


@pytest.mark.slow
async def test_O_on_a_22_mb_transcript(store: demo.DemoStore, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = with_session(real_shaped(22_000_000))
    assert path.stat().st_size > 21_000_000
    less, out = fake(tmp_path, "less")
    monkeypatch.setenv("PAGER", str(less))
    got = await opened_in(store, out, timeout=120)
    quoted_head(got)
    assert got["count"] > 10_000  # the masked copy, up to its cut (transcripts.MAX_PAGER_CHARS)
