"""The kept fold itself: an events ledger's rows reduced to those daimon's
folds can tell apart (each ref's winner, each witness's latest row), where
each starts, and how appended rows are folded onto them.

Pure of state: a `Kept` is one ledger's fold, made and replaced by the
`kept_fold.KeptFold` that holds it; daimon's own folds come in as `daimon`
(`kept_fold_daimon.Daimon`), taken before any swap.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.public import store
from daimon_tui.store.judging.kept_fold_daimon import Daimon
from daimon_tui.store.judging.kept_fold_ledger import RowsAt

CORROBORATION_PREFIX = store.corroboration_ref("")
# One ref's rows (`rows_of`), or TOMBSTONES: the rows that may be a forget's
# tombstone (`tombstone_rows`).
TOMBSTONES = "\0tombstones"


class KeptRows(list):
    """An events ledger's rows reduced to those its folds can tell apart:
    each ref's winner first, then the other witness rows. Itself a valid
    input to every fold (a non-winner after its ref's winner never displaces
    it); the two folds that know this type take only the part they need.
    A fold read back from disk with its corroboration fold holds only the
    witness rows parsed so far: `fold_corroborations` is answered from the
    kept fold's, never from these rows."""

    def __init__(self, winners: list[dict], witnesses: list[dict], kept: Kept | None = None,
                 apart: list[dict] | None = None) -> None:
        """`apart`: the witness rows that are no winner, when the caller knows them (`Kept.rows`)."""
        if apart is None:
            seen = {id(row) for row in winners}
            apart = [row for row in witnesses if id(row) not in seen]
        super().__init__([*winners, *apart])
        self.winners = winners
        self.witnesses = witnesses
        self.kept = kept


def witness_key(row: dict) -> tuple | None:
    """Which latest row `fold_corroborations` reads `row` against, or None when
    it reads it not at all: a witness per (corroboration ref, status), a
    contradiction per ref."""
    ref = row.get("item_ref")
    if type(ref) is not str:
        ref = str(ref or "")
    if not ref:
        return None
    status = row.get("status")
    if type(status) is not str:
        status = str(status or "")
    if ref.startswith(CORROBORATION_PREFIX):
        return (ref, status)
    return (ref,) if daimon_reading.demotes_by_status(status) else None


# mutable because a kept fold grows with each append and caches its rows and corroborations
@dataclass(slots=True)
class Kept:
    """One ledger's kept fold: `size` bytes (ending at a line boundary) hashing
    to `digest`; each kept row with the byte offset its line starts at."""

    size: int
    digest: str
    winners: dict[str, tuple[int, dict]] = field(default_factory=dict)
    witnesses: dict[tuple, tuple[int, dict]] = field(default_factory=dict)
    # ref hash -> where each of its rows starts, in file order; None when a
    # row's line is unknown (then a ref's rows come from daimon's read)
    refs: dict[str, list[int]] | None = field(default_factory=dict)
    # `fold_corroborations` of `witnesses`, once asked: an append refolds only
    # the items its rows name (each item's entry reads only its own rows)
    corroborations: dict | None = None
    # where each row that may be a tombstone starts (file order); None: unknown
    tombstones: list[int] | None = field(default_factory=list)
    # an item's ref hash -> where its witness rows start, not parsed yet (read
    # back from disk with `corroborations`: parsed when a row names the item)
    unparsed: dict[str, list[int]] = field(default_factory=dict)
    # the file's stat key when its bytes last hashed to `digest` at exactly
    # `size`: while it stands, nothing was written (a write moves ctime)
    verified: tuple | None = field(default=None, compare=False)
    # False for a fold rebuilt from the file on disk (our own cache: untrusted
    # input) until `check_against_full` has compared it with daimon's fold
    trusted: bool = field(default=True, compare=False)
    # an item -> its keys in `witnesses` (built on the first refold, then grown
    # by each absorb): a refold looks up the items its rows name, no walk of every key
    index: dict[str, frozenset[tuple]] | None = field(default=None, compare=False, repr=False)
    # daimon's `_fold` of the winners, by its `keys` option, once asked: an
    # absorb folds again only the refs its rows name (`_fold` is per ref)
    folds: dict[bool, dict] = field(default_factory=dict, compare=False, repr=False)
    # the refs of `folds[True]` whose winner may be a tombstone, once asked (the
    # forget walk's `standing_tombstones` reads no other): an absorb carries it
    # over the refs its rows name
    standing: dict[str, None] | None = field(default=None, compare=False, repr=False)
    # the refs of `folds[False]` whose latest event may be a candidate, once asked
    # (the briefing's `_machine_stamps` stamps no other): an absorb carries it on
    candidates: dict[str, None] | None = field(default=None, compare=False, repr=False)
    # the refs of `folds[False]` whose latest event closes the item (`store.is_resolved`: daimon's
    # `Snapshot.resolved_refs` of a snapshot of this fold), once asked: an absorb carries it on
    resolved: dict[str, None] | None = field(default=None, compare=False, repr=False)
    # `KeptRows`' layout, once asked (`rows`): each witness key's place in
    # `witnesses`' order, and by place whether its row is no ref's winner (the
    # rows after the winners); an absorb carries both on, setting the places
    # its rows touched, so the rows are not sifted again one by one
    places: dict[tuple, int] | None = field(default=None, compare=False, repr=False)
    apart: bytearray | None = field(default=None, compare=False, repr=False)
    # `witnesses`' rows in order, when carried from the fold this one grew from (never changed once made)
    witness_rows: list[dict] | None = field(default=None, compare=False, repr=False)
    _rows: KeptRows | None = field(default=None, init=False, repr=False)

    def rows(self) -> KeptRows:
        if self._rows is None:
            witnesses = self.witness_rows
            if witnesses is None:
                witnesses = self.witness_rows = list(map(_ROW, self.witnesses.values()))
            winners = list(map(_ROW, self.winners.values()))
            if self.apart is None:  # made whole once (C-level maps: ~117k witness rows on the heavy store)
                self.places = dict(zip(self.witnesses, itertools.count()))
                seen = set(map(id, winners))
                self.apart = bytearray(map(operator.not_, map(seen.__contains__, map(id, witnesses))))
            self._rows = KeptRows(winners, witnesses, self, list(itertools.compress(witnesses, self.apart)))
        return self._rows

    def _layout(self, witnesses: dict[tuple, tuple[int, dict]], winners: dict[str, tuple[int, dict]],
                added: list[tuple], touched: set[tuple]) -> tuple[dict[tuple, int] | None, bytearray | None]:
        """This fold's `KeptRows` layout (if asked) carried to the fold grown
        to `witnesses` and `winners`: the `added` keys placed last, and each
        key `touched` (its row replaced, or a winner that came or went) sifted again."""
        if self.apart is None or self.places is None:
            return None, None
        places, apart = self.places, bytearray(self.apart)
        if added:
            places = dict(places)
            for place, key in enumerate(added, len(apart)):
                places[key] = place
            apart.extend(bytes(len(added)))
        for key in (*added, *touched):
            held = witnesses.get(key)
            if held is not None:
                apart[places[key]] = not _wins(held[1], winners)
        return places, apart

    def _witness_rows(self, witnesses: dict[tuple, tuple[int, dict]], places: dict[tuple, int] | None,
                      added: list[tuple], touched: set[tuple]) -> list[dict] | None:
        """`witnesses`' rows in order, carried from this fold's (if its rows
        were asked): a copy with the rows of the keys `touched` put in their
        places and those `added` last (in `witnesses`' order: `_layout`'s)."""
        if self._rows is None or places is None:
            return None
        rows = self._rows.witnesses.copy()
        for key in touched:
            held = witnesses.get(key)
            if held is not None and places[key] < len(rows):
                rows[places[key]] = held[1]
        rows.extend(witnesses[key][1] for key in added)
        return rows

    def fold_of_winners(self, daimon: Daimon, *, keys: bool) -> dict:
        """daimon's `_fold(winners, keys=keys)`, kept (the caller copies it)."""
        folded = self.folds.get(keys)
        if folded is None:
            folded = self.folds[keys] = daimon.fold([row for _at, row in self.winners.values()], keys=keys)
        return folded

    def maybe_tombstone_refs(self, daimon: Daimon) -> dict[str, None]:
        """The refs (keys kept) whose winner may be a forget's tombstone (`may_be_tombstone`)."""
        if self.standing is None:
            folded = self.fold_of_winners(daimon, keys=True)
            self.standing = {ref: None for ref, row in folded.items() if may_be_tombstone(row)}
        return self.standing

    def maybe_candidate_refs(self, daimon: Daimon) -> dict[str, None]:
        """The refs of the item fold whose latest event may be a candidate (`may_be_candidate`)."""
        if self.candidates is None:
            folded = self.fold_of_winners(daimon, keys=False)
            self.candidates = {ref: None for ref, row in folded.items() if may_be_candidate(row)}
        return self.candidates

    def resolved_refs(self, daimon: Daimon) -> dict[str, None]:
        """The refs of the item fold whose latest event `store.is_resolved`."""
        if self.resolved is None:
            folded = self.fold_of_winners(daimon, keys=False)
            self.resolved = {ref: None for ref, row in folded.items() if store.is_resolved(row)}
        return self.resolved

    def winners_maybe_tombstones(self, daimon: Daimon) -> list[dict]:
        """The winners (keys kept) that may be a forget's tombstone (`may_be_tombstone`)."""
        folded = self.fold_of_winners(daimon, keys=True)
        return [folded[ref] for ref in self.maybe_tombstone_refs(daimon)]

    def absorb(self, daimon: Daimon, rows: list[dict], starts: list[int], size: int, digest: str,
               folded: dict | None = None, rows_at: RowsAt | None = None) -> Kept:
        """This fold with `rows` (lines starting at `starts`) appended, by `daimon`'s folds;
        `folded`: daimon's fold of `rows` (keys kept), when this one is empty
        and that fold was already made; `rows_at`: reads lines of the
        verified bytes this fold covers (`rows_in_file`), to parse the
        witness rows of the items `rows` name. Raises `Unplaced` when such
        rows cannot be parsed from it."""
        witnesses = dict(self.witnesses)
        unparsed = self.unparsed
        wanted: set[str] = set()
        if unparsed:  # one hash per item the rows name
            named = {item_of(key) for key in map(witness_key, rows) if key is not None}
            wanted = {ref_key(item) for item in named} & unparsed.keys()
        if wanted:
            if rows_at is None:
                raise Unplaced("the witness rows of an appended item are not parsed")
            unparsed = dict(unparsed)
            for item in wanted:
                parse_witnesses(witnesses, rows_at, item, unparsed.pop(item))
        placed = starts if len(starts) == len(rows) else [-1] * len(rows)  # -1: line unknown
        # `_fold` is per ref: only the refs the rows name are folded again, each
        # from its kept winner, and the rest stay (in the same order a fold of
        # every winner plus the rows would give).
        before: list[tuple[int, dict]] = []
        if self.winners:  # a build has none
            named = dict.fromkeys(str(row.get("item_ref") or "") for row in rows if isinstance(row, dict))
            before = [self.winners[ref] for ref in named if ref in self.winners]
        at = {id(row): start for start, row in before}
        at.update(zip(map(id, rows), placed, strict=True))
        winners = dict(self.winners)
        if folded is None or self.winners:
            folded = latest_per_ref([row for _at, row in before] + rows, keys=True, daimon=daimon)
        for ref, row in folded.items():
            winners[ref] = (at.get(id(row), -1), row)
        # the witness keys whose row, or whose row's standing as a winner, moved (for a layout asked)
        touched: set[tuple] = set()
        laid = self.apart is not None
        for row, start in zip(rows, placed, strict=True):
            if (key := witness(witnesses, row, start)) is not None and laid:
                touched.add(key)
        for ref in folded if laid else ():  # a winner that went or came may be a witness row: its key, if any
            for was in (self.winners.get(ref), winners.get(ref)):
                if was is not None:
                    touched.add((ref, str(was[1].get("status") or "")) if ref.startswith(CORROBORATION_PREFIX)
                                else (ref,))
        refs = None
        if self.refs is not None and len(starts) == len(rows):
            refs = dict(self.refs)
            # each ref's list of starts, copied before its first append (the old fold stays whole): one
            # hash per ref, not per row (a build is ~200k rows of ~19k refs)
            lists: dict[str, list[int]] = {}
            grown: dict[str, list[int]] = {}  # by hash
            for row, start in zip(rows, starts, strict=True):
                ref = row.get("item_ref")
                if isinstance(ref, str):
                    held = lists.get(ref)
                    if held is None:
                        hashed = ref_key(ref)
                        held = grown.get(hashed)
                        if held is None:
                            held = grown[hashed] = refs[hashed] = list(refs.get(hashed, ()))
                        lists[ref] = held
                    held.append(start)
        tombstones = None
        if self.tombstones is not None and len(starts) == len(rows):
            tombstones = self.tombstones + list(itertools.compress(starts, map(may_be_tombstone, rows)))
        added = list(itertools.islice(witnesses, len(self.witnesses), None))  # an absorb only adds keys, last
        corroborations, index = self._refold(daimon, witnesses, rows, added)
        places, apart = self._layout(witnesses, winners, added, touched)
        witness_rows = self._witness_rows(witnesses, places, added, touched)
        # a ref's fold is its winner's (one row a ref), so the refs `folded` names are folded again; a
        # new ref lands last in both `winners` and the fold: the refs' order stays the whole fold's
        again = [row for _at, row in map(winners.__getitem__, folded)]
        refolded = {keys: daimon.fold(again, keys=keys) for keys in self.folds}
        folds = {keys: {**self.folds[keys], **again_folded} for keys, again_folded in refolded.items()}
        standing = _carried(self.standing, refolded.get(True), may_be_tombstone)
        candidates = _carried(self.candidates, refolded.get(False), may_be_candidate)
        resolved = _carried(self.resolved, refolded.get(False), store.is_resolved)
        return Kept(size, digest, winners, witnesses, refs, corroborations, tombstones, unparsed,
                    trusted=self.trusted, index=index, folds=folds, standing=standing, candidates=candidates,
                    resolved=resolved, places=places, apart=apart, witness_rows=witness_rows)

    def witness_groups(self) -> dict[str, list[int]]:
        """Where the witness rows start, by item (what `kept_fold_file` keeps)."""
        groups = {item: list(starts) for item, starts in self.unparsed.items()}
        by_item: dict[str, list[int]] = {}
        for key, (at, _row) in self.witnesses.items():
            by_item.setdefault(item_of(key), []).append(at)
        for item, starts in by_item.items():  # one hash per item, not per row
            groups.setdefault(ref_key(item), []).extend(starts)
        return groups

    def _refold(self, daimon: Daimon, witnesses: dict[tuple, tuple[int, dict]], rows: list[dict],
                added: list[tuple] | None = None) -> tuple[dict | None, dict[str, frozenset[tuple]] | None]:
        """The corroboration fold after `rows`, from this one's: the items the
        rows name folded again over their witness rows, the rest kept; and
        the index of `witnesses` by item."""
        if self.corroborations is None:
            return None, self.index
        index = self._index(witnesses, added)
        named = {item for row in rows if (key := witness_key(row)) is not None and (item := item_of(key))}
        if not named:
            return self.corroborations, index
        keys = [key for item in named for key in index.get(item, ())]
        again = daimon.fold_corroborations([witnesses[key][1] for key in keys])
        kept = {item: entry for item, entry in self.corroborations.items() if item not in named}
        kept.update(again)
        return kept, index

    def _index(self, witnesses: dict[tuple, tuple[int, dict]],
               added: list[tuple] | None = None) -> dict[str, frozenset[tuple]]:
        """`witnesses` by item: this fold's index with the keys added since
        (an absorb only adds keys: a later row replaces the row of its key).
        `witnesses` is this fold's own grown by an absorb: a copy, then keys
        replaced in place or added, so the keys added are those after this
        fold's last (no set of ~100,000 keys hashed again per absorb)."""
        if self.index is None:
            found: dict[str, set[tuple]] = {}
            for key in witnesses:
                found.setdefault(item_of(key), set()).add(key)
            return {item: frozenset(keys) for item, keys in found.items()}
        if added is None:
            added = list(itertools.islice(witnesses, len(self.witnesses), None))
        if not added:
            return self.index
        grown: dict[str, set[tuple]] = {}
        for key in added:
            grown.setdefault(item_of(key), set()).add(key)
        index = dict(self.index)
        for item, keys in grown.items():
            index[item] = index.get(item, frozenset()) | keys
        return index

    def rows_of(self, ref: str, row_at: Callable[[int], dict | None]) -> list[dict] | None:
        """The rows addressed to exactly `ref` (or, for TOMBSTONES, every row
        that may be a tombstone), in file order, each read by `row_at(start)`;
        None when that cannot be told from here."""
        if ref == TOMBSTONES:
            starts, belongs = self.tombstones, may_be_tombstone
        else:
            starts = self.refs.get(ref_key(ref), ()) if self.refs is not None else None

            def belongs(row: dict) -> bool:
                return row.get("item_ref") == ref
        if starts is None:
            return None
        rows = []
        for start in starts:
            row = row_at(start)
            if row is None or not belongs(row):
                return None
            rows.append(row)
        return rows


# daimon's `_fold` reads `ts` as a UTC stamp in exactly this shape (contract
# `reading.fold-appended`): between two stamps of this shape the later in
# text is the later in time, so the text compares without a parse.
STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_STAMPS = re.compile(rf"{STAMP.pattern}(?:\0{STAMP.pattern})*")  # STAMPs joined by NULs


def latest_per_ref(rows: Any, *, keys: bool, daimon: Daimon) -> dict:
    """daimon's `_fold(rows, keys=keys)`, its own fold run only over the rows
    that can win: per ref, the rows at its latest well-formed stamp, and any
    row stamped another way (daimon decides what that means). A later stamp
    always wins and a row daimon cannot read as a stamp never displaces one it
    can, so no other row can be a ref's winner, and since daimon's fold is per
    ref and keeps each ref's rows in order, its answer (and the refs' order)
    is the full fold's. The full fold parses the stamp of almost every row
    (`strptime`: most of a 200,000-row fold); this parses one per ref.
    `tests/perf/test_kept_fold.py` holds it equal to daimon's fold."""
    groups: dict[str, list[dict]] = {}
    for row in rows:
        if not isinstance(row, dict):
            continue
        ref = row.get("item_ref")
        if type(ref) is not str:
            ref = str(ref or "")
        if not ref:
            continue
        group = groups.get(ref)
        if group is None:
            groups[ref] = [row]
        else:
            group.append(row)
    chosen: list[dict] = []
    for group in groups.values():
        if len(group) == 1:
            chosen.append(group[0])  # nothing to leave out
            continue
        try:
            stamps = list(map(_TS, group))
        except KeyError:  # a row with no `ts`
            stamps = [row.get("ts") for row in group]
        try:
            joined = "\0".join(stamps)
        except TypeError:  # a stamp that is no text
            joined = None
        if joined is not None and _all_stamps(joined, len(stamps)):  # nearly every ref: its latest stamp, at once
            top = max(stamps)
            if not daimon_reads(top):
                chosen.extend(group)  # daimon reads its latest stamp otherwise
            else:
                chosen.extend(itertools.compress(group, map(operator.eq, stamps, itertools.repeat(top))))
            continue
        chosen.extend(_can_win(group, stamps))
    return daimon.fold(chosen, keys=keys)


_TS = operator.itemgetter("ts")


def _all_stamps(joined: str, count: int) -> bool:
    """`count` texts joined by NULs are each of STAMP's shape, matched once
    over all of them: n stamps so joined are exactly 21n - 1 characters, so
    no text held a NUL of its own and each is one stamp."""
    return len(joined) == 21 * count - 1 and _STAMPS.fullmatch(joined) is not None


def _can_win(group: list[dict], stamps: list[Any]) -> list[dict]:
    """The rows of one ref that can be its winner: at its latest stamp of
    STAMP's shape and any stamped another way; every row when it has no such
    stamp or daimon reads its latest otherwise."""
    shaped = [ts for ts in stamps if isinstance(ts, str) and STAMP.fullmatch(ts)]
    top = max(shaped, default=None)
    if top is None or not daimon_reads(top):
        return group  # nothing to leave out, or daimon reads its latest stamp otherwise
    return [row for row, ts in zip(group, stamps, strict=True)
            if ts == top or (isinstance(ts, str) and not STAMP.fullmatch(ts))]


def daimon_reads(stamp: str) -> bool:
    """daimon's `_created_epoch` reads this text of STAMP's shape as an instant:
    at once when it names a real one (contract `reading.fold-appended`: such a
    stamp is read as that instant; `fromisoformat` is C, daimon's `strptime`
    ~6 us, once per ref: ~0.5 s of a cold Health pass), else daimon's answer."""
    try:
        datetime.fromisoformat(stamp)
    except ValueError:
        return daimon_reading.daimon_stamp_epoch(stamp) is not None
    return True


def _carried(refs: dict[str, None] | None, refolded: dict | None,
             holds: Callable[[Any], bool]) -> dict[str, None] | None:
    """A kept set of a fold's refs whose row `holds`, after an absorb folded
    `refolded` (every ref its rows name) again; None if not kept."""
    if refs is None or refolded is None:
        return None
    refs = dict(refs)
    for ref, row in refolded.items():
        if holds(row):
            refs[ref] = None
        else:
            refs.pop(ref, None)
    return refs


def may_be_tombstone(row: dict) -> bool:
    """A superset of daimon's tombstone rows (`store.is_tombstone_status`)."""
    status = row.get("status")
    if type(status) is not str:
        status = str(status or "")
    return "forgotten" in status.lower()


def may_be_candidate(row: dict) -> bool:
    """A superset of the rows the briefing stamps: a supersede or agent-resolve candidate."""
    return "candidate" in str(row.get("status") or "").lower()


def ref_key(ref: str) -> str:
    """How a ref is named in the kept file: a hash (a legacy ref may be text)."""
    return hashlib.sha256(ref.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def item_of(key: tuple) -> str:
    """The item id a witness key's row counts for or against."""
    ref = key[0]
    return ref[len(CORROBORATION_PREFIX):] if len(key) == 2 else ref


def item_key(key: tuple) -> str:
    """How the item a witness key's row counts for is named on disk."""
    return ref_key(item_of(key))


class Unplaced(ValueError):
    """A kept witness row is not where the kept fold says (not our file)."""


def parse_witnesses(witnesses: dict[tuple, tuple[int, dict]], rows_at: RowsAt, item: str,
                     starts: list[int]) -> None:
    """Add the witness rows of `item` (its ref hash), whose lines start at
    `starts` (read by `rows_at`), to `witnesses`; `Unplaced` when a start is
    not a line's, or its row is not a witness of that item, or one seen already."""
    parsed = rows_at(sorted(starts))
    if parsed is None:
        raise Unplaced(f"a witness offset of {item} does not start a row")
    for start, row in parsed.items():
        key = witness_key(row)
        if key is None or item_key(key) != item or key in witnesses:
            raise Unplaced(f"the row at {start} is not a witness of {item}")
        witnesses[key] = (start, row)


def witness(witnesses: dict[tuple, tuple[int, dict]], row: dict, start: int) -> tuple | None:
    """Hold `row` as its key's latest witness row, if it is one and later; its key when it is held."""
    key = witness_key(row)
    if key is None:
        return None
    held = witnesses.get(key)
    if held is None or stamp_of(row) > stamp_of(held[1]):
        witnesses[key] = (start, row)
        return key
    return None


_ROW = operator.itemgetter(1)  # (where its line starts, the row) -> the row
_NO_WINNER = (-1, None)


def _wins(row: dict, winners: dict[str, tuple[int, dict]]) -> bool:
    """Whether `row` is its ref's winner (`KeptRows` lists a winner once, first)."""
    return winners.get(str(row.get("item_ref") or ""), _NO_WINNER)[1] is row


def stamp_of(row: dict) -> str:
    """What a witness row is ordered by: a later one replaces the held one."""
    return str(row.get("ts") or "")


def corroborations_after(daimon: Daimon, folded: dict | None, rows: list, appended: list) -> dict | None:
    """daimon's corroboration fold of `rows + appended`, from `folded` (its
    fold of `rows`): an item's entry reads only the rows addressed to it or
    to its corroboration ref, so only the items `appended` names are folded
    again, over their own rows."""
    if folded is None:
        return None
    named = {ref[len(CORROBORATION_PREFIX):] if ref.startswith(CORROBORATION_PREFIX) else ref
             for row in appended if isinstance(row, dict) and (ref := str(row.get("item_ref") or ""))}
    if not named:
        return folded
    refs = named | {CORROBORATION_PREFIX + item for item in named}
    theirs = [row for row in (*rows, *appended) if isinstance(row, dict) and str(row.get("item_ref") or "") in refs]
    kept = {item: entry for item, entry in folded.items() if item not in named}
    kept.update(daimon.fold_corroborations(theirs))
    return kept
