"""Reading and folding: daimon's ledgers, buckets, session files and folds,
and the swaps that route its events reads through the kept fold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_briefing import briefing, config, jsonl, store, view

from daimon_tui.store.daimon_api import composed, judging, mode, private
from daimon_tui.store.daimon_api.composed import demotes_by_status as demotes_by_status  # the kept fold's
from daimon_tui.store.daimon_api.originals import swap

# daimon's own functions, taken before any swap (every swap goes through an adapter).
daimon_read = jsonl.read
daimon_fold = private.fold
daimon_fold_corroborations = store.fold_corroborations
daimon_view_item_events = view.item_events
daimon_store_item_events = store.item_events
daimon_ledger_states = view.ledger_states
daimon_team_notes = view.team_notes
daimon_posture = jsonl.posture
daimon_standing_tombstones = private.standing_tombstones
daimon_tombstone_refs = private.tombstone_refs
daimon_machine_stamps = private.machine_stamps
# daimon's reading of an event's `ts` (None: unstamped), for the kept fold's
# choice of the rows its fold can pick (`kept_fold.latest_per_ref`); used only
# once `install_kept_fold` checked its contracts (never in safe mode).
daimon_stamp_epoch = private.stamp_epoch

_KEPT_FOLD = ("reading.fold-appended", "reading.kept-fold-swaps", "reading.demotes", "judging.read-judge")


def bucket_dir(project: Any) -> Path | None:
    """The bucket directory of a project (path or slug), or None: daimon's own
    composition of public names (contract `reading.bucket`: it is `view._bucket`)."""
    slug = store.project_slug(config.resolve_project_dir(project))
    return config.checkpoint_dir() / slug if slug else None


def demotes(row: dict, status: str) -> bool:
    """Does this events row demote its item?"""
    mode.require("reading.demotes")
    return composed.demotion_rule(row, status)


def as_of_refusal() -> str | None:
    """Why the as-of copy of a store cannot be made in this mode, or None."""
    return mode.refusal("reading.session-files", "reading.team-ledgers")


def session_files(root: Path) -> list[Path]:
    mode.require("reading.session-files")
    return private.session_files(root)


def is_pointer_name(name: str) -> bool:
    """`latest.json` or `prev-N.json`: a pointer, not a session file."""
    mode.require("reading.session-files")
    return bool(private.pointer_pattern().match(name))


def tombstone_ledger_name() -> str:
    mode.require("reading.team-ledgers")
    return private.tombstone_ledger_name()


def quarantine_ledger_name() -> str:
    mode.require("reading.team-ledgers")
    return private.quarantine_ledger_name()


def team_ledger_paths(names: tuple[str, ...], *, include_own: bool, include_local: bool) -> list:
    mode.require("reading.team-ledgers")
    return private.team_ledger_paths(names, include_own=include_own, include_local=include_local)


def settings_file_values() -> dict:
    """daimon's settings as its config file holds them (without the environment)."""
    mode.require("reading.team-ledgers")
    return private.settings_file_values()


def clear_team_project_cache() -> None:
    """daimon memoizes which team project a directory belongs to; an as-of
    read under another checkpoint root must not reuse it."""
    mode.require("reading.team-ledgers")
    private.clear_team_project_cache()


@dataclass(frozen=True, slots=True)
class KeptFoldHooks:
    """The kept fold's stand-ins for daimon's events reads and folds."""

    read: Callable[..., Any]
    fold: Callable[..., Any]
    fold_corroborations: Callable[..., Any]
    view_item_events: Callable[..., Any]
    store_item_events: Callable[..., Any]
    read_judge: Callable[..., Any]
    ledger_states: Callable[..., Any]
    team_notes: Callable[..., Any]
    posture: Callable[..., Any]
    standing_tombstones: Callable[..., Any]
    tombstone_refs: Callable[..., Any]
    machine_stamps: Callable[..., Any]


def hand_resolved_refs(snap: Any, refs: frozenset) -> None:
    """Answer `snap.resolved_refs` (daimon's cached property, made over every
    ref when first asked) with `refs`, the caller's set over the same item
    fold: kept where the property keeps its own answer (contract
    `reading.resolved-refs`); nothing once it was asked, nor in safe mode."""
    if mode.allows("reading.resolved-refs"):
        vars(snap).setdefault(private.RESOLVED_REFS_KEPT, refs)


def kept_fold_allowed() -> bool:
    return all(mode.allows(c) for c in _KEPT_FOLD)


def install_kept_fold(hooks: KeptFoldHooks) -> bool:
    """Route daimon's events reads and folds through `hooks`; False (nothing
    swapped: daimon's own code answers) in safe mode."""
    if not kept_fold_allowed():
        return False
    swap(jsonl, "read", hooks.read)
    swap(store, private.FOLD_NAME, hooks.fold)
    swap(store, "fold_corroborations", hooks.fold_corroborations)
    swap(view, "item_events", hooks.view_item_events)
    swap(store, "item_events", hooks.store_item_events)
    judging.swap_read_judge(hooks.read_judge)
    swap(view, "ledger_states", hooks.ledger_states)
    swap(view, "team_notes", hooks.team_notes)
    swap(jsonl, "posture", hooks.posture)
    if mode.allows("reading.standing-tombstones"):  # else daimon's own answers over every winner
        swap(store, "standing_tombstones", hooks.standing_tombstones)
    if mode.allows("reading.tombstone-refs"):  # else daimon's own judges every ref
        swap(store, "tombstone_refs", hooks.tombstone_refs)
    if mode.allows("reading.machine-stamps"):  # else daimon's own reads every ref
        swap(briefing, "_machine_stamps", hooks.machine_stamps)
    return True
