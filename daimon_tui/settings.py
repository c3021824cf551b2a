"""User settings: `$XDG_CONFIG_HOME/daimon-tui/config.toml` (or `DAIMON_TUI_CONFIG`).

    theme = "textual-light"
    [keys]                  # action id (see `?`) = keys, comma-separated
    "verb.resolve" = "R"
    "cursor.down" = "j,ctrl+n"

A file that cannot be read or does not validate is reported and ignored:
the app opens with its defaults rather than not at all.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from daimon_tui.action_specs import ACTIONS
from daimon_tui.domain.own_files import read_regular, xdg_dir

ACTION_IDS = frozenset(spec.id for spec in ACTIONS)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    theme: str | None = None
    keys: dict[str, str] = {}

    @field_validator("keys")
    @classmethod
    def known_actions(cls, keys: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(keys) - ACTION_IDS)
        if unknown:
            raise ValueError(f"unknown action id(s): {', '.join(unknown)}")
        return keys


def config_path() -> Path:
    explicit = os.environ.get("DAIMON_TUI_CONFIG")
    if explicit:
        return Path(explicit)
    return xdg_dir("XDG_CONFIG_HOME", Path.home() / ".config") / "daimon-tui" / "config.toml"


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
