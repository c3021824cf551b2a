"""An item's details answered from its own rows, while daimon's full fold runs elsewhere.

The first confirmation folds every ledger in the judging child (seconds on a
year of memory), and the child answers one request at a time: an item's
`why` behind it would wait for the whole fold. Yet daimon's events folds are
per ref, so what the detail pane shows of one item (its inspector, witnesses
and lifecycle) depends only on the rows addressed to its id and to its
corroboration ref, and both spell the id. So the rows that spell it
(`ledger_lines`: a byte search, daimon's line classifier) stand in for the
events ledger, and daimon's own `view.snapshot` and readers run over them
(every other ledger of the bucket is read whole, as daimon reads it).

What it cannot know is machine-wide: another bucket's forget of the same
value, a teammate's published forget (the local forget walk reads every
bucket's events ledger: the very cost avoided). It knows the item's own
tombstone and the ids the verdict cache saw forgotten. So the answer is
provisional, the pane says so, and the child's answer replaces it.

Nothing is memoized: the snapshot built here never reaches the shared memo
(`snapshot_share`) nor daimon's judge memo (`ledger_lines.events_as`).
"""

from __future__ import annotations

import dataclasses

from daimon_tui.models import ProjectRef
from daimon_tui.models.details import ItemDetails
from daimon_tui.store.daimon_api import mode
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import jsonl, view
from daimon_tui.store.judging import snapshot_share, verdict_cache
from daimon_tui.store.read import details, ledger_lines, machine_walk


def item_snapshot(project: ProjectRef, read: jsonl.Read, forgotten_ids: frozenset[str]) -> view.Snapshot:
    """daimon's own snapshot of the bucket with the events ledger reduced to
    `read`; the machine-wide forget walk left out (see the module doc), the
    ids the verdict cache knows as forgotten kept withheld."""
    with ledger_lines.events_as(read), machine_walk.skipped():
        snap = snapshot_share.daimons_snapshot(project.target)
    return dataclasses.replace(snap, forgotten_ids=snap.forgotten_ids | forgotten_ids)


def read_provisional(project: ProjectRef, item_id: str, now: float | None = None) -> ItemDetails | None:
    """`details.read_details` answered from the item's own rows (see the
    module doc), or None when they cannot be found from bytes. Never raises.
    None in safe mode: it needs daimon's machine walk swapped out."""
    if not mode.allows("judging.swaps"):
        return None
    try:
        bucket = daimon_reading.bucket_dir(project.target) if item_id else None
        read = ledger_lines.rows_spelling(bucket, item_id) if bucket is not None else None
        if read is None:
            return None
        cached = verdict_cache.load(project.slug)
        snap = item_snapshot(project, read, cached.forgotten_ids() if cached else frozenset())
        with ledger_lines.events_as(read), machine_walk.skipped(), snapshot_share.substitute(snap):
            return details.read_details(project, item_id, now)
    except Exception:  # the confirmed answer still comes from the child
        return None
