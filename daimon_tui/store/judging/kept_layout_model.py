"""A kept layout's tree back into our `Briefing`, checked field by field, without pydantic.

The tree comes from our own cache file (untrusted): every field must be one
the record declares, of the type it declares (its annotation, read here), and
every Literal one of its words; anything else reads as no briefing at all.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

import daimon_tui.models as models
from daimon_tui.models import Badge, Briefing, Diagnostic, Handoff, Item, ProjectRef, Section, WithheldItem
from daimon_tui.models.records import Record

_RECORDS: dict[str, type[Record]] = {cls.__name__: cls for cls in
                                     (Badge, Briefing, Diagnostic, Handoff, Item, ProjectRef, Section, WithheldItem)}
_SCALARS: dict[str, tuple[type, ...]] = {"str": (str,), "bool": (bool,), "int": (int,), "float": (int, float)}


class Invalid(ValueError):
    pass


@functools.cache
def _fields(cls: type) -> dict[str, str]:
    return {f.name: str(f.type) for f in dataclasses.fields(cls)}


@functools.cache
def _required(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls)
                     if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)


def _literal_words(name: str) -> frozenset[str] | None:
    if name.startswith("Literal["):
        return frozenset(w.strip().strip("'\"") for w in name[len("Literal["):-1].split(","))
    alias = getattr(models, name, None)
    if typing.get_origin(alias) is typing.Literal:
        return frozenset(typing.get_args(alias))
    return None


def _value(annotation: str, raw: Any) -> Any:
    choices = [a.strip() for a in annotation.split(" | ")] if not annotation.startswith("Literal[") else [annotation]
    for choice in choices:
        if choice == "None":
            if raw is None:
                return None
            continue
        if choice.startswith("tuple[") and choice.endswith(", ...]"):
            if isinstance(raw, list):
                return tuple(_value(choice[len("tuple["):-len(", ...]")], r) for r in raw)
            continue
        if choice in _SCALARS:
            if isinstance(raw, _SCALARS[choice]) and not (choice != "bool" and isinstance(raw, bool)):
                return float(raw) if choice == "float" else raw
            continue
        if choice in _RECORDS:
            if isinstance(raw, dict):
                return build(_RECORDS[choice], raw)
            continue
        words = _literal_words(choice)
        if words is not None and isinstance(raw, str) and raw in words:
            return raw
    raise Invalid(annotation)


def build(cls: type[Record], raw: dict[str, Any]) -> Any:
    fields = _fields(cls)
    if not set(raw) <= set(fields) or not _required(cls) <= set(raw):
        raise Invalid(cls.__name__)
    return cls(**{name: _value(fields[name], value) for name, value in raw.items()})  # type: ignore[call-arg]


def briefing_from_tree(tree: dict[str, Any]) -> Briefing | None:
    """The briefing the tree spells, or None when it is not one."""
    try:
        briefing = build(Briefing, tree)
    except (Invalid, TypeError, ValueError, RecursionError):
        return None
    return briefing


def project_from_tree(tree: dict[str, Any]) -> ProjectRef | None:
    try:
        return build(ProjectRef, tree)
    except (Invalid, TypeError, ValueError, RecursionError):
        return None
