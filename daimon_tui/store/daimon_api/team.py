"""Team: a team sidecar's branch and counts, the clones and their authors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.composed import clone_of


def refusal() -> str | None:
    """Why the clones' sync state is not read in this mode (safe mode), or None."""
    return mode.refusal("team.sidecar")


def branch(sidecar: Any) -> str:
    mode.require("team.sidecar")
    return private.sidecar_branch(sidecar)


def unpushed_count(sidecar: Any, branch_name: str) -> int:
    mode.require("team.sidecar")
    return private.unpushed_count(sidecar, branch_name)


def pending_count(sidecar: Any) -> int:
    mode.require("team.sidecar")
    return private.pending_count(sidecar)


def remote_of(path: Any) -> str:
    mode.require("team.clone-of")
    return clone_of(path)


def own_team_dirs(project: Any, *, clones_only: bool) -> list:
    mode.require("team.sidecar")
    return private.own_team_dirs(project, clones_only=clones_only)


def team_author_dirs(clone: Path) -> list[Path]:
    mode.require("team.sidecar")
    return private.team_author_dirs(clone)
