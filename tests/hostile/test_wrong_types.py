"""Wrong JSON types never end a read: every field of every daimon file the app
reads, set to a number, a string, a list, an object and null, through every
read the app makes (the headless `brief --json` among them), and every field
of the teammates' files through every team read. A bounded number of examples
in the default run; many more under `-m slow`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.team_store import team_store as build_team_store

from .conftest import NOW
from .wrong_types import every_read, every_team_read, sweep, sweep_store, team_fields


def _sweep(root: Path, examples: int) -> None:
    with sweep_store(root) as (store, fields):
        sweep(fields, store.checkpoint_dir, examples, lambda: every_read(store.project, NOW))


def _team_sweep(root: Path, examples: int) -> None:
    with build_team_store(root) as store:
        team_dir = root / "alice" / "team"
        sweep(team_fields(team_dir), team_dir, examples, lambda: every_team_read(store.project))


@pytest.mark.timeout(600)
def test_wrong_types_never_end_a_read(sandbox_root: Path) -> None:
    _sweep(sandbox_root, 25)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_wrong_types_never_end_a_read_long(sandbox_root: Path) -> None:
    _sweep(sandbox_root, 100)


@pytest.mark.timeout(600)
def test_wrong_types_in_the_team_files_never_end_a_read(sandbox_root: Path) -> None:
    _team_sweep(sandbox_root, 15)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_wrong_types_in_the_team_files_never_end_a_read_long(sandbox_root: Path) -> None:
    _team_sweep(sandbox_root, 50)
