"""The kept fold to and from disk (`kept_fold_file`: numbers, never a row):
held in memory, written once enough was appended since the copy there, and
rebuilt from the offsets on disk with its rows read from the ledger's own
verified bytes."""

from __future__ import annotations

from daimon_tui.store.judging import kept_fold_file, kept_fold_rows
from daimon_tui.store.judging.kept_fold_ledger import RowsAt
from daimon_tui.store.judging.kept_fold_protocol import KeptFoldJobs
from daimon_tui.store.judging.kept_fold_rows import Kept, Unplaced

# Written again only once this much was appended since the copy on disk (the
# next run folds at most that much again): a write is ~1 s of JSON at 200k rows.
PERSIST_EVERY_BYTES = 1024 * 1024


def rebuild(spans: kept_fold_file.Spans, rows_at: RowsAt) -> Kept | None:
    """The kept fold at the offsets on disk, its rows read by `rows_at` from
    the ledger's verified bytes; None when an offset is not the start of a
    row of the kind it is kept for (not our file)."""
    parsed = rows_at(sorted(spans.winners))
    if parsed is None:
        return None
    kept = Kept(spans.size, spans.digest, refs=dict(spans.refs), tombstones=list(spans.tombstones),
                trusted=spans.sealed)
    for start in spans.winners:
        row = parsed[start]
        ref = str(row.get("item_ref") or "")
        if not ref or ref in kept.winners:
            return None
        kept.winners[ref] = (start, row)
    if spans.corroborations is not None:
        # each item's witness rows wait until an appended row names it (or the check)
        kept.corroborations = spans.corroborations
        kept.unparsed = {item: list(starts) for item, starts in spans.witnesses.items()}
        return kept
    try:
        for item, starts in spans.witnesses.items():
            kept_fold_rows.parse_witnesses(kept.witnesses, rows_at, item, starts)
    except Unplaced:
        return None
    return kept


def keep(fold: KeptFoldJobs, key: str, kept: Kept, *, grown: bool = False, persist: bool = True) -> None:
    """Hold `kept` for the ledger `key`; on disk too (unless `persist` is
    False) unless it only grew by less than PERSIST_EVERY_BYTES since the
    copy there."""
    with fold.lock:
        fold.held[key] = kept
    if not persist or not fold.on_disk.get():  # a copy of ours, removed after (Health's pass)
        return
    if grown and kept.size - fold.persisted.get(key, 0) < PERSIST_EVERY_BYTES:
        return
    save(fold, key, kept)


def save(fold: KeptFoldJobs, key: str, kept: Kept) -> None:
    """`kept`'s numbers on disk (`kept_fold_file`), when every kept row's line is placed."""
    winners = tuple(at for at, _row in kept.winners.values())
    witnesses = kept.witness_groups()
    if (kept.refs is None or kept.tombstones is None
            or min((*winners, *(at for starts in witnesses.values() for at in starts)), default=0) < 0):
        return  # a row whose line we could not place: kept in memory only
    if kept.corroborations is None:  # every witness row is parsed (`unparsed` comes only with it)
        kept.corroborations = fold.daimon.fold_corroborations(kept.rows().witnesses)
    spans = kept_fold_file.Spans(kept.size, kept.digest, winners, witnesses, kept.refs, kept.tombstones,
                                 kept.corroborations)
    if kept_fold_file.save(key, spans, sealed=kept.trusted):
        fold.persisted[key] = kept.size
