"""User settings: `$XDG_CONFIG_HOME/daimon-tui/config.toml` (or `DAIMON_TUI_CONFIG`).

    theme = "textual-light"
    judging_child_idle_s = 60   # give the judging child back after this long unused (0: keep it)
    [keys]                  # action id (see `?`) = keys, comma-separated
    "verb.resolve" = "R"
    "cursor.down" = "j,ctrl+n"

A file that cannot be read or does not validate is reported and ignored:
the app opens with its defaults rather than not at all. Reading the file is
`store/settings_file.py`; here is what it may say.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from daimon_tui.action_specs import ACTIONS

ACTION_IDS = frozenset(spec.id for spec in ACTIONS)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    theme: str | None = None
    # Seconds without a request before the judging child (and the fold it
    # holds) is given back; the next read starts a new one. 0 keeps it.
    judging_child_idle_s: float = Field(default=60.0, ge=0)
    keys: dict[str, str] = {}

    @field_validator("keys")
    @classmethod
    def known_actions(cls, keys: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(keys) - ACTION_IDS)
        if unknown:
            raise ValueError(f"unknown action id(s): {', '.join(unknown)}")
        return keys
