"""daimon's command-line modules the store calls, apart from `public`: they
cost ~23 ms more to import, so only the reads that need them load them."""

from __future__ import annotations

from daimon_briefing import cli  # the CLI's own project routing
from daimon_briefing.cli import history  # `daimon diff` / `blame`: the checkpoint chain's changes

__all__ = ["SURFACE", "cli", "history"]

# Every public attribute the store calls on each module above (tests/store/test_daimon_public.py).
SURFACE: dict[str, frozenset[str]] = {
    "cli": frozenset({"loops_lists_project"}),
    "cli.history": frozenset({"changes"}),
}
