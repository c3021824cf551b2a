"""Every lasting run-time swap of daimon's functions, installed by one call.

`install_swaps()` routes, in this order (each over the one before): daimon's
events reads, folds and ledger-health reads through the kept fold
(`judging.kept_fold`), its `view.snapshot` through the shared snapshot
(`judging.snapshot_share`), the events read and judge of a provisional line
(`read.ledger_lines`), the machine-wide forget walk of provisional details
(`read.provisional_details`), recall's freshness check and the forget walk
(`read.recall_generation`). Each stand-in passes through to daimon's own
outside its own context, so installing all of them up front changes no
answer. In safe mode nothing is swapped. Every swap is made by
`daimon_api.originals`; the names swapped are spelled in `daimon_api.private`
or are public.

The judging child calls it once it loads its reads (`judge_child._calls`).
Work left: each install is still idempotent and also made lazily where a read
first needs it: the child's warm before its early answer and a headless
report (`cli`) install the first two only (the others import the models,
which those paths put off), and the app's own in-process reads when the child
is away install what they use. The swaps that last one call are scoped context managers of their
adapters (`brief_verb`'s answered probes, `writing.store_clock`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from daimon_tui.store.daimon_api import originals
from daimon_tui.store.judging import kept_fold, snapshot_share
from daimon_tui.store.read import ledger_lines, provisional_details, recall_generation

# Each installer's own record of what it installed: put back by `swaps_installed`.
_STATE: tuple[tuple[Any, str], ...] = (
    (kept_fold.KEPT, "installed"),
    (snapshot_share, "_installed"),
    (ledger_lines, "_installed"), (ledger_lines, "_next_read"), (ledger_lines, "_next_judge"),
    (provisional_details, "_next_machine_sets"), (provisional_details, "_next_incomplete"),
    (recall_generation, "_installed"),
)


def install_swaps() -> None:
    """Every lasting swap (idempotent; in safe mode, none)."""
    snapshot_share.install()  # the kept fold's routes first, the shared snapshot over them
    ledger_lines.install()
    provisional_details.install()
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
