"""daimon's kill switch (`DAIMON_DISABLE`, env or daimon's config file), read
by daimon itself: the briefing states it from the start, before any verb."""

from __future__ import annotations

from daimon_tui.store.daimon_api.public import config


def writes_disabled() -> bool:
    return config.is_disabled()
