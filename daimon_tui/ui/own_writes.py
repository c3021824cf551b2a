"""The app's own writes, told apart from everyone else's on the live watch.

A verb's notice already says what the app wrote ("daimon now says …"); the
bucket watch sees the same appended rows a moment later and would announce
them again as "daimon's ledger changed". While a write of ours runs, and for
a short grace after it (the watch debounces), rows with daimon's human `ui`
source are ours: they are applied and confirmed like any other, only not
announced as someone else's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

# The bucket watch debounces and the confirmation follows; a later `ui` row
# (another daimon-tui) is still applied and confirmed, only not toasted.
GRACE_S = 3.0


def writing(app: Any) -> None:
    app._own_writes_until = math.inf


def wrote(app: Any) -> None:
    app._own_writes_until = time.monotonic() + GRACE_S


def is_own(app: Any, row: Mapping) -> bool:
    return row.get("source") == "ui" and time.monotonic() < getattr(app, "_own_writes_until", 0.0)
