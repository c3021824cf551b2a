"""daimon's own CLI, in process, as a person at another terminal runs it."""

from __future__ import annotations

import contextlib
import io
from unittest import mock


class Terminal(io.StringIO):
    """daimon's human verbs want a terminal at stdin (a person at a keyboard)."""

    def isatty(self) -> bool:
        return True


def daimon(*argv: str) -> int:
    """Run `daimon ARGV...` here; its exit status (its printing is dropped)."""
    from daimon_briefing import cli as daimon_cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            mock.patch("sys.stdin", Terminal()):
        return daimon_cli.main(list(argv))
