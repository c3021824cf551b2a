"""A judging child busy in a long fold (run as `python -m tests.hostile.busy_child`):
the real `judge_child.main`, whose every fold (a request's `fold`, the early
child's warm) is 120 s of pure Python holding the GIL, as daimon's fold does.
It writes its pid to `$DAIMON_TUI_TEST_MARKS/folding` when the fold starts."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from daimon_tui.store.child import judge_child


def fold(*_args: Any) -> None:
    Path(os.environ["DAIMON_TUI_TEST_MARKS"], "folding").write_text(str(os.getpid()))
    end, turns = time.monotonic() + 120, 0
    while time.monotonic() < end:
        turns += 1


judge_child.READS["fold"] = ("tests.hostile.busy_child:fold", "daimon_tui.store.judging.kept_fold_check:FoldCheck")
judge_child._warm = fold  # the early child's warm too

if __name__ == "__main__":
    raise SystemExit(judge_child.main())
