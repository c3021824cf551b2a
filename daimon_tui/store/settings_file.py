"""The person's settings file, read: `$DAIMON_TUI_CONFIG`, else
`$XDG_CONFIG_HOME/daimon-tui/config.toml` (what it may say: `settings`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import ValidationError

from daimon_tui.settings import Settings
from daimon_tui.store.own_files import read_regular
from daimon_tui.store.settings_place import config_path

__all__ = ["config_path", "load_settings"]


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings, and a one-line problem when the file had to be ignored."""
    path = path or config_path()
    try:
        raw = tomllib.loads(read_regular(path).decode("utf-8"))
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return Settings(), f"{path}: not read ({type(exc).__name__}); using defaults"
    try:
        return Settings.model_validate(raw), None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return Settings(), f"{path}: {where}: {first['msg']}; using defaults"
