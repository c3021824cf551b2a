"""When a process gives freed memory back to the system: once per burst of
work, after a rest (the call itself is the adapter `store.process_memory`,
reached by the app through `services.memory`)."""

from __future__ import annotations

import time
from collections.abc import Callable


class AtRest:
    """Memory given back once per burst of work, after `after_s` of rest.

    `active()` marks work (a key, a load, a request answered); `tick()`,
    called now and then, gives back when the last work is `after_s` old and
    nothing is running (`busy`), and then not again until new work."""

    def __init__(self, after_s: float, give_back: Callable[[bool], object],
                 clock: Callable[[], float] | None = None) -> None:
        self.after_s = after_s
        self.give_back = give_back  # collect cycles (or not), then return free pages: an adapter's call
        self.clock = clock or time.monotonic
        self.last = self.clock()
        self.owed = False

    def active(self) -> None:
        self.last = self.clock()
        self.owed = True

    def tick(self, busy: bool = False, collect: bool = True) -> bool:
        """True when memory was handed back now."""
        if not self.owed or busy or self.clock() - self.last < self.after_s:
            return False
        self.owed = False
        self.give_back(collect)
        return True
