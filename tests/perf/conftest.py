"""Every perf test writes its verdict cache under tmp, never the user's cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from daimon_tui.store.judging import snapshot_share


@pytest.fixture(autouse=True)
def private_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "verdict-cache"
    monkeypatch.setenv("DAIMON_TUI_CACHE", str(path))
    snapshot_share.clear()
    return path
