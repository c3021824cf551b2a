"""What the as-of box accepts: "yesterday", "3d" (or h, w), a date, an
ISO-8601 time or a session id. Anything else is refused with a reason, in
the box, before any read."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

_AGO = re.compile(r"^(\d{1,4})\s*([hdw])$")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}
HINT = 'a session id, "yesterday", "3d" (h, d, w ago), a date 2026-11-28 (its end, UTC) or an ISO-8601 time'


@dataclass(frozen=True, slots=True)
class When:
    value: str | None  # a session id or an ISO-8601 UTC time
    problem: str | None = None


def _iso(moment: datetime) -> str:
    # Not strftime's %Y: it drops the zeros of a year before 1000 ("1-01-01").
    utc = moment.astimezone(UTC)
    return f"{utc.year:04d}-{utc:%m-%dT%H:%M:%SZ}"


def parse_when(typed: str, sessions: Collection[str], now: datetime) -> When:
    try:
        return _parse(typed, sessions, now)
    except (OverflowError, ValueError):  # a moment outside the calendar, e.g. year 1 at +14:00
        return When(None, f"{typed.strip()[:40]!r} is outside the calendar's range (years 1 to 9999, UTC)")


def _parse(typed: str, sessions: Collection[str], now: datetime) -> When:
    text = typed.strip()
    if not text:
        return When(None, f"type {HINT}")
    if text in sessions:
        return When(text)
    lowered = text.lower()
    if lowered in {"now", "today"}:
        return When(_iso(now))
    if lowered == "yesterday":
        return When(_iso(now - timedelta(days=1)))
    ago = _AGO.match(lowered)
    if ago:
        return When(_iso(now - int(ago.group(1)) * _UNITS[ago.group(2)]))
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is not None and len(text) == 10:
        return When(_iso(datetime.combine(day, time(23, 59, 59), tzinfo=UTC)))
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        # a session named as the lists show it: its shortest unique prefix
        named = [s for s in sessions if len(text) >= 4 and s.startswith(text)]
        if len(named) == 1:
            return When(named[0])
        if named:
            return When(None, f"{text[:40]!r} begins {len(named)} sessions: type more of the id")
        return When(None, f"{text[:40]!r} is not {HINT}")
    return When(_iso(moment if moment.tzinfo else moment.replace(tzinfo=UTC)))
