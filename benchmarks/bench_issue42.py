"""Issue 42's rows in one run, each beside its reference, written as one markdown file.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_issue42.py \\
        --floor-store /tmp/f-small --floor-store /tmp/f-20k --floor-store /tmp/h-heavy \\
        --heavy /tmp/h-heavy --memory-store /tmp/m-heavy \\
        --work /tmp/i42-run --out benchmarks/results/issue42.md [--quick]

Runs the existing benchmarks as subprocesses, by their documented command
lines, one after the other (never two at once: they time each other), with
`uptime` before and after each:

1. a later open against the floor: `bench_floor.py` on every `--floor-store`
   (a one-line Textual app and a later open of ours, alternating, in tmux;
   then its headless probes against `daimon brief` on the first store);
2. Health in one pass: `bench_headless.py --store HEAVY --only stats`, cold
   (our cache emptied) and warm, against one `daimon brief` on that store;
3. memory at rest: `bench_memory.py` on `--memory-store`: `daimon brief`'s
   peak RSS, then N verbs through the app's keys and 2 minutes idle; app +
   judging child at rest against that peak. A store's first open, as the
   issue measured it: our cache of that store is emptied first (daimon's
   files never; `--memory-later-open` keeps it). Its verbs append rows to
   that store, so it runs last and should have a store of its own (a store
   given to the other steps too would be read by them before the verbs).

Each benchmark's own output is kept under `--work` (`run.json` records the
commands, exit codes, durations and loads); the markdown is made from there,
so `--render-only` writes it again from an earlier run without measuring.
`--quick` is a trial of the whole chain, not a measurement: fewer repeats in
the terminal, 4 verbs and a shorter idle (still past the judging child's 60 s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import issue42_report as report

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
STEP_TIMEOUT_S = 3600
COMPILE = ["-m", "compileall", "-q", "daimon_tui"]


@dataclass(frozen=True)
class Settings:
    """What `--quick` changes: the repeats and the waits, never what is measured."""

    floor_repeats: int
    health_repeats: int
    verbs: int
    rest_s: int
    idle_s: int
    every_s: int


FULL = Settings(floor_repeats=7, health_repeats=1, verbs=50, rest_s=20, idle_s=100, every_s=10)
# the idle must outlast the judging child's idle time (60 s) for a figure at rest to mean anything
QUICK = Settings(floor_repeats=2, health_repeats=1, verbs=4, rest_s=10, idle_s=80, every_s=10)


def commands(args: argparse.Namespace, settings: Settings, work: Path) -> dict[str, list[str]]:
    """Each step's command line, as its benchmark documents it (relative to the checkout)."""
    steps: dict[str, list[str]] = {}
    if args.floor_store:
        steps["floor"] = ["benchmarks/bench_floor.py", *(a for s in args.floor_store for a in ("--store", str(s))),
                          "--repeats", str(settings.floor_repeats), "--out", str(work / "floor.md")]
    if args.heavy:
        steps["health"] = ["benchmarks/bench_headless.py", "--store", str(args.heavy), "--scratch",
                           str(work / "health-scratch"), "--only", "stats", "--repeats", str(settings.health_repeats)]
    if args.memory_store:
        steps["memory"] = ["benchmarks/bench_memory.py", "--store", str(args.memory_store), "--verbs",
                           str(settings.verbs), "--rest", str(settings.rest_s), "--idle", str(settings.idle_s),
                           "--every", str(settings.every_s), "--json"]
    return {name: argv for name, argv in steps.items() if not args.only or name in args.only}


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _git(*argv: str) -> str:
    done = subprocess.run(["git", *argv], cwd=TREE, capture_output=True, text=True)
    return done.stdout.strip()


def run_step(name: str, argv: list[str], work: Path) -> dict:
    """One benchmark, its stdout and stderr kept under `work`; what the report needs to know of it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(TREE), os.environ.get("PYTHONPATH")) if p)}
    record: dict = {"argv": argv, "uptime_before": uptime(), "stdout": f"{name}.out", "stderr": f"{name}.err"}
    print(f"[{time.strftime('%H:%M:%S')}] {name}: {' '.join(argv)}\n  {record['uptime_before']}", file=sys.stderr,
          flush=True)
    start = time.monotonic()
    with (work / record["stdout"]).open("w") as out, (work / record["stderr"]).open("w") as err:
        try:
            done = subprocess.run([sys.executable, *argv], cwd=TREE, env=env, stdout=out, stderr=err,
                                  timeout=STEP_TIMEOUT_S)
            record["rc"] = done.returncode
        except subprocess.TimeoutExpired:
            record["rc"] = f"timed out after {STEP_TIMEOUT_S} s"
    record["seconds"] = round(time.monotonic() - start, 1)
    record["uptime_after"] = uptime()
    print(f"  done in {record['seconds']:.0f} s, rc {record['rc']}; {record['uptime_after']}", file=sys.stderr,
          flush=True)
    return record


def memory_open(store: Path, first: bool) -> str:
    """A store's first open for the memory run: our cache of that store emptied (never daimon's files), so the
    judging child holds daimon's full read, as in the issue's figure; else a later open over the kept fold."""
    if not first:
        return "a later open"
    home = Path(json.loads((store / "store.json").read_text())["home"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "daimon-tui"  # as store/own_files.py
    if not cache.resolve().is_relative_to(store):  # never empty a cache that is not this store's own
        return f"a later open (our cache, {cache}, is outside the store: not emptied)"
    shutil.rmtree(cache, ignore_errors=True)
    return "a first open"


def measure(args: argparse.Namespace, work: Path) -> dict:
    settings = QUICK if args.quick else FULL
    run: dict = {"invoked": ["benchmarks/bench_issue42.py", *sys.argv[1:]], "quick": args.quick,
                 "settings": settings.__dict__, "python": sys.executable, "compile": COMPILE,
                 "commit": _git("rev-parse", "--short", "HEAD"),
                 "dirty": bool(_git("status", "--porcelain", "--", "daimon_tui", "benchmarks")),
                 "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "uptime_start": uptime(), "steps": {},
                 "stores": {"floor": [str(s) for s in args.floor_store or []],
                            "heavy": str(args.heavy) if args.heavy else None,
                            "memory": str(args.memory_store) if args.memory_store else None}}
    start = time.monotonic()
    # as a wheel install has it (and as bench_headless.py and bench_steps.py do): under this machine's
    # PYTHONDONTWRITEBYTECODE, a tree without bytecode would time our modules' compilation in every open
    subprocess.run([sys.executable, *COMPILE], cwd=TREE, check=True)
    for name, argv in commands(args, settings, work).items():
        if name == "memory":
            run["memory_open"] = memory_open(args.memory_store, first=not args.memory_later_open)
        run["steps"][name] = run_step(name, argv, work)
        (work / "run.json").write_text(json.dumps(run, indent=2) + "\n")  # an interrupted run keeps its steps
    run["seconds"] = round(time.monotonic() - start, 1)
    run["uptime_end"] = uptime()
    (work / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--floor-store", type=Path, action="append",
                        help="a store for the floor (repeat: small, 20k rows, heavy; the first also for the probes)")
    parser.add_argument("--heavy", type=Path, help="the heavy store (200k rows): Health, cold and warm")
    parser.add_argument("--memory-store", type=Path, help="a heavy store of its own for the memory run (written)")
    parser.add_argument("--memory-later-open", action="store_true",
                        help="keep our cache of the memory store (a later open); by default it is emptied first")
    parser.add_argument("--work", type=Path, required=True, help="where each benchmark's own output is kept")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "issue42.md", help="the markdown written")
    parser.add_argument("--quick", action="store_true", help="a trial: fewer repeats, 4 verbs, a shorter idle")
    parser.add_argument("--only", action="append", choices=("floor", "health", "memory"), help="only this step")
    parser.add_argument("--note", help="a line said under the title (what code this is, why it was run)")
    parser.add_argument("--render-only", action="store_true", help="write the markdown from --work's run again")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    if args.render_only:
        run = json.loads((work / "run.json").read_text())
    else:
        for name in ("floor_store", "heavy", "memory_store"):
            value = getattr(args, name)
            setattr(args, name, [p.resolve() for p in value] if isinstance(value, list) else
                    value.resolve() if value else None)
        if not (args.floor_store or args.heavy or args.memory_store):
            parser.error("give at least one of --floor-store, --heavy, --memory-store")
        if args.memory_store and args.memory_store in (args.heavy, *(args.floor_store or [])):
            print("note: the memory run's verbs write to a store the other steps read (it runs last)",
                  file=sys.stderr)
        work.mkdir(parents=True, exist_ok=True)
        run = measure(args, work)
    if args.note:  # kept with the run, so a later --render-only says it too
        run["note"] = args.note
        (work / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    text = report.render(run, work, TREE)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
