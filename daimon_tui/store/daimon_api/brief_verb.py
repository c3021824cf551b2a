"""daimon's own `brief` verb, run in this process with its effects dropped:
its bytes and its exit code in every mode it has (project or slug, `--team`,
world-check on, global fallback), and nothing written.

`daimon brief` records its side effects (the usage line, the world-check
counters and rejection-ledger rows, the surfaced stamps) into an `Effects`
collector that its `committing` decorator writes after the verb returns. Here
the verb's undecorated body runs with a collector nobody commits, so the
store's bytes do not change.

Its world-check (`DAIMON_WORLDCHECK`) answers on-disk claims (files, branches,
dependencies, a receipt's byte match) in process, and may start `gh` (the
network) or the receipt signer for the rest. Those probes are not run here:
when daimon would have run one, its text cannot be reproduced offline and
`NotReproducible` says so instead of printing a different briefing.

Private daimon names, all in this module (contract `brief_verb.verb`):
`cli.brief._cmd_brief.__wrapped__`, `effects_commit.Pending`, and a run-time
swap of `worldcheck._run_probes` for the length of one call.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import threading
from collections.abc import Iterator
from typing import Any, NamedTuple

from daimon_briefing import config, effects_commit, jsonl, view, worldcheck

from daimon_tui.store.daimon_api import mode

_VERB = "brief_verb.verb"


class NotReproducible(RuntimeError):
    """daimon's brief would call out (its LLM briefing, `gh`, the receipt signer)."""


class Printed(NamedTuple):
    rc: int
    out: str
    err: str


_swap = threading.Lock()


@contextlib.contextmanager
def _no_probe_programs() -> Iterator[list[Any]]:
    """World-check probes that would start a program are collected, not run."""
    asked: list[Any] = []

    def collect(probes: dict, cwd: Any = None, deadline: Any = None, why: Any = None) -> dict:
        asked.extend(probes)
        return {}

    with _swap:
        original = worldcheck._run_probes
        worldcheck._run_probes = collect
        try:
            yield asked
        finally:
            worldcheck._run_probes = original


def brief(project_path: str | None = None, slug: str | None = None, *, team: bool = False) -> Printed:
    """What `daimon brief [--project PATH | --slug SLUG] [--team]` prints
    (plain) and returns. Raises NotReproducible when that needs a program or
    the network."""
    mode.require(_VERB)
    from daimon_briefing.cli import brief as cli_brief  # ~70 ms: only when asked

    if config.llm_briefing():
        raise NotReproducible("daimon's LLM briefing is on (DAIMON_LLM_BRIEFING): its text is not reproducible offline")
    args = argparse.Namespace(project=project_path, slug=slug, team=team, global_fallback=False, label=False,
                              auto=False)
    out, err = io.StringIO(), io.StringIO()
    with _no_probe_programs() as asked, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli_brief._cmd_brief.__wrapped__(args, effects_commit.Pending())
        except (jsonl.Refused, view.ScopeRefused) as exc:  # as daimon's `main` reports them
            print(f"error: {exc}", file=err)
            rc = 2
        except Exception as exc:  # daimon's process would end on it: exit 1 and a traceback
            print(f"error: daimon's brief raised {type(exc).__name__}; nothing more was printed", file=err)
            rc = 1
    if asked:
        raise NotReproducible(
            f"daimon's world-check would start `gh` or the receipt signer for {len(asked)} claim(s) "
            "(DAIMON_WORLDCHECK is on): its text is not reproducible offline")
    return Printed(int(rc or 0), out.getvalue(), err.getvalue())
