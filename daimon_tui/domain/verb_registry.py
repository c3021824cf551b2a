"""The curation verbs' one registry: each verb's name, key, title and help,
read by the keys, the palette and `?`. Plain dataclasses: importing it builds
no validator at startup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

VerbName = Literal["resolve", "retract", "restore", "reverify", "forget", "undo"]


@dataclass(frozen=True, slots=True)
class VerbSpec:
    """A static registry entry (never parsed from input): a plain dataclass,
    so importing the verbs builds no validator at startup."""

    name: VerbName
    key: str
    title: str
    help: str
    batch: bool = True
    irreversible: bool = False


VERBS: tuple[VerbSpec, ...] = (
    VerbSpec(name="resolve", key="r", title="Resolve",
             help="The world changed: close the item with a status and a note"),
    VerbSpec(name="retract", key="x", title="Retract",
             help="The claim was wrong: quarantine its value, with a reason and evidence"),
    VerbSpec(name="restore", key="u", title="Restore",
             help="Undo a person's verdict: reopen a resolution, release a quarantine, lift a forget"),
    VerbSpec(name="reverify", key="v", title="Reverify",
             help="Re-check the item; with evidence (or a live anchor) reopen it"),
    VerbSpec(name="forget", key="F", title="Forget", batch=False, irreversible=True,
             help="Remove the value everywhere daimon holds it (type the id to confirm)"),
    VerbSpec(name="undo", key="z", title="Undo", batch=False,
             help="Undo the last undoable action, named with its time and items, with a compensating record"),
)


def verb(name: str) -> VerbSpec:
    for spec in VERBS:
        if spec.name == name:
            return spec
    raise KeyError(name)


def verb_for_key(key: str) -> VerbSpec | None:
    return next((spec for spec in VERBS if spec.key == key), None)
