"""The app's own files are untrusted too: a FIFO in a cache, log or settings
file's place never hangs the app, and relative XDG variables are ignored."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import verdict_cache
from daimon_tui.store.read import reader
from daimon_tui.store.settings_file import config_path, load_settings
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()


def _returns_within(seconds: float, call) -> list:
    out: list = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "blocked on a FIFO"
    return out


def test_a_fifo_in_place_of_the_cache_file_is_a_miss_not_a_hang(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    path = verdict_cache.cache_file(project.slug)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    assert _returns_within(10, lambda: verdict_cache.load(project.slug)) == [None]


def test_a_fifo_in_place_of_the_settings_file_is_reported_not_a_hang(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    [(_settings, problem)] = _returns_within(10, lambda: load_settings(path))
    assert problem is not None and str(path) in problem


async def test_the_app_starts_and_quits_with_a_fifo_cache(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    path = verdict_cache.cache_file(project.slug)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)

    async def run() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot, rounds=5)
            assert isinstance(app.screen, BriefingScreen) and app.screen.briefing.items()
            await pilot.press("q")
            await pilot.pause()

    await asyncio.wait_for(run(), timeout=120)
    assert not app.is_running


def test_relative_xdg_directories_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DAIMON_TUI_CACHE", "DAIMON_TUI_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "rel/cache")
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel/config")
    assert verdict_cache.cache_dir() == Path.home() / ".cache" / "daimon-tui"
    assert config_path() == Path.home() / ".config" / "daimon-tui" / "config.toml"
