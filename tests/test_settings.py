"""Settings: rebindable keys, and a bad file never stops the app."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.settings_file import load_settings
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle


def test_missing_file_is_defaults(tmp_path: Path) -> None:
    settings, problem = load_settings(tmp_path / "absent.toml")
    assert settings.keys == {} and problem is None


def test_unknown_action_is_reported_and_ignored(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[keys]\n"no.such.action" = "Z"\n')
    settings, problem = load_settings(path)
    assert settings.keys == {} and "unknown action id" in (problem or "")


def test_corrupt_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe[keys")
    settings, problem = load_settings(path)
    assert settings.keys == {} and "not read" in (problem or "")


async def test_rebound_key_moves_the_cursor(demo_store: demo.DemoStore, tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\n"cursor.down" = "n"\n')
    monkeypatch.setenv("DAIMON_TUI_CONFIG", str(config))
    app = DaimonTUI(project_path=str(demo_store.project), now=demo.DEMO_NOW.timestamp())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        first = screen.current_item()
        await pilot.press("n")
        await settle(pilot)
        assert screen.current_item() != first


def test_a_negative_judging_child_idle_time_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("judging_child_idle_s = -1\n")
    settings, problem = load_settings(path)
    assert settings.judging_child_idle_s == judge_service.IDLE_S == 60
    assert "judging_child_idle_s" in (problem or "")


async def test_the_judging_child_idle_time_is_the_settings(demo_store: demo.DemoStore, tmp_path: Path,
                                                           monkeypatch) -> None:
    service = judge_service.service()
    monkeypatch.setattr(service, "idle_s", judge_service.IDLE_S)  # restored for the tests after this one
    config = tmp_path / "config.toml"
    config.write_text("judging_child_idle_s = 7.5\n")
    monkeypatch.setenv("DAIMON_TUI_CONFIG", str(config))
    app = DaimonTUI(project_path=str(demo_store.project), now=demo.DEMO_NOW.timestamp())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert service.idle_s == 7.5
    config.write_text("judging_child_idle_s = 0\n")  # 0: the child is kept for the app's life
    app = DaimonTUI(project_path=str(demo_store.project), now=demo.DEMO_NOW.timestamp())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert service.idle_s is None
