"""The `/` filter of the table views (History, Audit, Log, the project
switcher): words a row must hold somewhere in its cells, any case; a leading
`-` leaves out the rows that hold the word."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RowQuery:
    wanted: tuple[str, ...] = ()
    unwanted: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.wanted or self.unwanted)

    def matches(self, cells: Iterable[object]) -> bool:
        text = " ".join(str(c) for c in cells if c is not None).casefold()
        return all(w in text for w in self.wanted) and not any(w in text for w in self.unwanted)


def read(query: str) -> RowQuery:
    wanted: list[str] = []
    unwanted: list[str] = []
    for word in query.casefold().split():
        if word.startswith("-") and len(word) > 1:
            unwanted.append(word[1:])
        elif word != "-":
            wanted.append(word)
    return RowQuery(tuple(wanted), tuple(unwanted))
