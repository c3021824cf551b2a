"""Health's pass reads each moment's copy of every other bucket's events
ledger (forget rows only: the same bytes at every moment, left alone by the
copy) through daimon's read, 39 small files x 30 moments on the heavy store.
Inside the pass (`in_memory_only`) daimon's read of a small ledger is kept
while the file's stat key stands: read again only when it changed. Outside
it, every read is daimon's own, as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store.judging import kept_fold


@pytest.fixture(autouse=True)
def nothing_held() -> Iterator[None]:
    kept_fold.forget_held()
    yield
    kept_fold.forget_held()


def _ledger(tmp_path: Path) -> Path:
    ledger = tmp_path / "copy" / "events.jsonl"
    ledger.parent.mkdir()
    ledger.write_text(json.dumps({"item_ref": "i-1", "status": "forgotten:k", "ts": "2026-03-01T09:00:00Z"}) + "\n")
    return ledger


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    read: list[Path] = []
    daimons = kept_fold.KEPT.daimon.read

    def counting(path, **options):  # type: ignore[no-untyped-def]
        read.append(Path(path))
        return daimons(path, **options)

    monkeypatch.setattr(kept_fold.KEPT.daimon, "read", counting)
    return read


def test_in_the_pass_a_small_ledger_that_did_not_change_is_not_read_again(tmp_path: Path, monkeypatch) -> None:
    ledger = _ledger(tmp_path)
    read = _counting(monkeypatch)
    with kept_fold.in_memory_only(), kept_fold.active():
        first = kept_fold.KEPT.read(ledger)
        again = kept_fold.KEPT.read(ledger)
    assert len(read) == 1, read
    assert again == first and again.rows is not first.rows  # the caller's own list
    with ledger.open("a") as handle:  # a write moves its stat key: daimon reads it again
        handle.write(json.dumps({"item_ref": "i-2", "status": "forgotten:j", "ts": "2026-03-01T09:00:01Z"}) + "\n")
    with kept_fold.in_memory_only(), kept_fold.active():
        grown = kept_fold.KEPT.read(ledger)
    assert len(read) == 2 and len(grown.rows) == 2
    kept_fold.forget_under(str(ledger.parent))  # the pass removes its copy: nothing kept of it
    with kept_fold.in_memory_only(), kept_fold.active():
        kept_fold.KEPT.read(ledger)
    assert len(read) == 3


def test_outside_the_pass_every_read_is_daimons(tmp_path: Path, monkeypatch) -> None:
    ledger = _ledger(tmp_path)
    read = _counting(monkeypatch)
    with kept_fold.active():
        kept_fold.KEPT.read(ledger)
        kept_fold.KEPT.read(ledger)
    assert len(read) == 2
