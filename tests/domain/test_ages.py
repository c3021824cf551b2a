"""Ages beside absolute times."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from daimon_tui.domain.ages import ago, with_age

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(("iso", "said"), [
    ("2026-11-29T09:00:00Z", "3 d ago"),
    ("2026-12-02T04:00:00Z", "5 h ago"),
    ("2026-12-02T08:50:00Z", "10 min ago"),
    ("2026-12-02T09:00:00Z", "just now"),
    ("2026-12-04T09:00:00Z", "in 2 d"),
    ("not a time", ""),
    (None, ""),
])
def test_ago(iso: str | None, said: str) -> None:
    assert ago(iso, NOW) == said


def test_with_age_keeps_the_absolute_time() -> None:
    assert with_age("2026-11-29T09:00:00Z", NOW) == "2026-11-29T09:00:00Z (3 d ago)"
    assert with_age("garbage", NOW) == "garbage"
