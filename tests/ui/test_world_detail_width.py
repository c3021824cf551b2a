"""Issue 28 point 3: the world-check table in a narrow detail pane reads whole words."""

from __future__ import annotations

import io
import re

from rich.console import Console

from daimon_tui.domain.claims import Claim, ClaimKind, Expect
from daimon_tui.domain.probes import Finding, Outcome
from daimon_tui.domain.worldcheck import ClaimResult, ItemResult
from daimon_tui.ui.widgets.world_detail import world_renderable

EVIDENCE = "src/upload/retry_configuration_loader.py exists at the working tree's HEAD commit"


def _shown(width: int) -> str:
    claim = Claim(kind=ClaimKind.FILE, subject="src/upload/retry_configuration_loader.py",
                  expect=Expect.EXISTS, words="src/upload/retry_configuration_loader.py", start=0, end=10)
    result = ItemResult("o-1", (ClaimResult(claim, Finding(Outcome.CONFIRMED, "exists", EVIDENCE)),))
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(world_renderable(result, 0.0))
    return console.export_text()


def test_the_claim_and_its_evidence_go_under_the_result_in_a_narrow_pane() -> None:
    for width in (42, 50, 78, 120):
        shown = _shown(width)
        assert "retry_configuration_loader" in shown, (width, shown)
        assert set(re.findall(r"[A-Za-z_]+", EVIDENCE)) <= set(re.findall(r"[A-Za-z_]+", shown)), (width, shown)
