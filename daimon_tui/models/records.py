"""`Record`, the base of every value type that crosses the judging child's
pipe or is checked or dumped by pydantic (docs/architecture.md, "The model"):
a frozen, slotted, keyword-only dataclass that imports no pydantic.

pydantic costs a fresh process ~130 ms to import, more than `daimon recall`'s
own work on a small store, and a report needs none of its validation: the
store builds records from daimon's rows and the report prints them. A record
keeps pydantic's interface (`model_copy`, `model_dump`, `model_dump_json`,
`model_validate`), so the judging child sends it like any other answer;
pydantic is imported, and validates it with `extra="forbid"` and its
`Literal`s checked, only when one of those is called. `json_tree` is a
report's JSON without pydantic, computed properties included.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Any, ClassVar, Self


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
    """Base of a frozen dataclass with a pydantic model's interface; each is
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
