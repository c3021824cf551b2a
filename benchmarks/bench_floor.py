"""What any Textual app on this machine costs before it reads a byte, against ours and `daimon brief`.

    python benchmarks/bench_floor.py --store /tmp/small [--store /tmp/heavy ...] [--repeats 7]
        [--baseline DIR] [--out FILE.md]

In a real terminal (tmux, 120x40), per store, alternating: a one-line Textual
app showing the store's first item's text (the floor), and a later open of
ours (one untimed open first fills our cache; with `--baseline DIR` also one of
the daimon_tui in DIR, e.g. an older commit's `git archive HEAD~3 daimon_tui
styles`), each from its spawn to that text
on screen (`capture-pane` polled every 10 ms); ours also until daimon has
confirmed (no "confirming" line left). Medians of `--repeats`, and ours as a
ratio of the floor measured beside it.

Then, unless `--terminal-only`, the headless probes as before: `daimon brief`
on the first store, and each in a fresh process `python -c pass`, the imports
(`textual.app`, `daimon_briefing`, `pydantic`) and the one-line app's first
frame headless (as `bench_steps.py` times ours), each as a ratio of `daimon brief`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bench_briefing as bench
import floor_terminal as term
import manifest as manifest_file

FIRST_FRAME = """
import asyncio, sys, time
launched = float(sys.argv[1])
from textual.app import App
from textual.widgets import Static

class One(App):
    def compose(self):
        yield Static("one line")

async def main():
    app, stamp = One(), []
    display = app._display
    def shown(screen, renderable):
        if renderable is not None and not stamp:
            stamp.append(time.time() - launched)
        display(screen, renderable)
    app._display = shown
    async with app.run_test(headless=True, size=(120, 40)):
        while not stamp:
            await asyncio.sleep(0.005)
    print(stamp[0])

asyncio.run(main())
"""

PROBES = {
    "python -c pass": "pass",
    "import textual.app": "import textual.app",
    "import daimon_briefing": "import daimon_briefing",
    "import pydantic": "import pydantic",
}
NEEDLE_CHARS = 30


def _timed(code: str) -> float:
    start = time.time()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.time() - start


def _first_frame() -> float:
    run = subprocess.run([sys.executable, "-c", FIRST_FRAME, repr(time.time())], check=True, capture_output=True,
                         text=True)
    return float(run.stdout.strip().splitlines()[-1])


def _load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _first_item(env: dict[str, str], cwd: str) -> str:
    """The start of the briefing's first item's text (our `brief --json`: the list's first row)."""
    run = subprocess.run([sys.executable, "-c", term.OUR_APP, "brief", "--json"], env=env, cwd=cwd,
                         capture_output=True, text=True, check=True)
    sections = json.loads(run.stdout)["sections"]
    return next(s["items"][0]["text"] for s in sections if s["items"])[:NEEDLE_CHARS]


# Byte-compiles the daimon_tui a tree's environment imports, as installing a wheel does: with
# PYTHONDONTWRITEBYTECODE set (this machine's sessions set it) a tree with no `__pycache__` would
# compile every module of ours from source on every open (~40-50 ms), which Textual, byte-compiled
# in the venv, never pays.
COMPILE = "import compileall, os, daimon_tui; compileall.compile_dir(os.path.dirname(daimon_tui.__file__), quiet=1)"


def _byte_compile(env: dict[str, str], cwd: str) -> None:
    subprocess.run([sys.executable, "-c", COMPILE], env=env, cwd=cwd, check=True, capture_output=True)


def terminal(store: Path, repeats: int, trees: dict[str, Path | None]) -> dict:
    """One store: the floor and a later open of each of our trees, alternating, in tmux."""
    heavy = manifest_file.load(store)
    cwd = heavy["main_project"]
    envs = {name: term.with_tree(manifest_file.child_env(heavy), tree) for name, tree in trees.items()}
    for env in envs.values():
        _byte_compile(env, cwd)
    needle = _first_item(envs["ours"], cwd)
    for name, env in envs.items():  # a first open fills each tree's cache (the trees share one)
        term.run_once(f"first-{name}", term.ours_argv(), env, cwd, needle, until_confirmed=True)
    floors: list[float] = []
    seen: dict[str, list[term.Seen]] = {name: [] for name in envs}
    for n in range(repeats):
        floors.append(term.run_once(f"floor-{n}", term.floor_argv(needle), envs["ours"], cwd, needle).shown_s)
        for name, env in envs.items():
            seen[name].append(term.run_once(f"{name}-{n}", term.ours_argv(), env, cwd, needle, until_confirmed=True))
    floor = statistics.median(floors)
    opens = {name: {"shown": statistics.median(s.shown_s for s in runs),
                    "settled": statistics.median(s.settled_s or 0.0 for s in runs),
                    "runs": [s.shown_s for s in runs]} for name, runs in seen.items()}
    return {"store": str(store), "shape": heavy.get("shape", {}), "needle": needle, "floor": floor,
            "floors": floors, "opens": opens}


def _rows(stores: list[dict]) -> list[str]:
    lines = ["| store | tree | one-line Textual app | later open: first item on screen | ratio | "
             "later open: confirmed | runs (floor / this, s) |", "|---|---|---|---|---|---|---|"]
    for s in stores:
        shape = s["shape"]
        what = (f"{Path(s['store']).name}: {shape.get('main_sessions', '?')} sessions, "
                f"{shape.get('latest_items', '?')} items, {shape.get('main_events_rows', '?')} event rows")
        for name, o in s["opens"].items():
            runs = " ".join(f"{f:.2f}/{t:.2f}" for f, t in zip(s["floors"], o["runs"], strict=True))
            lines.append(f"| {what} | {name} | {s['floor']:.3f} s | {o['shown']:.3f} s | "
                         f"**{o['shown'] / s['floor']:.2f}x** | {o['settled']:.3f} s | {runs} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, action="append",
                        help="a store made by generate_store.py (repeat for several sizes)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--terminal-only", action="store_true", help="only the real-terminal runs")
    parser.add_argument("--out", type=Path, help="also write the report here (markdown)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="also time a later open of the daimon_tui in DIR (e.g. `git archive` of an older "
                             "commit), in the same alternation")
    args = parser.parse_args(argv)
    report = ["# Floor: a later open against a one-line Textual app", "",
              f"`python benchmarks/bench_floor.py {' '.join(sys.argv[1:] if argv is None else argv)}`", "",
              "Real terminal: tmux 120x40, spawn to the first item's text on screen (capture-pane polled "
              "every 10 ms), the floor and ours alternating, medians; each tree byte-compiled first, as an install is.",
              "", f"Load before: `{_load()}`", ""]
    term.start_server()
    try:
        trees: dict[str, Path | None] = {"ours": None}
        if args.baseline is not None:
            trees = {"baseline": args.baseline, **trees}
        stores = [terminal(store, args.repeats, trees) for store in args.store]
    finally:
        term.stop_server()
    report += _rows(stores)
    report += ["", f"Load after the terminal runs: `{_load()}`"]
    if not args.terminal_only:
        heavy = manifest_file.load(args.store[0])
        brief = bench.daimon_cli(["brief"], heavy, timeout=1800)
        rows = {name: statistics.median(_timed(code) for _ in range(args.repeats)) for name, code in PROBES.items()}
        rows["a one-line Textual app's first frame (headless)"] = statistics.median(
            _first_frame() for _ in range(args.repeats))
        report += ["", f"Headless, against `daimon brief` on {args.store[0].name}: {brief.wall:.2f} s", "",
                   "| probe | seconds | x brief |", "|---|---|---|"]
        report += [f"| {name} | {seconds:.3f} | {seconds / brief.wall:.2f} |" for name, seconds in rows.items()]
    text = "\n".join(report) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
