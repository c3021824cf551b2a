"""Team memory as the reader's daimon shows it (read-only): teammates'
briefings, the team remotes' clones, and the quarantines published to them
(read by `store/read/team.py`, shown by the team section and `team`)."""

from __future__ import annotations

import dataclasses

from daimon_tui.models import Diagnostic, Item
from daimon_tui.models.records import Record


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TeamItem(Record):
    """One item of a teammate's briefing, as `daimon brief --team` prints it.
    `authors` is everyone whose latest briefing states this id (the reader
    included); more than one is a shared claim, never corroboration."""

    item: Item
    authors: tuple[str, ...] = ()

    @property
    def shared(self) -> bool:
        return len(self.authors) > 1


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Teammate(Record):
    """A teammate's section of `daimon brief --team`, in daimon's order, plus
    where it came from: their session, their checkout's bucket, the remotes
    holding their directory."""

    author: str
    session_id: str | None = None
    created: str | None = None
    project_slug: str | None = None
    remotes: tuple[str, ...] = ()
    arrived: str | None = None  # when this checkpoint reached the team clone
    topic: str | None = None
    topic_label: str | None = None  # daimon's label when the topic was claimed verbatim
    decisions: tuple[TeamItem, ...] = ()
    decisions_note: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TeamRemote(Record):
    """One team remote's local clone, read without touching the remote:
    `last_sync` is when the clone last heard from it (its tracking ref moved)."""

    slug: str
    branch: str = "main"
    last_sync: str | None = None
    unpushed: int = 0
    pending: int = 0
    authors: tuple[str, ...] = ()
    # Which repositories' checkpoints the remote receives (daimon-team.toml [scope]; empty: none),
    # whether DAIMON_TEAM_PROJECT grants them instead, and a broken toml's parse error.
    scope: tuple[str, ...] = ()
    granted_by_env: bool = False
    config_warning: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TeamQuarantine(Record):
    """A quarantine a teammate published and still claims: kind, who, when;
    never a value or id (what `daimon trust list --team` shows at a terminal)."""

    kind: str
    author: str
    ts: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class OwnQuarantine(Record):
    """One of the reader's own active quarantines and where it is published."""

    quarantine_id: str
    kind: str
    published_to: tuple[str, ...] = ()
    missing_from: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


NOT_CORROBORATION = "daimon does not count the same claim from several authors as corroboration"
SYNC_COMMAND = "daimon team sync"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class TeamView(Record):
    """Team memory as the reader's daimon shows it (read-only)."""

    author: str
    remotes: tuple[TeamRemote, ...] = ()
    teammates: tuple[Teammate, ...] = ()
    resolved_withheld: int = 0
    quarantined_withheld: int = 0
    # of those, the items a teammate's published quarantine withholds (not the reader's ledgers)
    team_quarantined_withheld: int = 0
    team_quarantines: tuple[TeamQuarantine, ...] = ()
    own_quarantines: tuple[OwnQuarantine, ...] = ()
    routed: bool = False
    publishes_to: tuple[str, ...] = ()  # where a new human quarantine is published now
    notes: tuple[Diagnostic, ...] = ()

    @property
    def configured(self) -> bool:
        return bool(self.remotes or self.teammates)

    def items(self) -> tuple[TeamItem, ...]:
        return tuple(d for mate in self.teammates for d in mate.decisions)

    def find(self, item_id: str) -> tuple[Teammate, TeamItem] | None:
        for mate in self.teammates:
            for entry in mate.decisions:
                if entry.item.id == item_id:
                    return mate, entry
        return None
