"""What the person has reviewed, and what changed since: pure.

A row counts as seen with a fingerprint of what it showed: a salted hash of
its text (never the text: daimon's forget must still remove a value
everywhere, and a salt keeps a short value from being guessed back out of its
hash), its mark, its badge tokens and its state. A row is new when nothing
was recorded for its key, or when its fingerprint differs; what differs is
said in a few words ("new", "was ~ inferred", "+1 witness").
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING

from daimon_tui.domain.badges import BADGES, MARKS
from daimon_tui.models import Item, WithheldItem
from daimon_tui.models.records import Record

if TYPE_CHECKING:  # annotations only: the team's models load with the team (not at a later open's first frame)
    from daimon_tui.models.team import TeamItem

FORMAT = 1
NEW = "new"
# A world contradiction or a supersede/agent claim beats every badge.
CONTRADICTIONS = frozenset({"world-contradicted", "supersede-candidate", "agent-claim", "recorded-contradicted"})
# Open times kept, so `review --since` has a default (the previous review).
RUNS_KEPT = 20
# How long a row's detail must be on screen for the row to count as read.
DWELL_S = 1.0
# Said where the rule bites: after the cursor passed a row too fast to count it.
DWELL_RULE = f"a row counts after {DWELL_S:g} s under the cursor, or m"


@dataclasses.dataclass(frozen=True, slots=True)
class Seen:
    """The fingerprint of one row as it was seen. Not a `Record`: the list
    fingerprints and compares thousands of rows on the UI thread. The file
    keeps it as an array (`store/review_file.py`)."""

    text: str = ""
    mark: str = ""
    badges: tuple[str, ...] = ()
    state: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Reviewed:
    """A fingerprint recorded as reviewed, and when (ISO UTC)."""

    seen: Seen
    at: str = ""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReviewState(Record):
    """One project's review: fingerprints by row key, the salt they were hashed
    with, and when the app opened the project (newest last)."""

    format: int = FORMAT
    salt: str = dataclasses.field(default_factory=lambda: secrets.token_hex(16))
    rows: dict[str, Reviewed] = dataclasses.field(default_factory=dict)
    runs: tuple[str, ...] = ()

    def opened(self, when: str) -> ReviewState:
        return self.model_copy(update={"runs": (*self.runs, when)[-RUNS_KEPT:]})

    def previous_run(self) -> str | None:
        """When the review before this one began (the latest run is this one)."""
        return self.runs[-2] if len(self.runs) > 1 else None

    def with_reviewed(self, found: dict[str, Seen], when: str) -> ReviewState:
        rows = dict(self.rows)
        for key, seen in found.items():
            rows[key] = Reviewed(seen, when)
        return self.model_copy(update={"rows": rows})

    def kept_only(self, keys: Iterable[str]) -> ReviewState:
        """Drop what no longer exists (a forget removed it): the state names only live rows."""
        live = set(keys)
        return self.model_copy(update={"rows": {k: v for k, v in self.rows.items() if k in live}})


def text_hash(salt: str, text: str) -> str:
    return hashlib.sha256(f"{salt}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:24]


def item_key(item: Item | WithheldItem) -> str | None:
    return item.id or None


def team_key(entry: TeamItem) -> str | None:
    return f"team:{entry.item.id}" if entry.item.id else None


def seen_item(item: Item, salt: str) -> Seen:
    return Seen(text=text_hash(salt, item.text), mark=item.mark,
                badges=tuple(sorted(b.token for b in item.badges)), state=item.state)


def seen_withheld(entry: WithheldItem) -> Seen:
    return Seen(state=entry.state)


def seen_team(entry: TeamItem, salt: str) -> Seen:
    seen = seen_item(entry.item, salt)
    # another author stating the same claim is a change; their names are hashed too
    authors = tuple(f"author:{text_hash(salt, a)[:8]}" for a in sorted(entry.authors))
    return dataclasses.replace(seen, badges=(*seen.badges, *authors))


def _corroboration(badges: tuple[str, ...]) -> int:
    for token in badges:
        kind, _, count = token.partition(":")
        if kind == "corroborated":
            return int(count) if count.isdigit() else 0
    return 0


def _kinds(badges: tuple[str, ...]) -> set[str]:
    return {t.partition(":")[0] for t in badges if not t.startswith("author:")}


def _label(kind: str) -> str:
    return BADGES.get(kind, (kind, ""))[0]


def what_changed(before: Seen | None, now: Seen) -> str | None:
    """None when nothing changed; else a few words, most telling first."""
    if before is None:
        return NEW
    if before == now:
        return None
    said: list[str] = []
    if before.state != now.state:
        said.append(f"was {before.state}" if now.state == "visible" else f"now {now.state}")
    if not before.mark or not now.mark:
        # a withheld row shows no text, mark or badge: only its state compares
        return said[0] if said else None
    gained, lost = _kinds(now.badges) - _kinds(before.badges), _kinds(before.badges) - _kinds(now.badges)
    if gained & CONTRADICTIONS:
        said.append("contradicted")
    if before.mark != now.mark:
        said.append(f"was {MARKS[before.mark].label}" if before.mark in MARKS else "mark changed")
    witnesses = _corroboration(now.badges) - _corroboration(before.badges)
    if witnesses:
        said.append(f"{witnesses:+d} witness" + ("es" if abs(witnesses) > 1 else ""))
    if "recorded-confirmed" in gained:
        said.append("world agrees")
    said.extend(f"+{_label(k)}" for k in sorted(gained - CONTRADICTIONS - {"corroborated", "recorded-confirmed"}))
    said.extend(f"−{_label(k)}" for k in sorted(lost - {"corroborated"}))
    authors = {t for t in now.badges if t.startswith("author:")} - set(before.badges)
    if authors:
        said.append(f"+{len(authors)} author" + ("s" if len(authors) > 1 else ""))
    if before.text != now.text:
        said.append("text changed")
    return ", ".join(said[:3]) if said else "changed"


def header_words(new: int) -> str:
    """The header's words, as the issue spells them."""
    return "nothing new since your last review" if new == 0 else f"{new} new since your last review"


def progress_words(reviewed: int, total: int, *, passed_too_fast: bool = False) -> str:
    words = f"{reviewed:,} of {total:,} reviewed"
    return f"{words} · {DWELL_RULE}" if passed_too_fast else words


def rest_counts(rested_s: float, *, person_here: bool) -> bool:
    """Whether a rest of the cursor on a row counts as reading it: `DWELL_S`
    at least, and only once a key said a person is there (the cursor the app
    puts on the first row at opening reads nothing by itself)."""
    return person_here and rested_s >= DWELL_S
