"""A test's hook: with `DAIMON_TUI_FIRST_FRAME_MODULES=FILE`, the first
briefing drawn writes the names of every module imported by then (sorted,
one a line) and the provisional flag to FILE, and the app exits. What a
later open's first frame waits for is then a fact a test can read."""

from __future__ import annotations

import os
import sys
from typing import Any

VARIABLE = "DAIMON_TUI_FIRST_FRAME_MODULES"


def drawn(screen: Any) -> None:
    target = os.environ.get(VARIABLE)
    if not target:
        return
    os.environ.pop(VARIABLE)  # once: a later screen's frame is not the first
    rows = sorted(str(row.item.text) for row in screen.rows if row.item is not None)
    lines = [f"provisional={screen.provisional}", *("item=" + text.replace("\n", " ") for text in rows),
             *sorted(sys.modules)]
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    screen.app.exit(0)
