"""Where the person's settings file is (`settings_file` reads it): asked
before the first frame, so it imports no pydantic."""

from __future__ import annotations

import os
from pathlib import Path

from daimon_tui.store.own_files import xdg_dir


def config_path() -> Path:
    explicit = os.environ.get("DAIMON_TUI_CONFIG")
    if explicit:
        return Path(explicit)
    return xdg_dir("XDG_CONFIG_HOME", Path.home() / ".config") / "daimon-tui" / "config.toml"
