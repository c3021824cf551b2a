"""The kept fold's stand-ins for daimon's events reads and folds, and the
one call that swaps them in (`install_daimon_hooks`).

daimon's item lifecycle reads (`item_events`) read one ref's rows; its
snapshot's light twin (`daimon_api.judging.read_judge`) folds the kept rows;
a ledger health read (`view.ledger_states`, `view.team_notes`, the write
gate `jsonl.posture`) judges only the appended bytes. Outside those, and for
any rows but `KeptRows`, daimon's own code runs; in safe mode
(`daimon_api.mode`) nothing is swapped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import jsonl, store
from daimon_tui.store.judging.kept_fold_protocol import KeptFoldJobs
from daimon_tui.store.judging.kept_fold_rows import Kept, KeptRows


def fold(kept: KeptFoldJobs, rows: Any, *, keys: bool) -> dict:
    """daimon's `store._fold`: the winners alone for kept rows; a first open's
    rows folded once (its forget walk keeps the key refs, its snapshot drops
    them: `_fold` is per ref, so the second is the first without the key
    refs, and the kept fold's build reuses it too)."""
    if isinstance(rows, KeptRows):
        if rows.kept is None:
            return kept.daimon.fold(rows.winners, keys=keys)
        handed = dict(rows.kept.fold_of_winners(kept.daimon, keys=keys))
        if not keys:  # the snapshot's item fold: its `tombstone_refs` may be answered from the kept fold
            kept.handed = (handed, rows.kept)
        return handed
    pending = next((p for p in list(kept.pending.values()) if p.read.rows is rows), None)
    if pending is None:
        return kept.latest_per_ref(rows, keys=keys)
    if pending.winners is None:
        pending.winners = kept.latest_per_ref(rows, keys=True)
    if keys:
        return dict(pending.winners)
    return {ref: row for ref, row in pending.winners.items() if not store.is_key_ref(ref)}


def fold_corroborations(kept: KeptFoldJobs, rows: Any) -> dict:
    """daimon's `store.fold_corroborations`: the kept fold's, or a first
    open's made once (a write's rows are folded onto it: `grow_pending`)."""
    if not isinstance(rows, KeptRows):
        pending = next((p for p in list(kept.pending.values()) if p.read.rows is rows), None)
        if pending is None:
            return kept.daimon.fold_corroborations(rows)
        if pending.corroborations is None:
            pending.corroborations = kept.daimon.fold_corroborations(rows)
        return dict(pending.corroborations)
    held = rows.kept
    if held is not None and held.corroborations is not None:
        return dict(held.corroborations)
    folded = kept.daimon.fold_corroborations(rows.witnesses)
    if held is not None:
        held.corroborations = folded
    return dict(folded)


def standing_tombstones(kept: KeptFoldJobs, rows: Any) -> dict:
    """daimon's `store.standing_tombstones` (the forget walk's, at each of
    Health's moments): for kept rows, daimon's own over the winners that may be
    a tombstone, not over every winner (contract `reading.standing-tombstones`:
    a ref whose winner is no tombstone adds nothing)."""
    if isinstance(rows, KeptRows) and rows.kept is not None:
        rows = rows.kept.winners_maybe_tombstones(kept.daimon)
    return kept.daimon.standing_tombstones(rows)


def _folded_from(kept: KeptFoldJobs, resolutions: Any) -> Kept | None:
    """The kept fold an item fold is a copy of: the one `fold` last handed
    out, when still equal to it (C-level, values by identity first); None for
    a map folded from other rows, or changed after it was handed out."""
    handed = kept.handed
    if handed is None or resolutions is None:
        return None
    held = handed[1]
    return held if resolutions == held.fold_of_winners(kept.daimon, keys=False) else None


def tombstone_refs(kept: KeptFoldJobs, resolutions: Any) -> frozenset:
    """daimon's `store.tombstone_refs` (the snapshot's forgotten ids, at each
    of Health's moments): for the item fold `fold` last handed out, still equal
    to its kept fold's, daimon's own over the refs whose winner may be a
    tombstone, not over every ref (contract `reading.tombstone-refs`: it judges
    ref by ref, and a ref whose latest event is no tombstone adds nothing)."""
    handed = kept.handed
    held = _folded_from(kept, resolutions) if handed is not None and handed[0] is resolutions else None
    if held is not None:
        maybe = held.maybe_tombstone_refs(kept.daimon)  # key refs too: not in the item fold
        resolutions = {ref: resolutions[ref] for ref in maybe if ref in resolutions}
    return kept.daimon.tombstone_refs(resolutions)


class _Narrowed:
    """The three names daimon's `_machine_stamps` reads of a snapshot, with its
    item fold narrowed to the refs that may be candidates."""

    __slots__ = ("amendments", "resolutions", "resolved_refs")

    def __init__(self, snap: Any, resolutions: dict) -> None:
        self.resolutions, self.resolved_refs, self.amendments = resolutions, snap.resolved_refs, snap.amendments


def machine_stamps(kept: KeptFoldJobs, checkpoint: Any, snap: Any) -> tuple:
    """daimon's `briefing._machine_stamps` (at each of Health's moments): for
    a snapshot whose item fold equals the one `fold` last handed out, daimon's
    own over the refs whose latest event may be a candidate, not over every
    ref (contract `reading.machine-stamps`: it reads ref by ref, and a ref
    whose status says no `candidate` stamps nothing)."""
    resolutions = getattr(snap, "resolutions", None)
    held = _folded_from(kept, resolutions)
    if held is not None:  # else a snapshot folded from other rows is read whole
        maybe = held.maybe_candidate_refs(kept.daimon)
        snap = _Narrowed(snap, {ref: resolutions[ref] for ref in maybe if ref in resolutions})
    return kept.daimon.machine_stamps(checkpoint, snap)


def resolved_refs(kept: KeptFoldJobs, snap: Any) -> None:
    """daimon's `Snapshot.resolved_refs` (a cached property: `store.is_resolved`
    over every ref, asked at each of Health's moments) handed to a snapshot
    whose item fold equals the one `fold` last handed out: its kept fold's set,
    carried by each absorb over the refs its rows name (contract
    `reading.resolved-refs`). Any other snapshot makes daimon's own."""
    held = _folded_from(kept, getattr(snap, "resolutions", None))
    if held is not None:  # else the snapshot makes its own
        daimon_reading.hand_resolved_refs(snap, frozenset(held.resolved_refs(kept.daimon)))


def install_daimon_hooks(kept: KeptFoldJobs) -> bool:
    """The kept fold's one run-time swap of daimon's functions: route its
    events reads and folds through `kept`. False (nothing swapped) in safe mode."""

    def view_item_events(project: Any, item_id: str, *, snap: Any = None) -> tuple:
        with kept.rows_of(item_id):
            return kept.daimon.view_item_events(project, item_id, snap=snap)

    def store_item_events(item_ref: str, project_dir: Any = None) -> list[dict]:
        with kept.rows_of(item_ref):
            return kept.daimon.store_item_events(item_ref, project_dir)

    def read_judge(slug: Any, forgotten: Any = None) -> Any:
        with kept.active():
            return kept.daimon.read_judge(slug, forgotten)

    def ledger_states(project: Any, names: Any = None) -> dict:
        with kept.active():  # health only: the kept read's is the full read's
            return kept.daimon.ledger_states(project, names)

    def team_notes(project: Any = None) -> tuple[str, ...]:
        with kept.active():
            return kept.daimon.team_notes(project)

    def posture(path: Path, name: str, writer: Any, **options: Any) -> jsonl.Posture:
        with kept.active():  # daimon's write gate judges the ledger's health only
            return kept.daimon.posture(path, name, writer, **options)

    def folded(rows: Any, *, keys: bool) -> dict:
        return fold(kept, rows, keys=keys)

    return daimon_reading.install_kept_fold(daimon_reading.KeptFoldHooks(
        read=kept.read, fold=folded, fold_corroborations=lambda rows: fold_corroborations(kept, rows),
        view_item_events=view_item_events, store_item_events=store_item_events, read_judge=read_judge,
        ledger_states=ledger_states, team_notes=team_notes, posture=posture,
        standing_tombstones=lambda rows: standing_tombstones(kept, rows),
        tombstone_refs=lambda resolutions: tombstone_refs(kept, resolutions),
        machine_stamps=lambda checkpoint, snap: machine_stamps(kept, checkpoint, snap),
    ))
