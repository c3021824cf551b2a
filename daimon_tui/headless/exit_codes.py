"""The headless exit codes: one table that `--help`, docs/headless-exit-codes.md
and every report read, so a script can tell "a finding" from "wrong arguments"
from "nothing there to read".

Two reports mirror daimon and keep daimon's own codes instead: `brief
--as-daimon` (daimon's `brief`) and `diff` (daimon's `diff`)."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    FINDING = 1
    USAGE = 2
    NO_PROJECT = 3
    REFUSED = 4
    READ_FAILED = 5


MEANING: dict[Exit, str] = {
    Exit.OK: "the report was printed and holds no finding",
    Exit.FINDING: "the report was printed and holds a finding (contradicted, no hit, a receipt failure, safe mode)",
    Exit.USAGE: "usage error: an unknown option, a bad value, an empty or malformed query (and: the app "
                "cannot run here: daimon-briefing not installed, a mode safe mode turns off, no terminal)",
    Exit.NO_PROJECT: "nothing to read: no daimon checkpoint for the project, or no such directory",
    Exit.REFUSED: "refused: the store holds a symlink leading outside it (or a FIFO); it is named, never read",
    Exit.READ_FAILED: "a read failed: the store or the project's repository could not be read",
}

# What each report answers with; codes not listed here are never returned by it.
COMMANDS: dict[str, dict[Exit, str]] = {
    "brief": {Exit.OK: "printed", Exit.USAGE: "a bad --as-of, --raw without --as-daimon", Exit.NO_PROJECT: "",
              Exit.REFUSED: "", Exit.READ_FAILED: ""},
    "check": {Exit.OK: "nothing contradicted", Exit.FINDING: "something contradicted", Exit.NO_PROJECT: "",
              Exit.REFUSED: "", Exit.READ_FAILED: "the project's repository cannot be read (the files' claims "
              "are still printed)"},
    "audit": {Exit.OK: "clean", Exit.FINDING: "a receipt failure or an unreadable ledger", Exit.NO_PROJECT: "",
              Exit.REFUSED: "", Exit.READ_FAILED: "the audit could not run"},
    "search": {Exit.OK: "hits", Exit.FINDING: "no hit", Exit.USAGE: "an empty query, a bad facet, a bad --limit",
               Exit.NO_PROJECT: "", Exit.REFUSED: "", Exit.READ_FAILED: ""},
    "review": {Exit.OK: "printed", Exit.USAGE: "a bad --since", Exit.NO_PROJECT: "", Exit.REFUSED: "",
               Exit.READ_FAILED: ""},
    "stats": {Exit.OK: "printed", Exit.NO_PROJECT: "", Exit.REFUSED: "",
              Exit.READ_FAILED: "no retained session could be read"},
    "doctor": {Exit.OK: "every assumption holds", Exit.FINDING: "safe mode: an assumption is off"},
}

# Reports that mirror daimon's own verb keep its codes (a script written for daimon reads them unchanged).
MIRRORS: dict[str, str] = {
    "diff": "daimon diff's own codes: 0 answered (a chain too thin to compare is an answer), "
            "1 nothing readable to compare, 2 a refused address or a read that failed; "
            "ours before daimon reads: 4 refused (a link out of the store, or safe mode: "
            "daimon's diff helpers untested)",
    "brief --as-daimon": "daimon brief's own codes (e.g. 1 no checkpoint bucket for a slug, "
                         "2 a mode it refuses); ours before daimon runs: 2 usage, 4 refused",
}


def table() -> str:
    """The whole table, for the top-level `--help` and the docs."""
    lines = ["exit codes (every report):"]
    lines += [f"  {code.value}  {MEANING[code]}" for code in Exit]
    lines.append("mirrors of daimon keep daimon's codes:")
    lines += [f"  {name}: {what}" for name, what in MIRRORS.items()]
    return "\n".join(lines)


def for_command(name: str) -> str:
    """One report's codes, each with what it means there, for its `--help`."""
    lines = ["exit codes:"]
    for code, what in COMMANDS.get(name, {}).items():
        lines.append(f"  {code.value}  {what or MEANING[code]}")
    if name == "diff":
        lines.append(f"  {MIRRORS['diff']}")
    if name == "brief":
        lines.append(f"  with --as-daimon: {MIRRORS['brief --as-daimon']}")
    lines.append("  (the full table: daimon-tui --help)")
    return "\n".join(lines)


def markdown() -> str:
    """docs/headless-exit-codes.md, generated from this table (a test keeps them equal)."""
    out = ["# Headless exit codes", "",
           "Every `daimon-tui` report (`brief`, `check`, `audit`, `search`, `review`, `stats`, `doctor`) exits",
           "with one of these codes; `daimon-tui --help` and each subcommand's `--help` print the same table.", "",
           "| code | meaning |", "|---|---|"]
    out += [f"| {code.value} | {MEANING[code]} |" for code in Exit]
    out += ["", "## Per report", "", "| report | codes |", "|---|---|"]
    for name, codes in COMMANDS.items():
        said = "; ".join(f"{code.value} {what or MEANING[code]}" for code, what in codes.items())
        out.append(f"| `{name}` | {said} |")
    out += ["", "## Mirrors of daimon", "",
            "These print daimon's own bytes and keep daimon's exit codes, so a script written for daimon reads",
            "them unchanged:", ""]
    out += [f"- `{name}`: {what}" for name, what in MIRRORS.items()]
    out += ["", "This file is generated from `daimon_tui/headless/exit_codes.py` (`markdown()`); "
            "`tests/test_headless_contracts.py` keeps them equal.", ""]
    return "\n".join(out)
