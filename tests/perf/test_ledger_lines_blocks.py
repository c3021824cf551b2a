"""The byte search of the events ledger reads it a block at a time (the app
never holds the whole ledger) and finds exactly the lines that spell the word,
wherever the blocks cut them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from daimon_tui.store.read import ledger_lines

LINES = ['{"kind": "handoff", "note": "one"}', "", '{"kind": "event", "note": "' + "x" * 40 + '"}',
         '{"note": "a long line naming handoff at its end ' + "y" * 30 + '"}', "   ", "handoff", '{"torn": "handoff']


def _expected(text: str, word: str) -> list[str]:
    return [line for line in text.split("\n") if word in line]


@pytest.mark.parametrize("block", [1, 5, 7, 16, 64, 1 << 20])
@pytest.mark.parametrize("ending", ["\n", ""])
def test_the_lines_found_do_not_depend_on_the_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    block: int, ending: str) -> None:
    text = "\n".join(LINES) + ending
    path = tmp_path / "events.jsonl"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(ledger_lines, "SEARCH_BLOCK", block)
    found = ledger_lines.lines_spelling(path, "handoff")
    assert found == _expected(text, "handoff") and len(found) == 4


def test_no_read_holds_more_than_a_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(LINES * 50) + "\n", encoding="utf-8")
    monkeypatch.setattr(ledger_lines, "SEARCH_BLOCK", 256)
    reads: list[int] = []
    real = os.read

    def spied(fd: int, n: int) -> bytes:
        reads.append(n)
        return real(fd, n)

    monkeypatch.setattr(os, "read", spied)
    assert len(ledger_lines.lines_spelling(path, "handoff")) == 200
    assert reads and max(reads) <= 256 and sum(reads) >= path.stat().st_size


def test_an_empty_or_absent_ledger_spells_nothing(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    assert ledger_lines.lines_spelling(path, "handoff") == []
    path.write_bytes(b"")
    assert ledger_lines.lines_spelling(path, "handoff") == []


def test_a_byte_search_routed_in_safe_mode_is_routed_once_the_mode_is_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Safe mode routes nothing; the mode decided again as full (a later test
    of the same process, as the CLI's safe-mode test then the baton's) must
    route daimon's events read through the rows given, not stay latched off."""
    from daimon_briefing import jsonl, view

    from daimon_tui.store.daimon_api import mode

    # whatever this test routes is put back after it, as it found it
    for module, name in ((jsonl, "read"), (view, "judge"), (ledger_lines, "_next_read"),
                         (ledger_lines, "_next_judge")):
        monkeypatch.setattr(module, name, getattr(module, name))
    monkeypatch.setattr(ledger_lines, "_installed", False)
    monkeypatch.setenv(mode.ENV_SAFE, "1")
    mode.set_current(None)
    try:
        ledger_lines.install()  # safe: nothing routed
    finally:
        monkeypatch.delenv(mode.ENV_SAFE)
        mode.set_current(None)
    assert not mode.current().safe
    path = tmp_path / "events.jsonl"
    path.write_text('{"item_ref": "a", "status": "resolved"}\n', encoding="utf-8")
    given = jsonl.Read(jsonl.Health.OK, [])
    with ledger_lines.events_as(given):
        assert jsonl.read(path) is given
