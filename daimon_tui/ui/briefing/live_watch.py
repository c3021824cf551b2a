"""The briefing's live watch: daimon's bucket is watched, appended events apply
at once (provisional), any change re-confirms with daimon, and the person is
told once per burst what changed.

Appended rows that a confirmation already under way reads past (the app's own
write, seen by the watch while the verb's reload confirms) ask for no second
confirmation: one behind the other, the second judged the same rows again
(at 5,019 items the screen stayed provisional ~12 s after a write, not ~5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.timer import Timer

from daimon_tui.domain.inert import inert
from daimon_tui.services import live
from daimon_tui.ui import own_writes
from daimon_tui.ui.briefing.messages import LiveApplied, ReloadWanted
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.read_worker import work

if TYPE_CHECKING:
    from daimon_tui.models import Briefing
    from daimon_tui.ui.briefing.state import BriefingState

CHANGES_COALESCE_S = 1.0


class LiveWatch(Controller):
    """A controller of the briefing screen (`ui.controller`): it reads the view's
    state it is given and posts what changed (`LiveApplied`, `ReloadWanted`) to its screen."""

    def __init__(self, state: BriefingState, slug: str) -> None:
        super().__init__()
        self.state = state
        self.slug = slug
        # the briefing this watch posted last, and the one it was applied to (the screen takes it on its next turn)
        self._posted: tuple[Briefing, Briefing] | None = None
        # a new session seen: (its predecessor's id, the ids it listed), said once daimon confirms
        self._new_session: tuple[str | None, set[str | None]] | None = None
        self.started = False
        self._changes: list[str] = []
        self._changes_timer: Timer | None = None
        # (token, the events ledger's size) of the confirmation under way
        self._confirming: tuple[object, int | None] | None = None

    def start(self) -> None:
        if not self.started:
            self.started = True
            self.watch_bucket()

    def confirming(self, slug: str) -> Callable[[], None]:
        """A confirmation of bucket `slug` starts reading daimon's ledgers now;
        call what this returns when it ended (answered, failed or cancelled)."""
        token, size = object(), live.events_size(slug)
        self._confirming = (token, size)

        def ended() -> None:
            if self._confirming is not None and self._confirming[0] is token:
                self._confirming = None

        return ended

    def _covered(self, names: frozenset[str], rows: list[dict] | None, offset: int) -> bool:
        """Only events were appended, and the confirmation under way reads past them."""
        size = self._confirming[1] if self._confirming is not None else None
        return bool(rows) and names == {"events.jsonl"} and size is not None and size >= offset

    @work(exclusive=True, group="briefing-live")
    async def watch_bucket(self) -> None:
        """Cursor, marks and detail pane stay through a change."""
        def fell_back(message: str) -> None:
            self.notify(message, severity="warning")

        async for batch in live.bucket_changes(self.slug, fell_back):
            names, rows = batch.names, batch.rows
            shown = self._shown()
            change = live.apply_events(shown, rows) if rows and shown else None
            if change is not None and shown is not None:
                self._posted = (shown, change.briefing)
                self.post_message(LiveApplied(change.briefing, shown))
                # the verb's own notice already said what the app wrote
                others = [row for row in rows if not own_writes.is_own(self.app, row)]
                told = change if len(others) == len(rows) else live.apply_events(shown, others) if others else None
                if told is not None:
                    self.ledger_changed(told.summary())
            if self._covered(names, rows, batch.offset):
                continue  # the confirmation under way shows them confirmed
            new_pointer = "latest.json" in names
            if new_pointer and self._new_session is None:
                before = self._shown()
                self._new_session = (before.session_id if before else None,
                                     {i.id for i in before.items()} if before else set())
            self.post_message(ReloadWanted(repaint=new_pointer or rows is None, delay=0.3))

    def _shown(self) -> Briefing | None:
        """The briefing on screen, or the one this watch posted that the screen has not taken yet."""
        shown = self.state.briefing
        if self._posted is not None and shown is self._posted[0]:
            return self._posted[1]
        return shown

    def ledger_changed(self, summary: str) -> None:
        """One toast per burst: ten changes at once must not cover the preview."""
        self._changes.append(summary)
        if self._changes_timer is None:
            self._changes_timer = self.set_timer(CHANGES_COALESCE_S, self._say_changes)

    def _say_changes(self) -> None:
        changes, self._changes, self._changes_timer = self._changes, [], None
        if len(changes) == 1:
            self.notify(f"daimon's ledger changed: {changes[0]} (confirming…)")
        elif changes:
            self.notify(f"daimon's ledger changed {len(changes)} times; latest: {changes[-1]} (confirming…)")

    def confirmed(self, briefing: Briefing) -> None:
        """daimon confirmed `briefing`: say what a new session seen meanwhile changed."""
        if self._new_session is None:
            return
        (before, old), self._new_session = self._new_session, None
        if briefing.session_id == before:
            return
        now = {i.id for i in briefing.items()}
        sid = inert(briefing.session_id or "", limit=12)
        self.notify(f"new session {sid}: {len(now - old)} added, {len(old - now)} gone")
