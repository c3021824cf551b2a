"""Issue 42 point 2: each of Health's moments asks every session's deciding
witness rows of the same ledger state (`asof_moments.session_moment_rows`).
The answer is kept for the very rows object `_status_rows` keeps: asking again
hashes none of the ~100k (status, ts) pairs (an lru_cache key hashed them all,
at every moment), and rows that are equal but not the same object still hit."""

from __future__ import annotations

from daimon_tui.store.read import asof_moments


class _Counted(tuple):
    hashed = 0

    def __hash__(self) -> int:
        type(self).hashed += 1
        return super().__hash__()


def _rows(n: int) -> tuple[tuple[str, str], ...]:
    return tuple((f"corroborated-by:S-{k % 7}", f"2026-03-01T09:{k // 60 % 60:02d}:{k % 60:02d}Z") for k in range(n))


def test_asking_again_for_the_same_rows_hashes_none_of_them() -> None:
    rows = _Counted(_rows(500))
    _Counted.hashed = 0
    first = asof_moments._deciding(rows)
    again = asof_moments._deciding(rows)
    assert again is first
    assert asof_moments._by_session(rows) is asof_moments._by_session(rows)
    assert _Counted.hashed == 0, _Counted.hashed


def test_equal_rows_of_another_object_get_the_same_answer() -> None:
    rows = _rows(300)
    first = asof_moments._deciding(rows)
    assert asof_moments._deciding(tuple(list(rows))) == first
    assert asof_moments._deciding(_rows(301)) != first or _rows(301) == rows
    assert set(first) == {f"S-{k}" for k in range(7)}


def test_a_copy_reads_the_buckets_pointers_once(demo_store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each charted moment's copy looks up, for every session in the pointer
    window, the bytes a retained pointer holds: the bucket's pointers are
    listed once per copy, not once a session (twice for each in the window)."""
    from pathlib import Path

    from daimon_tui.store.read import asof, reader

    listed: list[str] = []
    real = Path.glob

    def counting(self: Path, pattern: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if pattern == "*.json":
            listed.append(str(self))
        return real(self, pattern, *args, **kwargs)

    monkeypatch.setattr(Path, "glob", counting)
    ref = reader.resolve_project(str(demo_store.project))
    with asof.as_of(ref, "S-day3") as cut:
        assert cut.session_id == "S-day3" and len(cut.sessions) == 3
    assert len(listed) == 1, listed
