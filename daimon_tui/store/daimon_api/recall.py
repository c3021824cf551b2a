"""Recall: the search index's freshness check and daimon's forget walk,
answered again while their sources stand (`store.read.recall_generation`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from daimon_briefing import recall as daimon_recall
from daimon_briefing import store

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.originals import swap

daimon_ensure_fresh = private.ensure_fresh
daimon_forgotten_stamp = store.forgotten_stamp
daimon_forgotten_walk = private.forgotten_walk


def touch_once(path: Path) -> None:
    """recall's own "the index was used" stamp."""
    mode.require("recall.generation")
    private.touch_once(path)


def install_generation(ensure_fresh: Callable[[], None], forgotten_stamp: Callable[[], Any],
                       forgotten_walk: Callable[[], Any]) -> bool:
    """Route recall's freshness check and the forget walk through these; False in safe mode."""
    if not mode.allows("recall.generation"):
        return False
    swap(daimon_recall, private.ENSURE_FRESH_NAME, ensure_fresh)
    swap(store, "forgotten_stamp", forgotten_stamp)
    swap(store, private.FORGOTTEN_WALK_NAME, forgotten_walk)
    return True
