"""Every benchmark command README.md and docs/performance.md name, checked: the script is there, its
`--help` runs, and every flag the documents give it is one its `--help` lists.

A figure in those documents names the command that made it; this says, at each run of
`bench_issue42.py`, whether that command can still be run as written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

DOCUMENTS = ("README.md", "docs/performance.md")
# a backticked span naming one of the benchmarks' scripts, with whatever follows it
SPAN = re.compile(r"`([^`]*?\b((?:bench_\w+|generate_store|profile_daimon|curve_chart|floor_terminal)\.py)\b[^`]*)`")
FLAG = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")


def named(tree: Path) -> dict[tuple[str, str], list[str]]:
    """(script, the span as written) -> where: `file:line` of each mention."""
    found: dict[tuple[str, str], list[str]] = {}
    for document in DOCUMENTS:
        path = tree / document
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for match in SPAN.finditer(text):  # a span may be wrapped over two lines
            number = text.count("\n", 0, match.start()) + 1
            span = " ".join(match.group(1).split())
            found.setdefault((match.group(2), span), []).append(f"{document}:{number}")
    return found


def _help(tree: Path, script: str) -> tuple[bool, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH")) if p)}
    try:
        done = subprocess.run([sys.executable, str(tree / "benchmarks" / script), "--help"], cwd=tree, env=env,
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return False, ""
    return done.returncode == 0, done.stdout


def check_lines(tree: Path) -> list[str]:
    mentions = named(tree)
    helps: dict[str, tuple[bool, str]] = {}
    lines = ["Each backticked command naming a script of `benchmarks/`, as written; `--help` run now; a flag written "
             "that `--help` does not list is named.", "",
             "| command as written | where | script | `--help` | flags `--help` does not list |",
             "|---|---|---|---|---|"]
    for (script, span), where in sorted(mentions.items()):
        exists = (tree / "benchmarks" / script).is_file()
        if exists and script not in helps:
            helps[script] = _help(tree, script)
        runs, text = helps.get(script, (False, ""))
        unknown = sorted({f for f in FLAG.findall(span) if f not in text}) if runs else []
        places = ", ".join(where[:4]) + (f" (+{len(where) - 4})" if len(where) > 4 else "")
        lines.append(f"| `{span.replace('|', '&#124;')}` | {places} | {'yes' if exists else '**missing**'} | "
                     f"{'runs' if runs else '**fails**' if exists else '—'} | "
                     f"{', '.join(f'`{f}`' for f in unknown) if unknown else '—'} |")
    return lines


if __name__ == "__main__":
    print("\n".join(check_lines(Path(__file__).resolve().parents[1])))
