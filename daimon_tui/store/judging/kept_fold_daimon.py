"""daimon's own functions the kept fold reads and folds with (`Daimon`), below
every kept-fold module: `kept_fold_rows` folds with them, `KeptFold` holds them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from daimon_tui.store.daimon_api import judging as daimon_judging
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import jsonl


# mutable because a test replaces one of daimon's functions to watch it
@dataclass(slots=True)
class Daimon:
    """daimon's own functions the kept fold reads and folds with and stands
    in for, taken before any swap (`daimon_api`); a test may replace one to
    watch it."""

    read: Callable[..., jsonl.Read]
    fold: Callable[..., dict]
    fold_corroborations: Callable[..., dict]
    view_item_events: Callable[..., tuple]
    store_item_events: Callable[..., list]
    read_judge: Callable[..., Any]
    ledger_states: Callable[..., dict]
    team_notes: Callable[..., tuple]
    posture: Callable[..., jsonl.Posture]
    standing_tombstones: Callable[..., dict]
    tombstone_refs: Callable[..., frozenset]
    machine_stamps: Callable[..., tuple]

    @classmethod
    def taken(cls) -> Daimon:
        return cls(read=daimon_reading.daimon_read, fold=daimon_reading.daimon_fold,
                   fold_corroborations=daimon_reading.daimon_fold_corroborations,
                   view_item_events=daimon_reading.daimon_view_item_events,
                   store_item_events=daimon_reading.daimon_store_item_events,
                   read_judge=daimon_judging.daimon_read_judge, ledger_states=daimon_reading.daimon_ledger_states,
                   team_notes=daimon_reading.daimon_team_notes, posture=daimon_reading.daimon_posture,
                   standing_tombstones=daimon_reading.daimon_standing_tombstones,
                   tombstone_refs=daimon_reading.daimon_tombstone_refs,
                   machine_stamps=daimon_reading.daimon_machine_stamps)
