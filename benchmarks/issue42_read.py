"""Reading the three benchmarks' own outputs into figures for `bench_issue42.py`.

The benchmarks are run as their documented commands and are changed by other
work, so each reader finds its figures by what their labels say (a column
whose header names the one-line Textual app, a JSON key naming `stats` and
`cold`), and says what it could not find rather than guessing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FloorOpen:
    """One store of `bench_floor.py`'s terminal table, the row of our current tree."""

    store: str  # the store's directory name, as the table's first cell starts
    floor_s: float | None  # the one-line Textual app, spawn to the needle on screen (median)
    shown_s: float | None  # a later open of ours, spawn to the first item on screen (median)
    settled_s: float | None  # the same open, until daimon's confirmation (median)
    runs: str  # the table's per-run cell, as printed


@dataclass
class FloorRead:
    opens: list[FloorOpen] = field(default_factory=list)
    brief_store: str | None = None  # the store `daimon brief` ran on for the headless probes
    brief_s: float | None = None
    probes: list[tuple[str, float]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _number(cell: str) -> float | None:
    found = re.search(r"\d+(?:\.\d+)?", cell)
    return float(found.group()) if found else None


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table(lines: list[str], start: int) -> tuple[list[str], list[list[str]]]:
    """The markdown table whose header is `lines[start]`: its headers and body rows."""
    body = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        body.append(_cells(line))
    return _cells(lines[start]), body


def _column(headers: list[str], *words: str) -> int | None:
    return next((i for i, h in enumerate(headers) if all(w in h.lower() for w in words)), None)


def floor(text: str, tree: str = "ours") -> FloorRead:
    """`bench_floor.py --out FILE` (markdown): our tree's later opens against the floor, and the probes."""
    read = FloorRead()
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("|") and "textual app" in line.lower()), None)
    if start is None:
        read.problems.append("no table with a one-line Textual app column in bench_floor's output")
    else:
        headers, body = _table(lines, start)
        cols = {"floor": _column(headers, "textual app"), "shown": _column(headers, "first item"),
                "settled": _column(headers, "confirmed"), "tree": _column(headers, "tree"),
                "runs": _column(headers, "runs")}
        if cols["floor"] is None or cols["shown"] is None:
            read.problems.append(f"bench_floor's table has no floor or first-item column: {headers}")
            body = []

        def cell(row: list[str], key: str) -> str:
            index = cols[key]
            return row[index] if index is not None and index < len(row) else ""

        for row in body:
            if cols["tree"] is not None and cell(row, "tree") != tree:
                continue
            read.opens.append(FloorOpen(store=row[0].split(":")[0].strip(), floor_s=_number(cell(row, "floor")),
                                        shown_s=_number(cell(row, "shown")),
                                        settled_s=_number(cell(row, "settled")), runs=cell(row, "runs")))
    brief = re.search(r"against `daimon brief` on (\S+?):\s*([\d.]+) s", text)
    if brief:
        read.brief_store, read.brief_s = brief.group(1), float(brief.group(2))
    probe_start = next((i for i, line in enumerate(lines) if line.startswith("| probe")), None)
    if probe_start is not None:
        for row in _table(lines, probe_start)[1]:
            seconds = _number(row[1]) if len(row) > 1 else None
            if seconds is not None:
                read.probes.append((row[0], seconds))
    return read


@dataclass
class HealthRead:
    cold_s: float | None = None
    warm_s: float | None = None
    brief_s: float | None = None  # the `daimon brief` both are held to, in the same run
    problems: list[str] = field(default_factory=list)


def health(stderr: str) -> HealthRead:
    """`bench_headless.py --only stats`: the JSON line it prints on stderr, `{metric: [ours, daimon]}`."""
    read = HealthRead()
    figures: dict[str, Any] = {}
    for line in stderr.splitlines():
        if line.startswith("{"):
            try:
                figures = json.loads(line)
            except ValueError:
                continue
    for name, pair in figures.items():
        if "stats" not in name or not isinstance(pair, list) or len(pair) != 2:
            continue
        ours, brief = pair
        if "cold" in name:
            read.cold_s = ours
        elif "warm" in name:
            read.warm_s = ours
        read.brief_s = brief if read.brief_s is None else read.brief_s
    if read.cold_s is None and read.warm_s is None:
        read.problems.append("no `stats` figures in bench_headless's JSON line (stderr)")
    return read


@dataclass
class MemoryRead:
    brief_peak_mb: float | None = None
    brief_s: float | None = None
    verbs: int = 0
    verb_errors: int = 0
    opened: dict[str, Any] = field(default_factory=dict)
    last_verb: dict[str, Any] = field(default_factory=dict)
    peaks_added_mb: float | None = None  # app's peak + the child's, the largest after any verb
    at_rest: dict[str, Any] = field(default_factory=dict)  # the last idle sample
    at_rest_after_s: float | None = None  # seconds from the last verb to that sample
    respawn: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def at_rest_mb(self) -> float | None:
        if not self.at_rest:
            return None
        return (self.at_rest.get("app") or 0) + (self.at_rest.get("child") or 0)


def memory(stdout: str) -> MemoryRead:
    """`bench_memory.py --json`: its one JSON line."""
    read = MemoryRead()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if not lines:
        read.problems.append("no JSON line on bench_memory's stdout")
        return read
    try:
        data = json.loads(lines[-1])
    except ValueError as error:
        read.problems.append(f"bench_memory's JSON line does not parse: {error}")
        return read
    brief = data.get("daimon_brief") or {}
    read.brief_peak_mb, read.brief_s = brief.get("rss_mb"), brief.get("wall_s")
    verbs = data.get("verbs") or []
    read.verbs, read.verb_errors = len(verbs), sum(1 for v in verbs if v.get("error"))
    read.opened = data.get("opened") or {}
    read.last_verb = verbs[-1] if verbs else {}
    if verbs:
        read.peaks_added_mb = max((v.get("app_peak") or 0) + (v.get("child_peak") or 0) for v in verbs)
    idle = data.get("idle") or []
    if idle:
        read.at_rest = idle[-1]
        last = verbs[-1] if verbs else data.get("rest") or {}
        if "t" in last:
            read.at_rest_after_s = idle[-1]["t"] - last["t"]
    else:
        read.problems.append("no idle samples: no figure at rest")
    read.respawn = data.get("respawn") or {}
    return read
