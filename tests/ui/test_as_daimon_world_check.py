"""Issue 40 point 1: `d` ("rows as daimon prints them") with daimon's world-check
on (DAIMON_WORLDCHECK=1 in daimon's settings, as a person's ~/.daimon/env sets
it) shows what `daimon brief` prints: `[✓ world-checked]`, the "⚠ state changed
since capture" line with its confirm and reject commands, and `(noted …)` only
where daimon prints it. Where daimon's world-check would ask a program (`gh`),
which this app never starts, `d` says plainly that it is without it."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from daimon_briefing.cli import main as daimon_main
from textual.widgets import Static

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.widgets.row_list import RowList
from tests.store.test_differential import WORLD_MOVES, build
from tests.ui.settle import settle

SIZE = (200, 60)
WORLD_CHECK_ON = {"DAIMON_WORLDCHECK": "1"}


def daimon_brief(project: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        daimon_main(["brief", "--project", str(project)])
    return out.getvalue()


def item_blocks(printed: str) -> list[list[str]]:
    """daimon's item lines, each with the continuation lines under it."""
    blocks: list[list[str]] = []
    open_block = False
    for line in printed.splitlines():
        if line.startswith("- ["):
            blocks.append([line])
            open_block = True
        elif open_block and line.startswith("  ") and not line.startswith("  ("):  # not a section's note
            blocks[-1].append(line)
        else:
            open_block = False
    return blocks


@pytest.fixture
def world_store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    """Carried claims the world confirms (a file made, a branch made) and contradicts
    (a file said deleted is back), and a PR claim only `gh` could answer; no `gh` on PATH."""
    path = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not shutil.which("gh", path=d)]
    with mock.patch.dict(os.environ, {"PATH": os.pathsep.join(path)}), \
            demo.sandboxed(sandbox_root, receipts=False, settings=WORLD_CHECK_ON) as store:
        build(store, WORLD_MOVES)
        yield store


async def d_view(project: Path, now: float | None = None, size: tuple[int, int] = SIZE) -> tuple[list[str], str]:
    """The rows `d` shows once the briefing is confirmed, and the header above them."""
    app = DaimonTUI(project_path=str(project), now=now)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and not screen.provisional
        await pilot.press("d")
        await settle(pilot)
        return ([e.prompt.plain for e in screen.query_one("#items", RowList).entries],
                str(screen.query_one("#briefing-header", Static).render()))


async def test_d_prints_daimons_world_checked_rows(world_store: demo.DemoStore) -> None:
    rows, _header = await d_view(world_store.project)
    printed = daimon_brief(world_store.project)  # after ours: daimon's brief records its world-check
    blocks = item_blocks(printed)
    # the store shows every part of daimon's world-check (else this test proves nothing)
    assert "[✓ world-checked]" in printed and "⚠ state changed since capture: " in printed
    assert any(len(block) == 3 for block in blocks)
    for block in blocks:
        first = rows.index(f"  {block[0]}")
        assert rows[first:first + len(block)] == [f"  {line}" for line in block], block
    assert sum("re-check before acting" in r for r in rows) == printed.count("re-check before acting")
    assert sum("[✓ world-checked]" in r for r in rows) == printed.count("[✓ world-checked]")


async def test_d_says_plainly_it_is_without_the_world_check_gh_would_answer(sandbox_root: Path) -> None:

    from tests.store.test_differential import Programs

    with demo.sandboxed(sandbox_root, receipts=False, settings=WORLD_CHECK_ON) as store:
        build(store, WORLD_MOVES)
        with Programs(sandbox_root, "gh").active():  # a `gh` on PATH: daimon would ask it about PR #12
            rows, header = await d_view(store.project)
    assert not any("⚠ state changed since capture" in r or "[✓ world-checked]" in r for r in rows)
    said = "Rows as daimon prints them (d): without daimon's world-check (DAIMON_WORLDCHECK is on): it would ask `gh`"
    assert said in " ".join(header.split())
