"""The once-per-run check of the kept events fold against daimon's own fold.

The kept fold's numbers come from our cache on disk: untrusted input. A file
whose size and digest still match the ledger but that lost a winner's
offset would make a resolved item read as live, under "confirmed by daimon".
So once per run (per child), after the confirming read, the judging child
reads and folds each such ledger as daimon does, a block of lines at a time,
keeping only where each row that could win starts (never a second fold of
rows, nor the ledger's bytes whole: `kept_fold._fold_in_blocks`), and
compares; a fold that disagrees is discarded, and the app confirms again with a child that
holds nothing of it (`first_paint.confirm_async`). A fold the check finds
right is written sealed, as is one built from daimon's full read
(`kept_fold_file`): a sealed file loads trusted and is not checked again.
"""

from __future__ import annotations

from daimon_tui.models import Frozen, ProjectRef
from daimon_tui.store.judging import kept_fold


class FoldCheck(Frozen):
    """What the check found: `discarded` names each kept fold found wrong."""

    discarded: tuple[str, ...] = ()


def check(project: ProjectRef) -> FoldCheck:
    """Every kept fold read from disk this run and not checked yet."""
    found = tuple(why for key in kept_fold.untrusted() if (why := kept_fold.check_against_full(key)))
    return FoldCheck(discarded=found)
