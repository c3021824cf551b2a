"""`E` on an item naming a huge project file: the editor opens at once (the
world's evidence it reads first is bounded: 1 MB of the file, the first
lines of each side diffed), never after a diff of the whole megabyte."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from tests.ui.settle import wait_until
from tests.ui.test_evidence import NOW, RETRY_FILE, recorder, store, to_item  # noqa: F401 (store: the fixture)


def write(path: Path, changed: bool) -> None:
    path.write_text("".join(f"R{i:07d} = {'new' if changed and i % 97 == 0 else 'old'}\n" for i in range(80_000)),
                    encoding="utf-8")


async def test_E_on_a_huge_file_changed_all_over_opens_the_editor_at_once(
        store: demo.DemoStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    demo.init_repo(store.project)
    target = store.project / "src" / "upload" / "retry.py"
    write(target, False)
    demo._git(store.project, demo.DEMO_NOW - timedelta(days=30), "commit", "-q", "-a", "-m", "huge, long ago")
    write(target, True)
    demo._git(store.project, demo.DEMO_NOW, "commit", "-q", "-a", "-m", "huge, changed all over")
    vim = tmp_path / "vim"
    script, out = recorder(tmp_path)
    vim.symlink_to(script)
    monkeypatch.setenv("EDITOR", str(vim))
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, RETRY_FILE)
        started = time.perf_counter()
        await pilot.press("E")
        await wait_until(pilot, out.exists, timeout=60, what="the editor ran")
        took = time.perf_counter() - started
    got = json.loads(out.read_text())
    assert got["argv"] == ["-R", "+1", str(target)]
    assert took < 4.0, f"the editor waited {took:.1f} s"
