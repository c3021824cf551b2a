"""The process ending at once (the terminal went away, a watchdog fired):
what must happen below the views before `os._exit`. The judging child goes
first (it would notice within 2 s anyway), then the action log's quiet moment:
a line being written is waited for, never cut, and no other starts."""

from __future__ import annotations

import contextlib


def settle_before_exit(quiet_s: float) -> None:
    """Kill the judging child now, then wait up to `quiet_s` for the log line in progress."""
    from daimon_tui.store import action_log  # here: a later open's first frame has no log open
    from daimon_tui.store.child import judge_service  # loaded already in the app; light in a bare one

    with contextlib.suppress(Exception):
        judge_service.service().kill_now()
    action_log.quiesce(quiet_s)
