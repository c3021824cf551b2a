"""How long ago a stored time was, said beside it ("3 d ago"): daimon writes
absolute ISO-8601 times, a person reads ages."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def ago(iso: str | None, now: float | None = None) -> str:
    """"3 d ago", "5 h ago", "just now", "in 2 d"; "" for what is not a time."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = (time.time() if now is None else now) - moment.timestamp()
    later, seconds = seconds < 0, abs(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            amount = f"{int(seconds // size)} {unit}"
            return f"in {amount}" if later else f"{amount} ago"
    return "just now"


def with_age(iso: str | None, now: float | None = None) -> str:
    """The time as stored, its age beside it."""
    age = ago(iso, now)
    return f"{iso} ({age})" if age else (iso or "")
