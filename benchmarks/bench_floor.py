"""What any Textual app on this machine costs before it reads a byte, against `daimon brief`.

    python benchmarks/bench_floor.py --store /tmp/c20k [--repeats 5]

One run: `daimon brief` on the store's main project, then, each in a fresh
process, `python -c pass`, the imports the app cannot start without
(`textual.app`, `daimon_briefing`, `pydantic`), and a Textual app that shows
one line of text, timed from its spawn to its first frame (headless, 120×40,
as `bench_steps.py` times ours). Medians of `--repeats`. The ratio of each to
`daimon brief` is the least an open of any Textual app could score there.
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


def _timed(code: str) -> float:
    start = time.time()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.time() - start


def _first_frame() -> float:
    run = subprocess.run([sys.executable, "-c", FIRST_FRAME, repr(time.time())], check=True, capture_output=True,
                         text=True)
    return float(run.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True, help="a store made by generate_store.py")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    heavy = json.loads((args.store / "store.json").read_text())
    brief = bench.daimon_cli(["brief"], heavy, timeout=1800)
    rows = {name: statistics.median(_timed(code) for _ in range(args.repeats)) for name, code in PROBES.items()}
    rows["a one-line Textual app's first frame"] = statistics.median(_first_frame() for _ in range(args.repeats))
    print(f"daimon brief: {brief.wall:.2f} s")
    for name, seconds in rows.items():
        print(f"{name:40s} {seconds:6.3f} s  {seconds / brief.wall:5.2f}x brief")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
