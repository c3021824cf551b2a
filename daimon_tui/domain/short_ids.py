"""Ids shortened as git shortens hashes: the shortest prefix, of at least a
few characters, that no other id shown beside it shares. The full id stays
where the person acts on it (the detail, a copy, a row's key)."""

from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 7
# An id this short is shown whole: "S-alice-1" cut to "S-alice" would name
# another session, and a hash-like id is what takes the room.
WHOLE_MAX = 12


def shortest_unique(ids: Iterable[str], min_length: int = MIN_LENGTH) -> dict[str, str]:
    """Each id's shortest unique prefix (at least `min_length`, never longer than the id)."""
    unique = sorted(set(ids))
    short: dict[str, str] = {}
    for n, full in enumerate(unique):
        # In sorted order, the longest shared prefix is with a neighbour.
        shared = 0
        for other in (unique[n - 1] if n else None, unique[n + 1] if n + 1 < len(unique) else None):
            if other is not None:
                common = next((i for i, (a, b) in enumerate(zip(full, other, strict=False)) if a != b),
                              min(len(full), len(other)))
                shared = max(shared, common)
        short[full] = full if len(full) <= WHOLE_MAX else full[: max(min_length, shared + 1)]
    return short


def short_id(full: str, min_length: int = MIN_LENGTH) -> str:
    """One id shown alone (a header): its first `min_length` characters (a short id whole)."""
    return full if len(full) <= WHOLE_MAX else full[:min_length]
