"""Our own immutable models of what daimon holds. The UI and domain never see
daimon's dicts or dataclasses: the store layer converts at the seam.

All text fields hold the raw value as daimon stores it; making it inert for a
terminal is the display layer's job (`domain.inert`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# The vocabulary a headless report needs without pydantic (`records`), one definition, named here too.
from daimon_tui.records import Diagnostic as Diagnostic
from daimon_tui.records import Handoff as Handoff
from daimon_tui.records import ProjectRef as ProjectRef

Mark = Literal["verbatim", "inferred", "untagged", "unverified-verbatim", "stale"]
ItemState = Literal["visible", "resolved", "superseded", "quarantined", "forgotten", "closed", "withheld"]


class Frozen(BaseModel):
    # defer_build: a model's validator is built on its first use, not at
    # import; the app starts (first paint) without building the dozens it
    # does not need yet.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ProjectSummary(Frozen):
    slug: str
    name: str
    session_id: str | None = None
    created: str | None = None
    git_branch: str | None = None
    topic: str | None = None
    visible_items: int | None = None
    readable: bool = True
    closed: bool = False
    mtime: float = 0.0


class Badge(Frozen):
    """One badge on an item, in daimon's print order. `kind` is stable
    (`carried`, `corroborated`, `world-checked`, `world-contradicted`,
    `foreign-verbatim`, `supersede-candidate`, `agent-claim`, `amended`,
    `noted`, and `recorded-confirmed` / `recorded-contradicted` for the
    verdicts daimon's own world-check recorded); `count` is set for
    `corroborated`; `detail` is extra text."""

    kind: str
    count: int | None = None
    detail: str | None = None

    @property
    def token(self) -> str:
        """The JSON token: `carried`, `corroborated:3`, ..."""
        return f"{self.kind}:{self.count}" if self.count is not None else self.kind


class Item(Frozen):
    """One briefing item as daimon judges it."""

    id: str | None
    kind: str
    section: str
    field: str
    text: str
    quote: str | None = None
    because: str | None = None
    trust: str | None = None
    mark: Mark
    stored_mark: Mark
    badges: tuple[Badge, ...] = ()
    state: ItemState = "visible"
    stale_days: float | None = None
    origin_session: str | None = None
    origin_author: str | None = None
    first_seen: str | None = None
    carried_from: str | None = None
    quote_verified: bool | None = None
    external_state: bool = False
    anchored_to: str | None = None
    briefable: bool = False
    line: str = ""
    closing_status: str | None = None
    closing_ts: str | None = None
    closing_source: str | None = None
    closing_note: str | None = None
    extra_lines: tuple[str, ...] = ()
    provisional: bool = Field(default=False, description="verdict not yet confirmed by daimon's fresh read")
    briefed: bool | None = Field(default=None, description="whether `daimon brief` prints it now (None: not known)")
    briefed_line: str | None = Field(default=None, description="the line `daimon brief` prints for it (it may "
                                     "shorten a long text for budget); None when not briefed or not known")

    def has_badge(self, kind: str) -> bool:
        return any(b.kind == kind for b in self.badges)

    @property
    def corroboration(self) -> int:
        return next((b.count or 0 for b in self.badges if b.kind == "corroborated"), 0)


class WithheldItem(Frozen):
    """An item daimon will not show: identity and reason, never text."""

    id: str | None
    kind: str
    state: ItemState
    quarantine_id: str | None = None
    origin_session: str | None = None
    when: str | None = None
    # a historical view: the item stood then; its value was forgotten at this
    # later time, and a forget is never undone by going back
    forgotten_after: str | None = None


class Section(Frozen):
    key: str
    title: str
    items: tuple[Item, ...] = ()
    header: str = Field(default="", description="daimon's own heading, with its explanation")
    note: str | None = Field(default=None, description="daimon's note when it leaves items out")

    def briefed_count(self) -> int | None:
        """How many of the items daimon briefs; None when that is not known."""
        if any(i.briefed is None for i in self.items):
            return None
        return sum(1 for i in self.items if i.briefed)

    def count_label(self) -> str:
        """`4`, or `10 of 16 briefed` when daimon leaves some out for budget."""
        briefed = self.briefed_count()
        total = len(self.items)
        return f"{briefed} of {total} briefed" if briefed is not None and briefed < total else str(total)


BriefState = Literal["briefing", "closed", "no-checkpoint", "empty", "unavailable"]


class Briefing(Frozen):
    """The briefing model: daimon's sections in daimon's order."""

    project: ProjectRef
    state: BriefState
    session_id: str | None = None
    created: str | None = None
    format_version: str | None = None
    handoff: Handoff | None = None
    greeting: str = ""
    rulings: tuple[str, ...] = Field(default=(), description="daimon's standing-rulings block, header first")
    topic: str | None = None
    order: tuple[str, ...] = Field(default=(), description="daimon's section order, `active_topic` included")
    sections: tuple[Section, ...] = ()
    resolved: tuple[Item, ...] = Field(default=(), description="closed by a resolution: text is the reader's")
    withheld: tuple[WithheldItem, ...] = ()
    degraded: bool = False
    notes: tuple[Diagnostic, ...] = ()
    now: float = 0.0
    provisional: bool = Field(default=False, description="painted before daimon's fresh judgement")
    kept_unchecked: bool = Field(default=False, description="read over a kept fold from our cache not yet "
                                 "checked against daimon's full fold this run (`kept_fold_check`)")

    def items(self) -> tuple[Item, ...]:
        return tuple(item for section in self.sections for item in section.items)

    def find(self, item_id: str) -> Item | None:
        for item in (*self.items(), *self.resolved):
            if item.id == item_id:
                return item
        return None


class Axis(Frozen):
    name: str
    value: str
    meaning: str


class Inspection(Frozen):
    """daimon's trust inspector (`why`) for one item, reduced to what we show."""

    item_id: str
    found: bool
    withheld: bool = False
    axes: tuple[Axis, ...] = ()
    corroboration_count: int = 0
    corroboration_refs: tuple[str, ...] = ()
    lifecycle_status: str | None = None
    lifecycle_ts: str | None = None
    lifecycle_source: str | None = None
    occurrences: int = 0
    origin_session: str | None = None
    lines: tuple[str, ...] = ()


class SessionSummary(Frozen):
    session_id: str
    created: str | None = None
    topic: str | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    # daimon's tamper check of the session file (`view.receipt_state`):
    # unsigned, missing, match, or mismatch (changed after signing).
    receipt: str | None = None
    # The pointer that still holds it (`latest.json`, `prev-N.json`): what daimon reads.
    pointer: str | None = None


# ---- team memory ----------------------------------------------------------------


class TeamItem(Frozen):
    """One item of a teammate's briefing, as `daimon brief --team` prints it.
    `authors` is everyone whose latest briefing states this id (the reader
    included); more than one is a shared claim, never corroboration."""

    item: Item
    authors: tuple[str, ...] = ()

    @property
    def shared(self) -> bool:
        return len(self.authors) > 1


class Teammate(Frozen):
    """A teammate's section of `daimon brief --team`, in daimon's order, plus
    where it came from: their session, their checkout's bucket, the remotes
    holding their directory."""

    author: str
    session_id: str | None = None
    created: str | None = None
    project_slug: str | None = None
    remotes: tuple[str, ...] = ()
    arrived: str | None = Field(default=None, description="when this checkpoint reached the team clone")
    topic: str | None = None
    topic_label: str | None = Field(default=None, description="daimon's label when the topic was claimed verbatim")
    decisions: tuple[TeamItem, ...] = ()
    decisions_note: str | None = None


class TeamRemote(Frozen):
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


class TeamQuarantine(Frozen):
    """A quarantine a teammate published and still claims: kind, who, when;
    never a value or id (what `daimon trust list --team` shows at a terminal)."""

    kind: str
    author: str
    ts: str


class OwnQuarantine(Frozen):
    """One of the reader's own active quarantines and where it is published."""

    quarantine_id: str
    kind: str
    published_to: tuple[str, ...] = ()
    missing_from: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


NOT_CORROBORATION = "daimon does not count the same claim from several authors as corroboration"
SYNC_COMMAND = "daimon team sync"


class TeamView(Frozen):
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
    publishes_to: tuple[str, ...] = Field(default=(), description="where a new human quarantine is published now")
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
