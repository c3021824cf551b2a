"""Issue 40 point 1, differentially: with daimon's world-check on (DAIMON_WORLDCHECK=1
in daimon's settings, as a person's ~/.daimon/env sets it), the rows `d` shows
(each briefed item's `briefed_line` and the lines under it) are the item lines
`daimon brief` prints, after every step of a drawn history; where a program
(`gh`, the receipt signer) could answer, the briefing says `d` is without it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from tests.daimon_records import project_ref
from tests.receipt_kit import shared_kit
from tests.store.test_differential import COMMON, WORLD_MOVES, Built, Programs, _run_both, build, world_histories
from tests.ui.test_as_daimon_world_check import item_blocks


def d_agrees(root: Path, b: Built, programs: Programs) -> None:
    from daimon_briefing.cli import main as daimon_main

    with programs.active():
        ours = reader.load_briefing(project_ref(b.d), world_check=True)
        _rc, printed, _err = _run_both(daimon_main, ["brief", "--project", b.target])
        programs.forget_starts()
    without = [n.message for n in ours.notes if "without daimon's world-check" in n.message]
    if without:
        assert programs.which in ("gh", "signer"), without
        return
    shown = [[i.briefed_line, *i.briefed_under] for i in ours.items() if i.briefed]
    assert sorted(shown) == sorted(item_blocks(printed)), printed


def check_d(which: str, steps: list) -> None:
    with tempfile.TemporaryDirectory(prefix="dtui-diff-") as tmp, demo.sandboxed(Path(tmp), kit=shared_kit()) as d:
        programs = Programs(Path(tmp), which)
        build(d, steps, each=lambda b: d_agrees(Path(tmp), b, programs))


@pytest.mark.timeout(300)
@settings(max_examples=2, **COMMON)
@given(world_histories)
@example(("none", WORLD_MOVES))
@example(("signer", WORLD_MOVES))
@example(("gh", WORLD_MOVES))
def test_d_is_daimons_brief_with_world_check_on(drawn: tuple[str, list]) -> None:
    check_d(*drawn)
