"""The as-of box's words: what becomes a moment, and what is refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from daimon_tui.domain.when import parse_when

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SESSIONS = {"S-day2", "S-day3"}


@pytest.mark.parametrize(("typed", "value"), [
    ("S-day2", "S-day2"),
    ("yesterday", "2026-12-01T09:00:00Z"),
    ("3d", "2026-11-29T09:00:00Z"),
    ("12h", "2026-12-01T21:00:00Z"),
    ("1w", "2026-11-25T09:00:00Z"),
    ("2026-11-28", "2026-11-28T23:59:59Z"),
    ("2026-11-28T12:00:00Z", "2026-11-28T12:00:00Z"),
    ("2026-11-28T12:00:00", "2026-11-28T12:00:00Z"),
])
def test_accepted(typed: str, value: str) -> None:
    assert parse_when(typed, SESSIONS, NOW).value == value


@pytest.mark.parametrize("typed", ["", "  ", "last tuesday", "3 days", "S-day9", "2026-13-01", "-3d"])
def test_refused_with_a_reason(typed: str) -> None:
    when = parse_when(typed, SESSIONS, NOW)
    assert when.value is None and when.problem


def test_a_session_by_the_prefix_the_lists_show() -> None:
    """Issue 28 point 6: lists show ids as their shortest unique prefix; typed back, it names the session."""
    sessions = {"0b9f3c1e-5a4d-4d2b-9c11-1234567890ab", "0b9f3c2a-1111-4a2b-8c33-abcdefabcdef"}
    assert parse_when("0b9f3c1", sessions, NOW).value == "0b9f3c1e-5a4d-4d2b-9c11-1234567890ab"
    ambiguous = parse_when("0b9f3c", sessions, NOW)
    assert ambiguous.value is None and "2 sessions" in (ambiguous.problem or "")
    assert parse_when("0b9", sessions, NOW).value is None  # too short to name one
