"""Every lasting run-time swap of daimon's functions, installed by one call.

`install_swaps()` routes, in this order (each over the one before): daimon's
events reads, folds and ledger-health reads through the kept fold
(`judging.kept_fold`), its `view.snapshot` through the shared snapshot
(`judging.snapshot_share`), the events read and judge of a provisional line
(`read.ledger_lines`), the machine-wide forget walk (`read.machine_walk`,
skipped by the provisional details), recall's freshness check and the forget
walk (`read.recall_generation`). Each stand-in passes through to daimon's own
outside its own context, so installing all of them up front changes no
answer; none of these modules imports our models, so every path can. In safe
mode nothing is swapped. Every swap is made by `daimon_api.originals`; the
names swapped are spelled in `daimon_api.private` or are public.

Where it is called (docs/architecture.md, "daimon's door"): the judging
child, before its early answer (`judge_child._warm`) and when it loads its
reads (`judge_child._calls`); the app's own confirming read when the child
failed (`first_paint.confirm`); a headless report (`cli._headless`). Tests
take it as `swaps_installed()`. Each installer stays idempotent, and a read
whose stand-in must be in place (`kept_fold.active`, `ledger_lines.events_as`,
`machine_walk.skipped`, `recall_generation.held`, `snapshot_share.substitute`)
still installs its own if no path above ran first (an in-process read in a
test). The swaps that last one call are scoped context managers of their
adapters (`brief_verb`'s answered probes, `writing.store_clock`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from daimon_tui.store.daimon_api import originals
from daimon_tui.store.judging import kept_fold, snapshot_share
from daimon_tui.store.read import ledger_lines, machine_walk, recall_generation

# Each installer's own record of what it installed: put back by `swaps_installed`.
_STATE: tuple[tuple[Any, str], ...] = (
    (kept_fold.KEPT, "installed"),
    (snapshot_share, "_installed"),
    (ledger_lines, "_installed"), (ledger_lines, "_next_read"), (ledger_lines, "_next_judge"),
    (machine_walk, "_next_machine_sets"), (machine_walk, "_next_incomplete"),
    (recall_generation, "_installed"),
)


def install_swaps() -> None:
    """Every lasting swap (idempotent; in safe mode, none)."""
    snapshot_share.install()  # the kept fold's routes first, the shared snapshot over them
    ledger_lines.install()
    machine_walk.install()
    recall_generation.install()


@contextlib.contextmanager
def swaps_installed() -> Iterator[None]:
    """For a test: every lasting swap in place in this block, and afterwards
    the process as it was before it: daimon's functions and each installer's
    record of what it installed (a swap made before the block stays)."""
    daimon = originals.snapshot()
    state = [(module, attr, getattr(module, attr)) for module, attr in _STATE]
    try:
        install_swaps()
        yield
    finally:
        originals.put_back(daimon)
        for module, attr, value in state:
            setattr(module, attr, value)
