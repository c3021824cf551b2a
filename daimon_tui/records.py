"""The part of our shared vocabulary the headless reports (`brief`, `search`,
`audit`) need: frozen, slotted dataclasses that import no pydantic. A record
only one report holds (the audit's rows) is declared next to its reader, on
`Record`.

pydantic costs a fresh process ~130 ms to import, more than `daimon recall`'s
own work on a small store, and a report needs none of its validation: the
store builds these from daimon's rows and the report prints them. They keep the
interface of `models.Frozen` (`model_copy`, `model_dump`, `model_dump_json`,
`model_validate`), so a pydantic model holds them as fields and the judging
child sends them like any other answer; pydantic is imported, and validates
exactly as it does a model's fields (`extra="forbid"`, `Literal`s), only when
one of those is called. `models` names each of those here too. `json_tree` is
a report's JSON without pydantic, computed properties included.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Any, ClassVar, Literal, Self

Mark = Literal["verbatim", "inferred", "untagged", "unverified-verbatim", "stale"]
ItemState = Literal["visible", "resolved", "superseded", "quarantined", "forgotten", "closed", "withheld"]
BriefState = Literal["briefing", "closed", "no-checkpoint", "empty", "unavailable"]


@functools.cache
def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    return dataclasses.fields(cls)


@functools.cache
def _layout(cls: type) -> tuple[Any, tuple[Any, ...]]:
    """One getter of all a record class's field values (a tuple), and each
    field's slot, whose `__set__` fills a new instance, frozen or not."""
    names = tuple(f.name for f in _fields(cls))
    read = operator.attrgetter(*names) if len(names) > 1 else lambda record: (getattr(record, names[0]),)
    return read, tuple(cls.__dict__[name] for name in names)


@functools.cache
def _tuple_fields(cls: type) -> tuple[str, ...]:
    # annotations are strings here (`from __future__ import annotations`)
    return tuple(f.name for f in _fields(cls) if str(f.type).startswith("tuple["))


@functools.cache
def _adapter(cls: type) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(cls)


def _json_value(value: Any, computed: bool) -> Any:
    if isinstance(value, Record):
        return value.json_tree(computed=computed)
    if isinstance(value, tuple | list):
        return [_json_value(v, computed) for v in value]
    return value


class Record:
    """Base of a frozen dataclass with `models.Frozen`'s interface; each is
    declared `@dataclass(frozen=True, slots=True, kw_only=True)`."""

    __slots__ = ()
    # read by pydantic when it validates one (a field of a model, a child's answer)
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    # properties `json_tree` reports after the fields; never sent to the app
    # (a property is recomputed from the fields there)
    json_computed: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        # A sequence field is a tuple, as pydantic coerced it: a record given a
        # list stays hashable and equal to the same record read another way.
        for name in _tuple_fields(type(self)):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    def json_tree(self, *, computed: bool = True) -> dict[str, Any]:
        """The record as JSON-ready data, without pydantic: the fields in
        declaration order, then the properties named in `json_computed` (where
        pydantic's `computed_field`s went; left out with `computed=False`, as
        `model_dump_json(round_trip=True)` leaves them out); records nested,
        tuples as lists."""
        names = (*(f.name for f in _fields(type(self))), *(self.json_computed if computed else ()))
        return {name: _json_value(getattr(self, name), computed) for name in names}

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        # As pydantic's: the fields as they are, `update` set over them unvalidated
        # (a briefing's thousands of items are copied for each confirmation).
        cls = type(self)
        read, slots = _layout(cls)
        copy = object.__new__(cls)
        for slot, value in zip(slots, read(self), strict=True):
            slot.__set__(copy, value)
        for name, value in (update or {}).items():
            object.__setattr__(copy, name, value)
        return copy

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return _adapter(type(self)).dump_python(self, **options)

    def model_dump_json(self, **options: Any) -> str:
        return _adapter(type(self)).dump_json(self, **options).decode()

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        return _adapter(cls).validate_python(obj)

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        return _adapter(cls).validate_json(data)


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
