"""Wrong JSON types never end a read: every field of every daimon file the app
reads, set to a number, a string, a list, an object and null, through every
read the app makes (the headless `brief --json` among them). A few examples
in the default run; many more under `-m slow`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.team_store import team_store as build_team_store

from .conftest import NOW
from .wrong_types import KINDS, Field, damaged, every_read, every_team_read, sweep_store, team_fields, values

COMMON = {"deadline": None, "derandomize": True, "suppress_health_check": list(HealthCheck),
          "database": None}


def _sweep(root: Path, examples: int) -> None:
    with sweep_store(root) as (store, fields):

        @settings(max_examples=examples, **COMMON)
        @given(data=st.data())
        def one(data: st.DataObject) -> None:
            field: Field = data.draw(st.sampled_from(fields), label="field")
            kind = data.draw(st.sampled_from(KINDS), label="kind")
            value: Any = data.draw(values(kind), label="value")
            with damaged(store.checkpoint_dir, field, value):
                every_read(store.project, NOW)

        one()


@pytest.mark.timeout(600)
def test_wrong_types_never_end_a_read(sandbox_root: Path) -> None:
    _sweep(sandbox_root, 25)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_wrong_types_never_end_a_read_long(sandbox_root: Path) -> None:
    _sweep(sandbox_root, 600)


def _team_sweep(root: Path, examples: int) -> None:
    with build_team_store(root) as store:
        team_dir = root / "alice" / "team"
        fields = team_fields(team_dir)

        @settings(max_examples=examples, **COMMON)
        @given(data=st.data())
        def one(data: st.DataObject) -> None:
            field: Field = data.draw(st.sampled_from(fields), label="field")
            kind = data.draw(st.sampled_from(KINDS), label="kind")
            value: Any = data.draw(values(kind), label="value")
            with damaged(team_dir, field, value):
                every_team_read(store.project)

        one()


@pytest.mark.timeout(600)
def test_wrong_types_in_the_team_files_never_end_a_read(sandbox_root: Path) -> None:
    _team_sweep(sandbox_root, 15)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_wrong_types_in_the_team_files_never_end_a_read_long(sandbox_root: Path) -> None:
    _team_sweep(sandbox_root, 300)
