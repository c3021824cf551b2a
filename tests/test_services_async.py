"""The services rule (issue 39): a service function a view awaits is
`async def` and runs its blocking reads itself (`asyncio.to_thread`), so a
view never wraps one in a thread of its own, and a headless report runs the
same function through `asyncio.run(...)`."""

from __future__ import annotations

import importlib
import inspect

import pytest

AWAITED = [
    ("daimon_tui.services.as_of", "briefing_as_of"),
    ("daimon_tui.services.action_log", "find"),
    ("daimon_tui.services.action_log", "lines_and_chain"),
    ("daimon_tui.services.action_log", "log_problem"),
    ("daimon_tui.services.action_log", "read_entries"),
    ("daimon_tui.services.as_of", "team_as_of"),
    ("daimon_tui.services.audit", "audit"),
    ("daimon_tui.services.audit", "audit_by_child"),
    ("daimon_tui.services.diff", "daimon_diff"),
    ("daimon_tui.services.history", "session_briefing"),
    ("daimon_tui.services.history", "session_changes"),
    ("daimon_tui.services.history", "sessions"),
    ("daimon_tui.services.queue", "decide"),
    ("daimon_tui.services.queue", "read_queue"),
    ("daimon_tui.services.search", "log_refused"),
    ("daimon_tui.services.search", "prepare"),
    ("daimon_tui.services.search", "search"),
    ("daimon_tui.services.search", "search_here"),
    ("daimon_tui.services.team", "team_now"),
    ("daimon_tui.services.world_check", "check_items"),
]


@pytest.mark.parametrize(("module", "name"), AWAITED)
def test_a_service_a_view_awaits_is_async(module: str, name: str) -> None:
    function = getattr(importlib.import_module(module), name)
    assert inspect.iscoroutinefunction(function), f"{module}.{name} is not `async def`"
