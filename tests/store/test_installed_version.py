"""Which daimon is installed, read from its dist-info without importing importlib.metadata: the same
answer as importlib.metadata's, and its answer wherever this cannot read the path the same way."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from daimon_tui.store.daimon_api import installed


def test_the_installed_daimon_is_importlib_metadatas_answer() -> None:
    assert installed.version() == metadata.version("daimon-briefing")
    assert installed.version("textual") == metadata.version("textual")


def test_a_fresh_process_learns_the_version_without_importing_importlib_metadata() -> None:
    code = ("import sys\nfrom daimon_tui.store.daimon_api import installed\n"
            "print(installed.version(), 'importlib.metadata' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == [metadata.version("daimon-briefing"), "False"]


def _dist(root: Path, folder: str, *headers: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "METADATA").write_text("\n".join(["Metadata-Version: 2.1", *headers, "", "body: 9"]) + "\n")


def test_the_first_path_entry_holding_it_wins_its_name_normalized(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _dist(tmp_path / "a", "Daimon.Briefing-9.9.dist-info", "Name: Daimon.Briefing", "Version: 9.9rc1")
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    assert installed.version() == "9.9rc1" == metadata.version("daimon-briefing")


def test_what_it_cannot_read_so_importlib_metadata_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _dist(tmp_path / "a", "daimon_briefing-1.0.dist-info", "Name: daimon-briefing")  # no Version header
    monkeypatch.syspath_prepend(str(tmp_path / "a"))
    assert installed.version() == metadata.version("daimon-briefing")
    assert installed.version("no-such-distribution-here") is None
