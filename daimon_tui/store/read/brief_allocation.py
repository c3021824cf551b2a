"""Which items `daimon brief` keeps within its byte budget: daimon's allocator's
decision, reached in n log n.

daimon's `briefing.select` (its docstring is the specification) drops whole
candidates in one global order until the rendered briefing fits the budget.
It finds that point by rendering the whole briefing again for each item it
drops, and ranks each section's weights by comparing every pair: quadratic,
most of a minute at 5,000 items. This module reaches the same `Selection`:

* the same candidates and drop key, from daimon's own terms (flagged,
  carried, stale, age: `daimon_api.allocating`), with each section's rank
  percentile counted by bisection over its sorted weights;
* the size of "the first n candidates dropped" for every n, from one render by
  daimon plus what each drop changes: the item's line (daimon's own line) and
  its section's note (daimon's own `section_note`, asked again whenever a count
  the note prints changes width or crosses 0 or 1: the note is its counts in
  words, so between those its length stays; the checks below catch a daimon
  whose note says more);
* the answer is a `briefing.Selection` built as daimon builds it, rendered by
  daimon at the chosen point and the one before, and those sizes must be the
  ones predicted; any disagreement (or safe mode) answers with daimon's own
  `select`.

tests/store/test_brief_allocation.py proves it equal to `briefing.select` over
generated briefings.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from daimon_tui.store.daimon_api import allocating, composed, rendering
from daimon_tui.store.daimon_api.composed import rank_fractions
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import briefing, config, scoring

TEAMMATES = "teammates"


class Disagreed(Exception):
    """Our predicted size and daimon's render differ (a daimon we do not know)."""


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def _width(count: int) -> int:
    """What a printed count's length depends on: 0 and 1 (words and parts
    appear with them), else its number of digits."""
    return count if count < 2 else 1 + len(str(count))


def allocate(b: Mapping, budget: int | None, now: float | None = None, **options: Any) -> briefing.Selection:
    """`briefing.select(b, budget, now, **options)`'s answer, or `Disagreed`.
    `Unavailable` when this mode may not call daimon's terms."""
    return _Allocation(b, budget, now, **options).select()


def select(b: Mapping, budget: int | None, now: float | None = None, **options: Any) -> briefing.Selection:
    """daimon's allocation: ours, else (safe mode, or a disagreement with
    daimon's render) daimon's own `briefing.select`, exact and quadratic."""
    try:
        return allocate(b, budget, now, **options)
    except (Unavailable, Disagreed):
        return briefing.select(b, budget, now, **options)


class _Allocation:
    def __init__(self, b: Mapping, budget: int | None, now: float | None, *, degraded: bool = False,
                 rulings: Sequence[str] = (), request_lines: Sequence[str] = (), verdict_lines: Sequence[str] = (),
                 owed_lines: Sequence[str] = (), decision_count: str | None = None, reserved: int = 0,
                 teammate_blocks: Sequence[str] = (), teammate_header: str = "", loops_pointer: bool = True,
                 full_quotes: bool = False, notes: Sequence[str] = (), cards: Mapping | None = None) -> None:
        self.terms = allocating.terms()
        if now is None:
            now = b.get("now") if isinstance(b.get("now"), int | float) else time.time()
        self.now = now
        self.budget = budget
        self.options = dict(degraded=degraded, rulings=list(rulings), count_line=decision_count, reserved=reserved,
                            teammate_header=teammate_header, loops_pointer=loops_pointer, full_quotes=full_quotes,
                            notes=notes, cards=cards)
        self.cap = config.max_briefing_decisions()
        self.stale_days = config.stale_days()
        self.sections = composed.item_sections()
        self.line_cache: dict = {}
        self.blocks = list(teammate_blocks)
        self.panel_sets = [(list(lines), pointer, name) for lines, pointer, name in zip(
            (request_lines, verdict_lines, owed_lines), composed.PANEL_POINTERS, ("request", "verdict", "owed"),
            strict=True)]
        active = b.get("active_topic")
        self.active = active if isinstance(active, dict) else None
        self._entries(b)
        self._candidates()

    # -- what daimon's allocator starts from ----------------------------------------

    def _entries(self, b: Mapping) -> None:
        """Each section's items with their positions; decisions over daimon's cap
        dropped first ("cap"); the newest native decisions kept as the floor."""
        self.capped: dict[str, list] = {s: [] for s in self.sections}
        self.totals: dict[str, int] = {}
        self.entries: dict[str, list[tuple[int, Any]]] = {}
        for s in self.sections:
            raw = [i for i in (b.get(s) or []) if isinstance(i, dict)]
            self.totals[s] = len(raw)
            self.entries[s] = list(enumerate(raw))
        kept, capped = self.terms.split_decisions([it for _, it in self.entries["decisions"]], self.cap, self.now)
        self.capped["decisions"] = [d for _, d in capped]
        self.entries["decisions"] = kept
        self.floor_n = self.terms.decision_floor(self.cap)
        native = [i for i, d in kept if not self.terms.is_carried(d)]
        self.floor_order = native[-self.floor_n:] if self.floor_n else []

    def _candidates(self) -> None:
        """Every droppable item (and teammate past the floor) in drop order, lowest key first."""
        t, now = self.terms, self.now
        floor = set(self.floor_order)
        cands: list[tuple] = []
        for s in self.sections:
            pool = [(i, it) for i, it in self.entries[s] if not (s == "decisions" and i in floor)]
            if not pool:
                continue
            kind = composed.weight_type(s)
            fractions = rank_fractions([scoring.effective_weight(it, kind, now) for _, it in pool])
            rank, background, order = (composed.TIE_SECTION_RANK[s], s in composed.BACKGROUND,
                                       briefing.SECTION_ORDER.index(s))
            for (idx, it), fraction in zip(pool, fractions, strict=True):
                # decisions are chronological (oldest first to go), the others heaviest first (tail first to go)
                ordinal = idx if s == "decisions" else -idx
                key = (1 if t.is_flagged(it) else 0, 0 if t.stale_days(it) is not None else 1, 0 if background else 1,
                       0 if t.is_carried(it) else 1, fraction, rank, -t.age_days(it, now), ordinal, order)
                cands.append((key, s, idx, it))
        # Teammates past the floor: background, the lightest of all, older ones first.
        for ti in range(min(composed.TEAMMATE_FLOOR, len(self.blocks)), len(self.blocks)):
            cands.append(((0, 1, 0, 1, -1.0, -1, 0.0, -ti, len(briefing.SECTION_ORDER)), TEAMMATES, ti, None))
        cands.sort(key=lambda c: c[0])
        self.cands = cands

    def _shorten(self) -> None:
        """daimon's first stage when even nothing dropped is over budget: long
        non-verbatim texts shortened, before any item drops."""
        for s in self.sections:
            self.entries[s] = [(idx, allocating.shortened(it)) for idx, it in self.entries[s]]
        lookup = {s: dict(self.entries[s]) for s in self.sections}
        self.cands = [(k, s, idx, it if s == TEAMMATES else lookup[s][idx]) for k, s, idx, it in self.cands]

    def _sequence(self, floor_keep: int) -> list[tuple]:
        """The drop order; once the floor gives way every older decision goes
        first, so a newer decision never gives way to an older one."""
        if floor_keep < self.floor_n:
            return sorted(self.cands, key=lambda c: 0 if c[1] == "decisions" else 1)
        return self.cands

    def _floor_cut(self, floor_keep: int) -> set[int]:
        return set(self.floor_order[:max(0, len(self.floor_order) - floor_keep)])

    # -- one selection, as daimon builds it ------------------------------------------

    def build(self, n_dropped: int, floor_keep: int, collapse: bool, overage: int = 0) -> briefing.Selection:
        seq = self._sequence(floor_keep)
        drop = {(s, idx) for _, s, idx, _ in seq[:n_dropped]}
        floor_cut = self._floor_cut(floor_keep)
        kept: dict[str, Any] = {}
        dropped = {s: list(self.capped[s]) for s in self.sections}
        reasons = {s: ["cap"] * len(self.capped[s]) for s in self.sections}
        for s in self.sections:
            keep = []
            for idx, it in self.entries[s]:
                if (s, idx) in drop or (s == "decisions" and idx in floor_cut):
                    dropped[s].append(it)
                    reasons[s].append("budget")
                else:
                    keep.append(it)
            kept[s] = keep
        kept["active_topic"] = self.active
        panels = [self.terms.collapse_panel(lines, pointer) if collapse else lines
                  for lines, pointer, _ in self.panel_sets if lines]
        names = [name for lines, _, name in self.panel_sets if lines]
        selection = briefing.Selection(
            kept, dropped, reasons, order=[(s, it) for _, s, _, it in seq], totals=self.totals, cap=self.cap,
            stale_days=self.stale_days, budget=self.budget, panels=panels, overage=overage, now=self.now,
            panel_names=names, teammate_blocks=self.blocks,
            kept_teammates=[ti for ti in range(len(self.blocks)) if (TEAMMATES, ti) not in drop],
            collapsed=collapse, **self.options)
        allocating.share_lines(selection, self.line_cache)
        return selection

    def size(self, selection: briefing.Selection) -> int:
        """Everything `daimon brief` prints, by daimon's render: the body, the
        blocks beside it, the teammates."""
        return (_bytes(briefing.render_selection(selection)) + self.options["reserved"]
                + _bytes(briefing.teammates_text(selection)))

    # -- the decision ------------------------------------------------------------------

    def select(self) -> briefing.Selection:
        if self.budget is None:
            return self.build(0, self.floor_n, False)
        if self.size(self.build(0, self.floor_n, False)) > self.budget:
            self._shorten()
        full = len(self.cands)
        # The protection levels: full panels and floor; collapsed panels; a floor of one.
        for floor_keep, collapse in ((self.floor_n, False), (self.floor_n, True), (min(1, self.floor_n), True)):
            if self.size(self.build(full, floor_keep, collapse)) <= self.budget:
                return self._first_fit(floor_keep, collapse)
        floor_keep, collapse = min(1, self.floor_n), True
        over = self.size(self.build(full, floor_keep, collapse)) - self.budget
        return self.build(full, floor_keep, collapse, overage=max(over, 1))

    def _first_fit(self, floor_keep: int, collapse: bool) -> briefing.Selection:
        """The selection with the fewest candidates dropped that fits, at this
        level (one that fits with all of them dropped exists)."""
        seq = self._sequence(floor_keep)
        start = sum(1 for c in seq if c[1] == "decisions") if floor_keep < self.floor_n else 0
        first = self.build(start, floor_keep, collapse)
        sizes = {start: self.size(first)}
        if sizes[start] > self.budget:
            gone = {(s, idx) for _, s, idx, _ in seq[:start]} | {("decisions", i) for i in self._floor_cut(floor_keep)}
            notes = {s: _SectionNote(self, first, s, gone) for s in self.sections}
            team = _Teammates(self, first)
            size = sizes[start]
            for n in range(start, len(seq)):
                _, s, idx, it = seq[n]
                if s == TEAMMATES:
                    size += team.drop(idx)
                else:
                    size += notes[s].drop(idx, it) - _bytes(rendering.selected_line(first, s, it)) - 1
                sizes[n + 1] = size
                if size <= self.budget:
                    break
        chosen = max(sizes)
        if sizes[chosen] > self.budget:
            raise Disagreed
        selection = self.build(chosen, floor_keep, collapse)
        if self.size(selection) != sizes[chosen]:
            raise Disagreed
        if chosen > start and self.size(self.build(chosen - 1, floor_keep, collapse)) != sizes[chosen - 1]:
            raise Disagreed
        return selection


class _SectionNote:
    """A section's note ("  (3 of 9 shown; …)") as items drop: daimon's own
    text, asked again only when a count it prints changes width."""

    def __init__(self, allocation: _Allocation, first: briefing.Selection, section: str, gone: set) -> None:
        self.allocation = allocation
        self.section = section
        self.kept = {idx: it for idx, it in allocation.entries[section] if (section, idx) not in gone}
        self.lost = list(first.dropped[section])
        self.reasons = list(first.reasons[section])
        t = allocation.terms
        self.counts = {"flagged": sum(1 for i in self.lost if t.is_flagged(i)),
                       "carried": sum(1 for i in self.lost if t.is_carried(i)),
                       "native_cap": sum(1 for i, r in zip(self.lost, self.reasons, strict=True)
                                         if r == "cap" and not t.is_carried(i)),
                       "stale": sum(1 for i in self.lost if t.stale_days(i) is not None)}
        note = briefing.section_note(first, section)
        self.length = None if note is None else _bytes(note)
        self.shape = self._shape()

    def _shape(self) -> tuple:
        c = self.counts
        lost = len(self.lost)
        native_budget = lost - c["carried"] - c["native_cap"]
        return tuple(_width(n) for n in (len(self.kept), lost, c["flagged"], c["carried"], c["native_cap"],
                                         native_budget, c["stale"], lost - c["stale"]))

    def drop(self, idx: int, item: Any) -> int:
        """Drop one item for budget; the bytes the note's part of the briefing changes by."""
        t = self.allocation.terms
        del self.kept[idx]
        self.lost.append(item)
        self.reasons.append("budget")
        self.counts["flagged"] += t.is_flagged(item)
        self.counts["carried"] += t.is_carried(item)
        self.counts["stale"] += t.stale_days(item) is not None
        shape = self._shape()
        if shape == self.shape:
            return 0
        self.shape = shape
        before = self.length
        note = briefing.section_note(self._view(), self.section)
        self.length = None if note is None else _bytes(note)
        # a note is a part of its own: its bytes and one newline
        return (0 if self.length is None else self.length + 1) - (0 if before is None else before + 1)

    def _view(self) -> briefing.Selection:
        a, s = self.allocation, self.section
        return briefing.Selection({s: list(self.kept.values())}, {s: self.lost}, {s: self.reasons}, order=(),
                                  totals=a.totals, cap=a.cap, stale_days=a.stale_days, budget=a.budget, panels=(),
                                  overage=0, now=a.now, **a.options)


class _Teammates:
    """The teammates block as teammates past the floor drop (daimon's own text)."""

    def __init__(self, allocation: _Allocation, first: briefing.Selection) -> None:
        self.allocation = allocation
        self.kept = list(first.kept_teammates)
        self.length = _bytes(briefing.teammates_text(first))

    def drop(self, ti: int) -> int:
        a = self.allocation
        self.kept.remove(ti)
        view = briefing.Selection({}, {}, {}, order=(), totals=a.totals, cap=a.cap, stale_days=a.stale_days,
                                  budget=a.budget, panels=(), overage=0, now=a.now, teammate_blocks=a.blocks,
                                  kept_teammates=self.kept, **a.options)
        before, self.length = self.length, _bytes(briefing.teammates_text(view))
        return self.length - before
