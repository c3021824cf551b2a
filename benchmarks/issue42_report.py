"""The markdown of one `bench_issue42.py` run: a table per row of issue 42, its commands, its appendices."""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import issue42_commands as doc_commands
import issue42_read as read

FIGURES = Path(__file__).resolve().with_name("issue42_figures.md")
SMALL_ROWS = 20_100  # "every store size up to 20k rows": generate_store.py --events 20000 writes 20,004
TINY_ROWS = 1_000  # a store like the issue's small one (5 sessions, 23 items), whose figure it gave


@dataclass(frozen=True)
class Row:
    what: str
    ours: float | None
    reference: float | None
    against: str
    target: float | None  # the ratio it must stay at or under; None: shown, not judged
    unit: str = "s"
    before: str = ""  # the issue's own figure, when it gave one

    @property
    def ratio(self) -> float | None:
        return None if self.ours is None or not self.reference else self.ours / self.reference

    def cells(self) -> list[str]:
        ratio = self.ratio
        if self.ours is None:
            verdict = "not measured"
        elif self.target is None or ratio is None:
            verdict = "—"
        else:
            verdict = "**PASS**" if ratio <= self.target else "**FAIL**"
        return [self.what, _value(self.ours, self.unit), f"{_value(self.reference, self.unit)} {self.against}",
                "—" if ratio is None else f"{ratio:.2f}×", "—" if self.target is None else f"≤ {self.target}×",
                verdict, self.before or "—"]


def _value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.3f} s" if value < 1 else f"{value:.2f} s"


def _table(rows: list[Row]) -> list[str]:
    if not rows:
        return ["(no figure read: see the step's output in Appendix C)"]
    head = ["", "ours", "reference (same run)", "ratio", "target", "result", "the issue's figure"]
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(row.cells()) + " |" for row in rows)]


def _text(work: Path, name: str | None) -> str:
    if not name or not (work / name).is_file():
        return ""
    return (work / name).read_text(encoding="utf-8", errors="replace")


def _shape(store: str) -> dict[str, Any]:
    try:
        return json.loads((Path(store) / "store.json").read_text()).get("shape", {})
    except (OSError, ValueError):
        return {}


def _describe(store: str) -> str:
    shape = _shape(store)
    rows = shape.get("main_events_rows")
    return (f"`{Path(store).name}` ({shape.get('main_sessions', '?')} sessions, {shape.get('latest_items', '?')} "
            f"items, {rows:,} event rows)" if rows is not None else f"`{Path(store).name}`")


def floor_section(run: dict, work: Path, health: read.HealthRead) -> tuple[list[str], list[Row]]:
    step = run["steps"].get("floor")
    lines = ["## 1. A later open against the floor", ""]
    if step is None:
        return [*lines, "Not run in this run.", ""], []
    got = read.floor(_text(work, "floor.md"))
    stores = {Path(s).name: s for s in run["stores"]["floor"]}
    rows, against_brief = [], []
    briefs = {got.brief_store: got.brief_s} if got.brief_store else {}
    heavy = run["stores"].get("heavy")
    if heavy and health.brief_s is not None and run["steps"].get("health"):
        briefs.setdefault(Path(heavy).name, health.brief_s)
    for o in got.opens:
        store = stores.get(o.store, o.store)
        events = _shape(store).get("main_events_rows", SMALL_ROWS + 1)
        small = events <= SMALL_ROWS
        rows.append(Row(f"{_describe(store)}: later open, spawn to the first item on screen", o.shown_s, o.floor_s,
                        "one-line Textual app", 1.5 if small else None,
                        before="0.90 s vs 0.24 s: 3.7× (a small store, quiet)" if events <= TINY_ROWS else ""))
        if not small and o.store in briefs:
            brief = briefs[o.store]
            against_brief += [Row(f"{_describe(store)}: later open, first item on screen", o.shown_s, brief,
                                  "`daimon brief`", 0.15, before="first paint 0.08×"),
                              Row(f"{_describe(store)}: later open, confirmed by daimon", o.settled_s, brief,
                                  "`daimon brief`", 0.5)]
    lines += ["Real terminal (tmux 120×40), spawn to the briefing's first item's text on screen, a one-line Textual "
              "app showing the same text alternating with a later open of ours; medians. Target: ≤ 1.5× the floor "
              "on every store of 20k rows or fewer; a heavier store is held to its ratios to `daimon brief` "
              "instead (below).", "", *_table(rows), ""]
    if against_brief:
        lines += ["The heavy store's ratios kept: the same opens against `daimon brief` on that store (from step 2 "
                  "when it is the same store; the first-paint budget ≤ 0.15×, the confirmation budget ≤ 0.5×; "
                  "a tmux screen, where the issue's 0.08× was Pilot's first frame):", "", *_table(against_brief), ""]
    if got.probes and got.brief_s:
        lines += [f"Headless probes (bench_floor), each a fresh process, against `daimon brief` on "
                  f"`{got.brief_store}` ({got.brief_s:.2f} s):", "", "| probe | seconds | × brief |", "|---|---|---|",
                  *(f"| {name} | {s:.3f} | {s / got.brief_s:.2f} |" for name, s in got.probes), ""]
    lines += [*(f"Not read from bench_floor's output: {p}" for p in got.problems), ""]
    return lines, rows + against_brief


def health_section(run: dict, got: read.HealthRead) -> tuple[list[str], list[Row]]:
    lines = ["## 2. Health in one pass", ""]
    if run["steps"].get("health") is None:
        return [*lines, "Not run in this run.", ""], []
    what = f"Health's numbers (`daimon-tui stats --json`) on {_describe(run['stores']['heavy'])}"
    rows = [Row(f"{what}, cold (our cache emptied)", got.cold_s, got.brief_s, "`daimon brief`", 1.0,
                before="110 s vs 9.0 s: 12×"),
            Row(f"{what}, warm (over the kept numbers)", got.warm_s, got.brief_s, "`daimon brief`", 0.1,
                before="154 s vs 9.0 s: 17×")]
    lines += ["One `daimon brief` and our command cold, then warm, in one run (`bench_headless.py --only stats`). "
              "The view filling point by point is held by tests, not timed here.", "", *_table(rows), ""]
    return [*lines, *(f"Not read from bench_headless's output: {p}" for p in got.problems), ""], rows


def memory_section(run: dict, got: read.MemoryRead) -> tuple[list[str], list[Row]]:
    lines = ["## 3. Memory given back at rest", ""]
    if run["steps"].get("memory") is None:
        return [*lines, "Not run in this run.", ""], []
    store = _describe(run["stores"]["memory"])
    after = f"{got.at_rest_after_s:.0f} s" if got.at_rest_after_s is not None else "?"
    rest, back = got.at_rest, got.respawn
    child = f"child {_value(rest.get('child'), 'MB')}"
    child = "no child (given back)" if rest and rest.get("child") is None else child
    rows = [Row(f"at rest, {after} after the last of {got.verbs} verbs ({run.get('memory_open', 'an open')}): "
                f"app {_value(rest.get('app'), 'MB')} + {child}", got.at_rest_mb, got.brief_peak_mb,
                "`daimon brief`'s peak RSS", 0.3, unit="MB", before="92 + 274 MB vs 532 MB: 0.69×"),
            Row("peaks added over the verbs (app + judging child)", got.peaks_added_mb, got.brief_peak_mb,
                "`daimon brief`'s peak RSS", 1.0, unit="MB", before="92 + 326 MB"),
            Row("confirmation on the child started again after the rest", back.get("confirm_s"), got.brief_s,
                "`daimon brief`", 0.5)]
    opened, last = got.opened, got.last_verb
    lines += [f"On {store}: `daimon brief` (its peak RSS is the reference), then the app (Pilot, headless) opens, runs "
              f"{got.verbs} verbs through its keys ({got.verb_errors} with an error), and sits idle with the live "
              "watch; the last idle sample is the figure at rest.", "", *_table(rows), "",
              f"After the open: app {_value(opened.get('app'), 'MB')}, child {_value(opened.get('child'), 'MB')}; "
              f"after the last verb: app {_value(last.get('app'), 'MB')}, child {_value(last.get('child'), 'MB')}; "
              f"children given back during the idle: {back.get('rested', '?')} (the child's idle time "
              f"{back.get('idle_s', '?')} s).", ""]
    return [*lines, *(f"Not read from bench_memory's output: {p}" for p in got.problems), ""], rows


def commands_section(run: dict, tree: Path) -> list[str]:
    python = os.path.relpath(run["python"], tree) if run["python"].startswith(str(tree)) else run["python"]
    lines = ["## The commands of this run", ""]
    if run.get("invoked"):
        lines += ["The run itself:", "", "```sh", f"PYTHONPATH=$PWD {python} {shlex.join(run['invoked'])}", "```", ""]
    lines += [f"From the checkout (`cd {tree}`), each with `PYTHONPATH=$PWD` so this tree's `daimon_tui` is the one "
              "run, one after the other:", ""]
    if run.get("compile"):
        compiled = f"{python} {shlex.join(run['compile'])}"
        lines += [f"* first, our package byte-compiled, as a wheel install has it (`{compiled}`; this machine's "
                  "shell sets PYTHONDONTWRITEBYTECODE, so a tree without bytecode would otherwise time our modules' "
                  "compilation in each open; `bench_headless.py` and `bench_steps.py` do the same);", ""]
    for name, step in run["steps"].items():
        if name == "memory" and run.get("memory_open"):
            opened = run["memory_open"]
            emptied = ": our cache of that store emptied (daimon's files untouched)" if "first" in opened else ""
            lines += [f"* before the memory run, {opened}{emptied};", ""]
        lines += [f"* **{name}**, exit {step['rc']}, {step['seconds']:.0f} s:", "", "  ```sh",
                  f"  PYTHONPATH=$PWD {python} {shlex.join(step['argv'])}", "  ```",
                  f"  `uptime` before: `{step['uptime_before']}`", f"  `uptime` after: `{step['uptime_after']}`", ""]
    return lines


def _memory_summary(stdout: str) -> str:
    """bench_memory's own table (what it prints without `--json`), made from its JSON line by its own `summary`."""
    try:
        import bench_memory

        ours = json.loads([line for line in stdout.splitlines() if line.startswith("{")][-1])
        brief = ours.get("daimon_brief") or {}
        head = [f"load average {' -> '.join(str(x) for x in ours.get('load', []))}",
                f"daimon brief: {brief.get('wall_s', 0):.2f} s, peak {brief.get('rss_mb') or 0:.0f} MB"]
        return "\n".join(head + bench_memory.summary(ours, brief.get("rss_mb"), False, brief.get("wall_s")))
    except Exception as error:  # its format is another engineer's: show the JSON rather than fail the report
        return f"(bench_memory.summary failed: {error!r}; its JSON line:)\n{stdout.strip()[:4000]}"


def raw_section(run: dict, work: Path) -> list[str]:
    lines = ["## Appendix C: each benchmark's own output", ""]
    for name, step in run["steps"].items():
        out = _text(work, step["stdout"])
        if name == "floor":
            out = _text(work, "floor.md")
        elif name == "memory":
            out = _memory_summary(out)
        err = _text(work, step["stderr"]).strip().splitlines()
        lines += [f"### {name}", "", "```", out.strip()[-12000:] or "(no output)", "```", ""]
        if err:
            lines += ["stderr, its last lines:", "", "```", *err[-25:], "```", ""]
    return lines


def render(run: dict, work: Path, tree: Path) -> str:
    health = read.health(_text(work, run["steps"].get("health", {}).get("stderr")))
    memory = read.memory(_text(work, run["steps"].get("memory", {}).get("stdout")))
    kind = "a `--quick` trial (fewer repeats, 4 verbs, shorter idle): not the figures" if run["quick"] else "full"
    minutes = f"{run['seconds'] / 60:.1f} min" if "seconds" in run else "interrupted"
    failed = [f"{name} (exit {s['rc']})" for name, s in run["steps"].items() if s["rc"] != 0]
    lines = ["# Issue 42: every row in one run, each beside its reference", "",
             *([f"**{run['note']}**", ""] if run.get("note") else []),
             f"`benchmarks/bench_issue42.py`, {kind}; started {run['started']}, {minutes} in all; code "
             f"{run['commit']}{' with uncommitted changes' if run['dirty'] else ''}; {os.cpu_count()} cores.",
             f"`uptime` at the start: `{run['uptime_start']}`; at the end: `{run.get('uptime_end', '?')}`.", "",
             "Ratios are ours over the reference measured in the same run; ratios within a run are what the "
             "targets name (absolute times follow the machine's load, given for each step below).", ""]
    if failed:
        lines += [f"**A step failed: {', '.join(failed)}**; its stderr is in Appendix C.", ""]
    sections = [floor_section(run, work, health), health_section(run, health), memory_section(run, memory)]
    lines += ["## All rows, for docs/performance.md", "",
              "The rows of the three sections below in one table (the section \"Issue 42: one run\" of "
              "docs/performance.md takes it as it is).", "", *_table([row for _, rows in sections for row in rows]), ""]
    for section, _ in sections:
        lines += section
    lines += commands_section(run, tree)
    lines += ["## Appendix A: every performance figure in README.md and docs/performance.md", ""]
    lines += [FIGURES.read_text(encoding="utf-8").strip() if FIGURES.is_file() else "(issue42_figures.md missing)", ""]
    lines += ["## Appendix B: every benchmark command the two documents name, checked in this run", "",
              *doc_commands.check_lines(tree), ""]
    lines += raw_section(run, work)
    return "\n".join(lines) + "\n"
