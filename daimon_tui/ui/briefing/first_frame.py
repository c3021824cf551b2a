"""The briefing screen's first frame: when it is drawn, and what a later
open's kept frame (`services.kept_open`, drawn before daimon is imported)
leaves until then: the review file and daimon's safe-mode check (each imports
pydantic or daimon), the kill switch asked again, and asking for the judging
child (`load` waits for this)."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from daimon_tui.services import session
from daimon_tui.ui.briefing import first_frame_probe
from daimon_tui.ui.widgets.safe_mode_banner import SafeModeBanner


class BriefingScreen(Protocol):
    """What this reads and does on the briefing screen (`screen` imports this module)."""

    review: Any
    writes_disabled: bool

    def paint_header(self) -> None: ...

    def query_one(self, selector: Any, expect_type: Any = None) -> Any: ...


class FirstFrame:
    def __init__(self, *, kept: bool) -> None:
        self.kept = kept  # drawn from the kept layout, before daimon
        self.drawn = asyncio.Event()

    def mounted(self, screen: BriefingScreen) -> None:
        if not self.kept:  # a kept frame's review file is read once it is drawn (it imports pydantic)
            screen.review.start()

    def on_drawn(self, screen: BriefingScreen) -> None:
        """The first briefing is on screen (after its refresh): what waited for it may start."""
        if self.drawn.is_set():
            return
        self.drawn.set()
        first_frame_probe.drawn(screen)
        if self.kept:
            screen.review.start()
            screen.query_one(SafeModeBanner).check()

    async def confirm_delay(self, screen: BriefingScreen, first_delay: float) -> float:
        """Once drawn: how long the confirmation waits (none with a child running, which costs
        nothing to ask); a kept frame's header is told the kill switch as it is now."""
        await self.drawn.wait()
        if self.kept:
            self.kept = False
            disabled = session.writes_disabled()  # the kept frame said the last open's
            if disabled != screen.writes_disabled:
                screen.writes_disabled = disabled
                screen.paint_header()
        return 0.0 if session.child_started() else first_delay
