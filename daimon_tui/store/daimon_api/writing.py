"""Writing: daimon's own input rules for a verb, and the demo store's clock."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from daimon_briefing import store, trust

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.originals import swap


def quarantine_input_refusal(reason: str, evidence: tuple[str, ...]) -> str | None:
    """daimon's message for a quarantine's reason and evidence, or None when
    they pass (`Unavailable` when its rules cannot be reached)."""
    refusal = mode.verb_refusal("retract")
    if refusal:
        raise mode.Unavailable(refusal)
    mode.require("writing.trust-rules")
    try:
        private.check_reason(reason)
        private.check_evidence(list(evidence))
    except trust.TrustError as exc:
        return str(exc)
    return None


@contextlib.contextmanager
def store_clock(clock: type) -> Iterator[None]:
    """daimon's store reads the time through `clock` in this block (the demo's
    fixed dates). In safe mode nothing is swapped: daimon stamps the wall clock
    (the demo's dates are off, and `off()` says so)."""
    if not mode.allows("writing.demo-clock"):
        yield
        return
    original = store.datetime
    swap(store, "datetime", clock)
    try:
        yield
    finally:
        swap(store, "datetime", original)
