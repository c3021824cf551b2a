"""The part of our shared vocabulary a headless search (and `brief
--as-daimon`) needs: frozen, slotted dataclasses that import no pydantic.

pydantic costs a fresh process ~130 ms to import, more than `daimon recall`'s
own work on a small store, and `daimon-tui search` needs none of its
validation: it builds these from daimon's rows and prints them. They keep the
interface of `models.Frozen` (`model_copy`, `model_dump`, `model_dump_json`,
`model_validate`), so a pydantic model holds them as fields and the judging
child sends them like any other answer; pydantic is imported, and validates
exactly as it does a model's fields (`extra="forbid"`, `Literal`s), only when
one of those is called. `models` names each of them too.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, ClassVar, Literal, Self


@functools.cache
def _adapter(cls: type) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(cls)


class Record:
    """Base of a frozen dataclass with `models.Frozen`'s interface; each is
    declared `@dataclass(frozen=True, slots=True, kw_only=True)`."""

    __slots__ = ()
    # read by pydantic when it validates one (a field of a model, a child's answer)
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        return dataclasses.replace(self, **(update or {}))  # type: ignore[type-var]

    def model_dump(self, **options: Any) -> dict[str, Any]:
        return _adapter(type(self)).dump_python(self, **options)

    def model_dump_json(self, **options: Any) -> str:
        return _adapter(type(self)).dump_json(self, **options).decode()

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        return _adapter(cls).validate_python(obj)


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
