"""The app's world-check verdicts against daimon's own (`worldcheck.check`) on
the same carried claims of the same project (issue 25, point 10): a file that
exists, one deleted from the work tree but still tracked in git (daimon:
missing), dependencies pinned or not, a branch that exists and one that does
not. daimon's check runs with its worldcheck flag on and no `gh`."""

from __future__ import annotations

import asyncio
import copy
import subprocess
from pathlib import Path

import pytest
from daimon_briefing import worldcheck

from daimon_tui.domain.probes import Outcome
from daimon_tui.domain.worldcheck import badge_for
from daimon_tui.services.world_check import check_items

CLAIMS = [
    "src/keep.py exists and holds the setting",
    "src/loader.py exists with the old loader",
    "src/never.py was created for the spike",
    "src/keep.py was deleted in the cleanup",
    "branch feature/keep is active for the rework",
    "branch feature/never is active for the spike",
    "branch feature/keep was deleted after the merge",
    "httpx==0.27.0 pinned for the client",
    "httpx==0.28.1 pinned for the client",
]


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "user.name=t", "-c", "user.email=t@t.invalid",
                    "-C", str(project), *args], check=True, capture_output=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "keep.py").write_text("x = 1\n", encoding="utf-8")
    (root / "src" / "loader.py").write_text("y = 2\n", encoding="utf-8")
    (root / "pyproject.toml").write_text('[project]\nname = "p"\ndependencies = ["httpx==0.27.0"]\n',
                                         encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "init")
    _git(root, "branch", "feature/keep")
    (root / "src" / "loader.py").unlink()  # deleted from the work tree, still tracked at HEAD
    return root


def _daimons(project: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> str | None:
    monkeypatch.setattr(worldcheck, "_gh_path", lambda: None)  # daimon's own seam: no `gh`
    item = {"text": text, "carried_from": "S-0", "id": "r-aaaaaa"}
    checkpoint = {"working_context": {"recent_decisions": [copy.deepcopy(item)]}}
    worldcheck.check(checkpoint, str(project))
    got = checkpoint["working_context"]["recent_decisions"][0]
    if got.get("_worldcheck"):
        return "world-contradicted"
    return "world-checked" if got.get("_worldcheck_confirmed") else None


@pytest.mark.parametrize("text", CLAIMS)
def test_our_verdict_is_daimons(project: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert worldcheck.claim_for(text) is not None, "daimon finds no claim: the case tests nothing"
    theirs = _daimons(project, text, monkeypatch)
    report = asyncio.run(check_items(project, [("r-aaaaaa", text, None)]))
    ours = badge_for(report.items[0])
    assert ours == theirs, (text, [(r.claim, r.finding) for r in report.items[0].results])


def test_a_deleted_tracked_file_reads_missing(project: Path) -> None:
    report = asyncio.run(check_items(project, [("r-aaaaaa", "src/loader.py exists with the old loader", None)]))
    finding = report.items[0].results[0].finding
    assert finding.outcome is Outcome.CONTRADICTED and "still tracked at HEAD" in finding.evidence
