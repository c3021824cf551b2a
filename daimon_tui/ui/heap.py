"""The cyclic garbage collector runs between keystrokes, not during them.

Measured at 5,019 rows: with Python's defaults a full (generation 2)
collection lands every ~25 cursor moves and scans every object of the loaded
briefing, ~70–110 ms inside a keypress (p95 of a move went from ~6 ms to
~50 ms). Reference counting still frees almost everything at once; only
cycles wait for the collector. So automatic collection is off while the app
runs, a collection runs once input has rested, and after each load the
surviving heap is frozen (`gc.freeze`), so later collections scan only what
is new. `unfreeze` before each freeze gives cycles that died since then back
to the collector.

Once the person has rested a while (no key, no load for `GIVE_BACK_AFTER_S`)
the freed memory goes back to the system (`services.memory`): what a burst of
verbs or a reload left free is not kept resident while the app sits open.
"""

from __future__ import annotations

import gc
import time

from daimon_tui.domain.at_rest import AtRest
from daimon_tui.services import memory

# Input must rest this long before the collector runs.
REST_S = 0.3
# How often the rest is checked.
TICK_S = 0.25
# Fewer new objects than this since the last pass: nothing worth a pass.
WORTH_A_PASS = 700
# Rest (no key, no load) before freed memory goes back to the system.
GIVE_BACK_AFTER_S = 5.0


class IdleCollector:
    def __init__(self) -> None:
        self.last_input = time.monotonic()
        self.enabled_before = gc.isenabled()
        self.at_rest = AtRest(GIVE_BACK_AFTER_S, lambda collect: memory.give_back(collect),
                              clock=lambda: time.monotonic())

    def start(self) -> None:
        gc.disable()
        # What the app started with (every module imported, ~hundreds of thousands of objects) lives
        # as long as the app: frozen now, a pass before the first load settles scans only what came
        # since (a full pass over it took ~0.1 s, twice, between the mount and the first frame).
        gc.freeze()

    def stop(self) -> None:
        gc.unfreeze()
        if self.enabled_before:
            gc.enable()

    def touch(self) -> None:
        """A key arrived."""
        self.last_input = time.monotonic()
        self.at_rest.active()

    def tick(self) -> None:
        if time.monotonic() - self.last_input < REST_S:
            return
        collected = gc.get_count()[0] >= WORTH_A_PASS
        if collected:
            gc.collect()
        self.at_rest.tick(collect=not collected)

    def settle(self) -> None:
        """After a load (a moment the person waits anyway): collect everything,
        then freeze what survives, so idle passes stay short."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.at_rest.active()
