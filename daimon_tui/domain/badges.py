"""How marks and badges look: a glyph (shape, legible in monochrome), a word,
and a style name. One table, used by the screens, plain output and help."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a headless search prints marks without importing the models (pydantic)
    from daimon_tui.models import Badge


@dataclass(frozen=True, slots=True)
class MarkStyle:
    glyph: str
    label: str
    style: str
    meaning: str


MARKS: dict[str, MarkStyle] = {
    "verbatim": MarkStyle("✓", "✓ verbatim", "bold green", "an exact transcript quote, checked by a matcher"),
    "inferred": MarkStyle("~", "~ inferred", "cyan", "the model's conclusion: verify before building on it"),
    "untagged": MarkStyle("?", "? untagged", "magenta", "no trust class recorded (old or degraded capture)"),
    "unverified-verbatim": MarkStyle(
        "⚠", "⚠ unverified (verbatim)", "bold yellow",
        "claimed verbatim, but the checkpoint no longer matches its receipt",
    ),
    "stale": MarkStyle("?", "? unverified", "yellow", "carried past the staleness budget: re-check before trusting"),
}

# How much a mark asks the reader to trust the item: an exact quote, a conclusion, then the rest.
_TRUST_RANK = {"verbatim": 2, "inferred": 1}


def raises_trust(before: str | None, after: str | None) -> bool:
    """Whether `after` reads as more trusted than `before` (`MARKS` words)."""
    return before is not None and after is not None and _TRUST_RANK.get(after, 0) > _TRUST_RANK.get(before, 0)


BADGES: dict[str, tuple[str, str]] = {
    "carried": ("⟳ carried", "dim"),
    "corroborated": ("≈ corroborated", "bold blue"),
    "world-checked": ("✓ world-checked", "bold green"),
    "world-contradicted": ("✗ world contradicts", "bold red reverse"),
    "foreign-verbatim": ("teammate claims verbatim", "yellow"),
    "supersede-candidate": ("⚠ likely superseded", "bold red"),
    "agent-claim": ("⚠ agent says resolved", "bold red"),
    "amended": ("↷ amended", "yellow"),
    "noted": ("noted", "dim"),
    # What daimon's own world-check recorded (verification.jsonl), not a live `w` check.
    "recorded-confirmed": ("✓ daimon recorded: world agrees", "green"),
    "recorded-contradicted": ("✗ daimon recorded: world contradicts", "bold red"),
}

# The gutter of a row `daimon brief` leaves out for its byte budget.
NOT_BRIEFED = "·"

# A contradiction on any axis beats every badge: these lead the row.
CONTRADICTING = frozenset({"world-contradicted", "supersede-candidate", "agent-claim", "recorded-contradicted"})


def mark_label(mark: str) -> str:
    return MARKS.get(mark, MARKS["untagged"]).label


def badge_label(badge: Badge) -> str:
    label = BADGES.get(badge.kind, (badge.kind, ""))[0]
    if badge.kind == "corroborated" and badge.count is not None:
        return f"{label} ×{badge.count}"
    return label


def badge_style(badge: Badge) -> str:
    return BADGES.get(badge.kind, ("", ""))[1]


def ordered(badges: tuple[Badge, ...]) -> tuple[Badge, ...]:
    """Contradictions first (they beat every badge), then daimon's order."""
    return tuple(sorted(badges, key=lambda b: 0 if b.kind in CONTRADICTING else 1))
