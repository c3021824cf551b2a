"""The review: which rows the person has seen, what changed since, and where
they stopped. A controller of the briefing screen (`ui.controller`); it owns the
review state (loaded and written in threads: never on the UI thread), the
dwell that counts a row as read, `n`/`N`, "mark reviewed" and the summary.

A row counts as reviewed once its detail has been on screen for `DWELL_S`
under the cursor (a person reading, not the cursor passing; and only once a
key said a person is there: `domain.review.rest_counts`), once a verb
acted on it, or by `m` / `M`. Fingerprints come from daimon's confirmed
read only: a provisional paint (before daimon answers) is not what the
person reviewed, so a row read then is recorded at the confirmation.

It reads what the list shows from the view it is given (`ShownRows`: the
briefing view's state) and never its screen: what to repaint, and `n`/`N`,
it posts upward (`Repaint`, `Jump`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.message import Message
from textual.timer import Timer

from daimon_tui.domain.review import (
    DWELL_S,
    ReviewState,
    Seen,
    header_words,
    progress_words,
    rest_counts,
    seen_item,
    seen_team,
    seen_withheld,
    team_key,
    what_changed,
)
from daimon_tui.models import Briefing, Item, ProjectRef
from daimon_tui.services.review import ReviewFile, open_review
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.navigation import navigator, when_shown
from daimon_tui.ui.read_worker import work

if TYPE_CHECKING:
    from daimon_tui.domain.review_summary import ReviewSummary


def monotonic() -> float:
    return time.monotonic()


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def row_review_key(row: Any) -> str | None:
    """The review key of a briefing row (an item, a withheld row, a teammate's claim)."""
    if row is None:
        return None
    if getattr(row, "item", None) is not None:
        return row.item.id or None
    if getattr(row, "withheld", None) is not None:
        return row.withheld.id or None
    team = getattr(row, "team", None)
    if team is not None and team.entry is not None:
        return team_key(team.entry)
    return None


class ShownRows(Protocol):
    """What the list shows, as the tracker reads it (the briefing view's state)."""

    show_withheld: bool
    show_team: bool
    row: Any  # the row under the cursor, or None


class ReviewTracker(Controller):

    class Repaint(Message):
        """What changed in the review: the rows whose marker went (`keys`; None: every
        row), then the header and the progress (only those: `keys` empty)."""

        def __init__(self, keys: frozenset[str] | None) -> None:
            super().__init__()
            self.keys = keys

    class Jump(Message):
        """`n`/`N`: the cursor to the next (1) or previous (-1) row not yet reviewed."""

        def __init__(self, direction: int) -> None:
            super().__init__()
            self.direction = direction

    def __init__(self, project: ProjectRef, view: ShownRows, *, enabled: bool = True) -> None:
        super().__init__()
        self.project = project
        self.view = view
        self.enabled = enabled
        self.state: ReviewState | None = None  # None until read
        self.problem: str | None = None
        self.confirmed: Briefing | None = None
        self.current: dict[str, Seen] = {}  # fingerprints of daimon's confirmed read, by key
        self.pending: set[str] = set()  # reviewed while the paint was provisional
        self.acted: set[str] = set()  # items a verb acted on this run
        self.opened_at = stamp()
        self.summary_shown = False
        self.person_here = False  # a key was pressed: rests count from then on
        self.passed_too_fast = False  # the person left a new row before it counted: the rule is said
        self._resting: tuple[str, float] | None = None
        self._timer: Timer | None = None
        self._file: ReviewFile | None = None
        self._sequence = 0
        # what changed, per key, for the current state and fingerprints (each
        # paint asks for every row; a change to either drops what it touches)
        self._said: dict[str, str | None] = {}

    def _forget_said(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._said.pop(key, None)

    # ---- the clock: tests freeze it (`app.review_clock`) instead of sleeping ----

    @property
    def clock(self) -> Callable[[], float]:
        return getattr(self.app, "review_clock", None) or monotonic

    # ---- reading and writing the state (threads) -------------------------------

    def start(self) -> None:
        """Its screen is mounted: read the review state."""
        if self.enabled:
            self.load()

    @work(group="review-load")
    async def load(self) -> None:
        review, state, problem = await open_review(self.project.slug)
        if self.is_attached:
            self._loaded(review, state, problem)

    def _loaded(self, review: ReviewFile, state: ReviewState, problem: str | None) -> None:
        self._file = review
        self.state = state.opened(self.opened_at)
        self._said.clear()
        self.problem = problem
        if problem:
            self.notify(problem, title="review", severity="warning", timeout=20)
        self._settle_pending()
        self.save()
        self._repaint_all()

    def save(self) -> None:
        if self.state is None or self._file is None:
            return
        self._sequence += 1
        self._write(self._pruned(self.state), self._sequence)

    @work(group="review-save")
    async def _write(self, state: ReviewState, sequence: int) -> None:
        review = self._file
        if review is not None and not await review.save(state, sequence):
            self.notify(f"the review state {review.path} could not be written", title="review", severity="warning")

    def _pruned(self, state: ReviewState) -> ReviewState:
        """Keep only rows daimon still has; a forgotten row keeps no text hash."""
        if self.confirmed is None:
            return state
        live = set(self.current) | {k for k in state.rows if k.startswith("team:") and k not in self.current}
        state = state.kept_only(live)
        forgotten = {k: dataclasses.replace(v, seen=dataclasses.replace(v.seen, text="")) for k, v in state.rows.items()
                     if k in self.current and self.current[k].state == "forgotten" and v.seen.text}
        return state.model_copy(update={"rows": {**state.rows, **forgotten}}) if forgotten else state

    # ---- what daimon says now --------------------------------------------------

    def observe(self, briefing: Briefing) -> None:
        """A briefing was painted; only daimon's confirmed read is fingerprinted."""
        if briefing.provisional or not self.enabled:
            return
        self.confirmed = briefing
        salt = self.state.salt if self.state is not None else None
        team = {k: v for k, v in self.current.items() if k.startswith("team:")}
        self.current = dict(team)
        self._said.clear()
        if salt is None:
            return  # fingerprinted when the state arrives (`_loaded` repaints)
        self._fingerprint(briefing, salt)
        self._settle_pending()

    def _fingerprint(self, briefing: Briefing, salt: str) -> None:
        for item in (*briefing.items(), *briefing.resolved):
            if item.id:
                self.current[item.id] = seen_item(item, salt)
        for entry in briefing.withheld:
            if entry.id:
                self.current[entry.id] = seen_withheld(entry)

    def _settle_pending(self) -> None:
        if self.state is None:
            return
        if self.confirmed is not None and not any(not k.startswith("team:") for k in self.current):
            self._fingerprint(self.confirmed, self.state.salt)
        ready = {k for k in self.pending if k in self.current}
        if ready:
            self.pending -= ready
            self.state = self.state.with_reviewed({k: self.current[k] for k in ready}, stamp())
            self._forget_said(ready)
            self.save()

    def team_seen(self, entry: Any) -> str | None:
        key = team_key(entry)
        if key is not None and self.state is not None:
            seen = seen_team(entry, self.state.salt)
            if self.current.get(key) != seen:
                self.current[key] = seen
                self._said.pop(key, None)
        return key

    def team_prompt(self, text: Text, team_row: Any) -> Text:
        """A teammate's claim row, led by what changed since the last review."""
        from daimon_tui.ui.widgets.item_row import change_marker

        if getattr(team_row, "entry", None) is None:
            return text
        change = self.change(self.team_seen(team_row.entry))
        return Text.assemble(change_marker(change), text) if change else text

    def change(self, key: str | None) -> str | None:
        """What changed under this row since it was last reviewed (None: nothing, or not known yet)."""
        if key is None or self.state is None or not self.enabled:
            return None
        seen = self.current.get(key)
        if seen is None:
            return None
        if key in self._said:
            return self._said[key]
        before = self.state.rows.get(key)
        said = self._said[key] = what_changed(before.seen if before else None, seen)
        return said

    def is_new(self, item: Item) -> bool:
        return bool(self.change(item.id) or (item.id and self.change(f"team:{item.id}")))

    def universe(self) -> list[str]:
        """The rows the count and the progress are over: daimon's briefing
        (its withheld rows only when shown) and the teammates' claims when shown."""
        if self.confirmed is None:
            return []
        keys = [i.id for i in self.confirmed.items() if i.id]
        if self.view.show_withheld:
            keys += [i.id for i in self.confirmed.resolved if i.id] + [w.id for w in self.confirmed.withheld if w.id]
        if self.view.show_team:
            keys += [k for k in self.current if k.startswith("team:")]
        return list(dict.fromkeys(keys))

    def left(self) -> list[tuple[str, str]]:
        return [(k, c) for k in self.universe() if (c := self.change(k))]

    def header(self) -> Text | None:
        """The header's review line; None before the state and daimon's answer are in."""
        if self.state is None or self.confirmed is None or not self.enabled or self.confirmed.state != "briefing":
            return None
        new = len(self.left())
        return Text(header_words(new), style="bold yellow" if new else "dim")

    def progress(self) -> str:
        universe = self.universe()
        if self.state is None or not universe:
            return ""
        return progress_words(len(universe) - len(self.left()), len(universe), passed_too_fast=self.passed_too_fast)

    # ---- reviewing ---------------------------------------------------------------

    def rest(self, row: Any) -> None:
        """The row's detail is on screen: it counts as read after `DWELL_S`."""
        self.leave()
        key = row_review_key(row)
        if key is None or not self.enabled:
            return
        self._resting = (key, self.clock())
        self._timer = self.set_timer(DWELL_S, when_shown(self, self._settle_rest))

    def person_pressed(self) -> None:
        """A key: someone is at the keyboard, so a rest on a row now reads it."""
        self.person_here = True

    def leave(self, *, moved_on: bool = False) -> None:
        """The cursor moved: a row it rested on long enough counts; a new one
        the person moved on from sooner (`moved_on`) makes the progress say
        the rule (once, until a rest counts)."""
        self._settle_rest()
        resting = self._resting
        if (moved_on and resting is not None and self.person_here and not self.passed_too_fast
                and self.change(resting[0]) is not None):
            self.passed_too_fast = True
            self._repaint_header()
        self._resting = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _settle_rest(self) -> None:
        resting = self._resting
        if resting is not None and rest_counts(self.clock() - resting[1], person_here=self.person_here):
            self._resting = None
            if self.passed_too_fast:  # a rest counted: the rule is known, the progress stops saying it
                self.passed_too_fast = False
                self._repaint_header()
            self.reviewed((resting[0],))

    def verb_acted(self, ids: tuple[str, ...]) -> None:
        """A verb acted on these items: reviewed as daimon shows them after it."""
        self.acted.update(ids)
        self.pending.update(ids)
        self.summary_shown = False

    def reviewed(self, keys: tuple[str, ...]) -> None:
        if self.state is None or not self.enabled:
            self.pending.update(keys)
            return
        now = {k: self.current[k] for k in keys if k in self.current}
        self.pending.update(k for k in keys if k not in self.current)
        changed = {k for k, seen in now.items() if self.change(k) is not None or k not in self.state.rows}
        if not now:
            return
        self.state = self.state.with_reviewed(now, stamp())
        self._forget_said(now)
        self.save()
        if changed:
            self._repaint(changed)

    def _repaint(self, keys: set[str]) -> None:
        """Only the rows whose marker went, then the header and the border."""
        self.post_message(self.Repaint(frozenset(keys)))

    def _repaint_header(self) -> None:
        self.post_message(self.Repaint(frozenset()))

    def _repaint_all(self) -> None:
        self.post_message(self.Repaint(None))

    def rebuilt(self) -> None:
        """The list was rebuilt: what it counts may have changed (withheld or team rows shown)."""
        if self.state is not None and self.confirmed is not None:
            self._repaint_header()

    # ---- keys --------------------------------------------------------------------

    def act(self, what: str) -> None:
        if not self.enabled:
            self.notify("The review follows the latest briefing (1).")
            return
        if self.state is None or self.confirmed is None:
            self.notify("The review is still reading (it waits for daimon's answer).")
            return
        if what in ("next", "previous"):
            self.jump(1 if what == "next" else -1)
        elif what == "mark":
            key = row_review_key(self.view.row)
            if key is None:
                self.notify("No row under the cursor to mark reviewed.")
                return
            self.reviewed((key,))
            self.notify("Marked reviewed." if self.change(key) is None else "Reviewed once daimon confirms it.")
        elif what == "all":
            keys = tuple(self.universe())
            self.reviewed(keys)
            self._repaint_all()
            self.notify(f"Marked {len(keys):,} row(s) reviewed.")
        elif what == "summary":
            self.show_summary(quitting=False)

    def jump(self, direction: int) -> None:
        self.post_message(self.Jump(direction))

    # ---- the summary ---------------------------------------------------------

    def summary(self, entries: list | None = None) -> ReviewSummary:
        from daimon_tui.domain.review_summary import summarize
        from daimon_tui.services import action_log

        if entries is None:
            entries = action_log.entries(self.app.action_log)  # type: ignore[attr-defined]
        assert self.state is not None
        return summarize(self.project.slug, entries, self.state, since=self.opened_at,
                         live_keys=self.universe(), left=self.left())

    @work(group="review-summary")
    async def show_summary(self, quitting: bool) -> None:
        from daimon_tui.services import action_log
        from daimon_tui.ui.briefing.review_summary import ReviewSummaryScreen

        try:
            entries = await action_log.read_entries(self.app.action_log)  # type: ignore[attr-defined]
        except OSError as exc:
            self.notify(f"The action log cannot be read: {exc}", severity="error")
            entries = []
        self.summary_shown = True
        await navigator(self.app).open(ReviewSummaryScreen(self.summary(entries), quitting=quitting,
                                                       name=self.project.name or None, text_of=self.text_of))

    def text_of(self, key: str) -> str | None:
        """The item's text as daimon's briefing holds it now (a resolved one too), or None."""
        found = self.confirmed.find(key) if self.confirmed is not None else None
        return found.text if found is not None else None
