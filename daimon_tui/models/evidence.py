"""What the evidence view shows of an item's transcripts: the turns around
its quote, the app's own finding where daimon's matcher finds nothing, each
witness's words, the pager's whole copy and a read-ahead step (read by
`store/read/transcripts.py`, answered by the judging child)."""

from __future__ import annotations

import dataclasses

from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Record):
    """One turn of a transcript, masked and cut for display."""

    index: int
    role: str
    speaker: str | None = None
    ts: str | None = None
    text: str
    hidden_before: int = 0
    hidden_after: int = 0
    quoted: bool = False
    spans: tuple[tuple[int, int], ...] = ()  # the quote, in `text`
    masks: tuple[tuple[int, int], ...] = ()  # withheld markers, in `text`
    daimon_output: bool = False


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Finding(Record):
    """The app's own search for a quote daimon's matcher does not reproduce,
    never daimon's verdict: the part of the file that holds it (`where`, a
    `transcript_rows.Part` kind), "other-session" (a turn of another transcript
    of the project holds it), or "absent" (in no part of the file)."""

    where: str
    turn: Turn | None = None
    # "other-session": the session whose transcript holds it, and the turns around it there
    session_id: str | None = None
    turns: tuple[Turn, ...] = ()
    quoted: int | None = None
    total: int = 0


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Excerpt(Record):
    """The turns around a quote in one session's transcript, or why not."""

    session_id: str | None = None
    host: str | None = None
    locator: str = "unsupported"
    bytes: str = "unknown"
    support: str = "not-checked"
    quote: str | None = None
    turns: tuple[Turn, ...] = ()
    quoted: int | None = None
    total: int = 0
    unavailable: str | None = None
    masked: int = 0
    multi_turn: bool = False
    finding: Finding | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WitnessWords(Record):
    session_id: str
    excerpt: Excerpt


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Evidence(Record):
    """Everything `o` and the pane show of an item's transcripts."""

    item_id: str
    withheld: bool = False
    item: Excerpt | None = None
    witnesses: tuple[WitnessWords, ...] = ()
    error: str | None = None
    # The transcripts read and the identity of all it was read from (`transcript_identity`):
    # the app keeps what it was shown while that stands. None: not to be kept.
    sources: tuple[str, ...] = ()
    identity: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class FullTranscript(Record):
    """The whole transcript as plain, masked text for the person's pager,
    with the line the quoted turn starts on."""

    text: str = ""
    line: int = 1
    unavailable: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Warmed(Record):
    """What one warm-up step read, and how many transcripts are left to read."""

    read: int = 0
    left: int = 0
