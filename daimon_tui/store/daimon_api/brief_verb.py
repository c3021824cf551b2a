"""daimon's own `brief` verb, run in this process with its effects dropped:
its bytes and its exit code in every mode it has (project or slug, `--team`,
world-check on, global fallback), and nothing written.

`daimon brief` records its side effects (the usage line, the world-check
counters and rejection-ledger rows, the surfaced stamps) into an `Effects`
collector that its `committing` decorator writes after the verb returns. Here
the verb's undecorated body runs with a collector nobody commits, so the
store's bytes do not change.

Its world-check (`DAIMON_WORLDCHECK`) answers on-disk claims (files, branches,
dependencies, a receipt's byte match) in process. For a PR/issue claim it asks
`git remote -v` and then `gh` (only when `gh` is on PATH), and for one carried
origin a day the receipt signer (only when `DAIMON_VITNI_CLI` resolves). Here
no program is ever started: `worldcheck._remote_state` answers "github" and
`worldcheck._run_probes` answers from a table. The verb runs once with every
probe unanswered (what daimon prints when the program fails, times out or the
remote is not GitHub), then once per combination of the answers daimon's own
parser accepts (`gh`: each state word; the signer: valid, invalid): each
claim's answers alone, then every combination (at most MAX_VARIANTS runs).
When every run prints the same bytes and exit code, the program's answer
never reaches the text and that text is daimon's; otherwise `NotReproducible`
names the claims whose answer changes it.

The baton: daimon's verb reads it with `store.active_handoff`, which reads
every row of the events ledger (most of a warm `--as-daimon` on a year of
memory). The caller may give a reader of the same answer (`handoff`: daimon's
own `active_handoff` run over the rows that spell `handoff`), swapped in for
the length of the call and handed daimon's own function for what it cannot
tell from those rows.

Private daimon names, all in this module (contract `brief_verb.verb`):
`cli.brief._cmd_brief.__wrapped__`, `effects_commit.Pending`,
`worldcheck._KNOWN_STATES`, and run-time swaps of `worldcheck._run_probes`, `worldcheck._remote_state` and
`store.active_handoff` for the length of one call.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from daimon_briefing import config, effects_commit, jsonl, store, view, worldcheck

from daimon_tui.store.daimon_api import mode, private
from daimon_tui.store.daimon_api.originals import swapped

_VERB = "brief_verb.verb"
# Runs of daimon's verb at most (each a whole brief): past it, refused.
MAX_VARIANTS = 64


class NotReproducible(RuntimeError):
    """daimon's brief would print what a program or the network answers."""


@dataclass(frozen=True, slots=True)
class Printed:
    rc: int
    out: str
    err: str


_swap = threading.Lock()
# daimon's baton read, taken before any swap: a `handoff` given to `brief` gets it for what it cannot answer
daimon_active_handoff = store.active_handoff
# (project_dir, daimon's `active_handoff`) -> daimon's answer
Baton = Callable[[Any, Callable[[Any], Any]], Any]

def _outputs() -> tuple[str, ...]:
    """Every output a world-check program can give that daimon's parsers accept:
    `gh`'s state words (daimon's own list) and the signer's two verdicts. Each
    probe's own parser keeps what is its own."""
    states = sorted(private.known_gh_states())
    return (*(json.dumps({"state": s}) for s in states), json.dumps({"valid": True}), json.dumps({"valid": False}))


def _answers(probe: Any) -> tuple[Any, ...]:
    """None (no answer: the program failed or timed out) and each value daimon's parser reads."""
    values: list[Any] = [None]
    for out in _outputs():
        try:
            value = probe.parse(out)
        except Exception:
            continue
        if value is not None and value not in values:
            values.append(value)
    return tuple(values)


@contextlib.contextmanager
def _answered(table: Mapping[Any, Any], asked: dict[Any, Any], handoff: Baton | None = None) -> Iterator[None]:
    """World-check probes answered from `table` (absent: unanswered) and
    collected in `asked`; the GitHub-remote question answered yes. Nothing starts.
    The baton read by `handoff`, when given."""

    def run(probes: dict, cwd: Any = None, deadline: Any = None, why: Any = None) -> dict:
        asked.update(probes)
        return {key: table.get(key) for key in probes}

    def remote_state(project: Any) -> str:
        return "github"  # "no-remote" and "git-failed" read as every `gh` probe unanswered

    def baton(project_dir: Any = None) -> Any:
        assert handoff is not None
        return handoff(project_dir, daimon_active_handoff)

    with _swap:
        swaps = [(worldcheck, private.RUN_PROBES_NAME, run), (worldcheck, private.REMOTE_STATE_NAME, remote_state)]
        if handoff is not None:
            swaps.append((store, "active_handoff", baton))
        with swapped(swaps):
            yield


@contextlib.contextmanager
def offline_world_check() -> Iterator[dict[Any, Any]]:
    """daimon's world-check as it runs when no program answers (`gh` or the
    receipt signer failed): nothing is started. Yields the probes it asked,
    whose real answers could change what daimon prints (`asked_of` names them)."""
    mode.require(_VERB)
    asked: dict[Any, Any] = {}
    with _answered({}, asked):
        yield asked


def asked_of(keys: Iterator[Any] | Mapping[Any, Any]) -> str:
    """The programs and claims a world-check would ask about, in words."""
    return ", ".join(_asked_of(key) for key in keys)


def _run(args: argparse.Namespace, table: Mapping[Any, Any], asked: dict[Any, Any],
         handoff: Baton | None = None) -> Printed:
    out, err = io.StringIO(), io.StringIO()
    with _answered(table, asked, handoff), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = private.brief_verb_body()(args, effects_commit.Pending())
        except (jsonl.Refused, view.ScopeRefused) as exc:  # as daimon's `main` reports them
            print(f"error: {exc}", file=err)
            rc = 2
        except Exception as exc:  # daimon's process would end on it: exit 1 and a traceback
            print(f"error: daimon's brief raised {type(exc).__name__}; nothing more was printed", file=err)
            rc = 1
    return Printed(int(rc or 0), out.getvalue(), err.getvalue())


def _asked_of(key: Any) -> str:
    cls, target = (key[0], key[1]) if isinstance(key, tuple) and len(key) == 2 else (key, "")
    if cls == worldcheck.RECEIPT_VALIDITY:
        return f"the receipt signer about session {target}"
    if cls == worldcheck.PR_STATE:
        kind, _, num = str(target).partition("/")
        return f"`gh` about {'PR' if kind == 'pr' else kind} #{num}"
    return f"a program about {cls} {target}"


def brief(project_path: str | None = None, slug: str | None = None, *, team: bool = False,
          handoff: Baton | None = None) -> Printed:
    """What `daimon brief [--project PATH | --slug SLUG] [--team]` prints
    (plain) and returns. Raises NotReproducible when that depends on what a
    program or the network answers. `handoff(project_dir, daimons)`: daimon's
    `store.active_handoff(project_dir)` answered another way (`daimons` is
    daimon's own), for every run of the verb."""
    mode.require(_VERB)
    if config.llm_briefing():
        raise NotReproducible("daimon's LLM briefing is on (DAIMON_LLM_BRIEFING): its text is not reproducible offline")
    args = argparse.Namespace(project=project_path, slug=slug, team=team, global_fallback=False, label=False,
                              auto=False)
    asked: dict[Any, Any] = {}
    printed = _run(args, {}, asked, handoff)
    if not asked:
        return printed
    keys = list(asked)
    choices = {key: _answers(asked[key])[1:] for key in keys}
    # Each claim's answers alone first (few runs, and they name the claim), then every combination.
    changes = [key for key in keys if any(_run(args, {key: value}, {}, handoff) != printed
                                          for value in choices[key])]
    if changes:
        raise NotReproducible(
            f"daimon's world-check would ask {', '.join(_asked_of(k) for k in changes)} "
            "(DAIMON_WORLDCHECK is on), and the answer changes what `daimon brief` prints: "
            "not reproducible offline")
    combinations = 1
    for key in keys:
        combinations *= len(choices[key]) + 1
    if combinations > MAX_VARIANTS:
        raise NotReproducible(
            f"daimon's world-check would ask {', '.join(_asked_of(k) for k in keys)} (DAIMON_WORLDCHECK is on): "
            "too many answers to rule out that some together change the text; not reproducible offline")
    for values in itertools.product(*((None, *choices[key]) for key in keys)):
        table = {key: value for key, value in zip(keys, values, strict=True) if value is not None}
        if len(table) > 1 and _run(args, table, {}, handoff) != printed:
            raise NotReproducible(
                f"daimon's world-check would ask {', '.join(_asked_of(k) for k in table)} (DAIMON_WORLDCHECK "
                "is on), and their answers together change what `daimon brief` prints: not reproducible offline")
    return printed
