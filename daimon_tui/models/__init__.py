"""Our own immutable models of what daimon holds. The UI and domain never see
daimon's dicts or dataclasses: the store layer converts at the seam.

All text fields hold the raw value as daimon stores it; making it inert for a
terminal is the display layer's job (`domain.inert`).

Every value type is a frozen, slotted dataclass on `models.records.Record`
(docs/architecture.md, "The model"). This module declares the shared
vocabulary, what a headless report and the child's early answer need without
pydantic: a project, its briefing and its items, an item's inspection. A
topic has a module of its own here (`history`, `projects`, `search`,
`queue`, `details`, `evidence`, `team`, `writes`), imported only by who
needs it; none is named here again.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from daimon_tui.models.records import Record

Mark = Literal["verbatim", "inferred", "untagged", "unverified-verbatim", "stale"]
ItemState = Literal["visible", "resolved", "superseded", "quarantined", "forgotten", "closed", "withheld"]
BriefState = Literal["briefing", "closed", "no-checkpoint", "empty", "unavailable"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic(Record):
    """Something about the store a person should know: daimon's own notes,
    unreadable files, unknown formats. `repair` is the command daimon suggests."""

    level: Literal["info", "warning", "error"] = "warning"
    source: str = "daimon"
    message: str
    repair: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ProjectRef(Record):
    """Which bucket we read. `target` is what daimon's readers take: the project
    directory when we know it, else the bucket slug."""

    slug: str
    name: str = ""
    path: str | None = None

    @property
    def target(self) -> str:
        return self.path or self.slug


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Handoff(Record):
    """The baton a session left deliberately; daimon prints it above everything."""

    ts: str
    note: str

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(line.strip() for line in self.note.splitlines() if line.strip())


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ProjectSummary(Record):
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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Badge(Record):
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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Item(Record):
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
    # verdict not yet confirmed by daimon's fresh read
    provisional: bool = False
    # whether `daimon brief` prints it now (None: not known)
    briefed: bool | None = None
    # the line `daimon brief` prints for it (it may shorten a long text for budget); None when not briefed or not known
    briefed_line: str | None = None
    # the lines `daimon brief` prints under that one (its world-check's "⚠ state changed since capture" with
    # the confirm and reject commands, a supersede candidate, an agent's claim, amendments)
    briefed_under: tuple[str, ...] = ()

    def has_badge(self, kind: str) -> bool:
        return any(b.kind == kind for b in self.badges)

    @property
    def corroboration(self) -> int:
        return next((b.count or 0 for b in self.badges if b.kind == "corroborated"), 0)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class WithheldItem(Record):
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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Section(Record):
    key: str
    title: str
    items: tuple[Item, ...] = ()
    # daimon's own heading, with its explanation
    header: str = ""
    # daimon's note when it leaves items out
    note: str | None = None

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


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Briefing(Record):
    """The briefing model: daimon's sections in daimon's order."""

    project: ProjectRef
    state: BriefState
    session_id: str | None = None
    created: str | None = None
    format_version: str | None = None
    handoff: Handoff | None = None
    greeting: str = ""
    # daimon's standing-rulings block, header first
    rulings: tuple[str, ...] = ()
    topic: str | None = None
    # daimon's section order, `active_topic` included
    order: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()
    # closed by a resolution: text is the reader's
    resolved: tuple[Item, ...] = ()
    withheld: tuple[WithheldItem, ...] = ()
    degraded: bool = False
    notes: tuple[Diagnostic, ...] = ()
    now: float = 0.0
    # painted before daimon's fresh judgement
    provisional: bool = False
    # read over a kept fold from our cache not yet checked against daimon's full fold this run (`kept_fold_check`)
    kept_unchecked: bool = False

    def items(self) -> tuple[Item, ...]:
        return tuple(item for section in self.sections for item in section.items)

    def find(self, item_id: str) -> Item | None:
        for item in (*self.items(), *self.resolved):
            if item.id == item_id:
                return item
        return None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Axis(Record):
    name: str
    value: str
    meaning: str


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Inspection(Record):
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
