"""The headless commands against daimon's CLI on one store, cold and warm, in one run.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy
    python benchmarks/bench_headless.py --store /tmp/daimon-heavy --scratch /tmp/me-bench

One run: `daimon brief` and `daimon recall Q` (the baselines, each the median
of `--repeats`), then each of our headless commands (`brief`, `brief --json`,
`brief --as-daimon`, `search Q`, `check`, `audit`, `stats --json`) twice: cold (our cache
emptied first: no kept fold, no seal key) and warm (right after: the kept
fold the cold run wrote, sealed). With `--small DIR` also a fresh `search`
(cache emptied) against `daimon recall`, and each other report against
`daimon brief`, on a small store (made there by
`generate_store.py` on first use), all run in turn `--repeats` times
(medians); `--store` may then be left out, for the small store alone. Our
commands run as the `daimon-tui` console script does (`main()`).

Only our own files are written, under `--scratch` (`DAIMON_TUI_CACHE`,
`XDG_STATE_HOME`, `DAIMON_TUI_LOG`, `DAIMON_TUI_CONFIG`, `XDG_CACHE_HOME`):
the store itself is read by our commands, never written (daimon's own CLI
runs record their usage lines there, as they always do). Each command is
checked to leave `textual` unimported, and a search `pydantic` too
(`sys.modules` at its exit). Our package is byte-compiled first (`compileall`),
as a wheel install is: the children run with PYTHONDONTWRITEBYTECODE, and a
stale `__pycache__` would otherwise time our modules' compilation on every
run. The load average is printed before and after: ratios within one run are
what counts.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_briefing as bench
import manifest as manifest_file

import daimon_tui

HERE = Path(__file__).resolve()
# `daimon-tui ARGS`, as the console script runs it, telling at exit which of these it imported
HEAVY = ("textual", "pydantic")
RUN_OURS = ("import os, sys, atexit\n"
            "atexit.register(lambda: open(os.environ['BENCH_MODULES'], 'w').write("
            f"' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))))\n"
            "from daimon_tui.cli import main\n"
            "sys.exit(main())\n")

# (label, our argv, the baseline it is held to, warm limit, cold limit)
COMMANDS = (
    ("brief", ["brief"], "brief", 0.3, 1.0),
    ("brief --json", ["brief", "--json"], "brief", 0.3, 1.0),
    ("brief --as-daimon", ["brief", "--as-daimon"], "brief", 0.3, 1.0),
    ("search", ["search", "{query}"], "recall", 0.3, 1.0),
    ("check", ["check"], "brief", 0.5, 1.0),
    ("audit", ["audit"], "brief", 1.0, 1.0),
    # Health's numbers (issue 42 point 2): cold is one pass from an empty cache, warm reads the kept numbers
    ("stats --json", ["stats", "--json"], "brief", 0.1, 1.0),
)


def our_env(heavy: dict, scratch: Path) -> dict[str, str]:
    """The store's child environment, with every file of ours under `scratch`
    (`child_env` drops every DAIMON_* value of ours, DAIMON_TUI_* included)."""
    env = manifest_file.child_env(heavy)
    env.update({
        "DAIMON_TUI_CACHE": str(scratch / "cache"),
        "XDG_CACHE_HOME": str(scratch / "xdg-cache"),
        "XDG_STATE_HOME": str(scratch / "state"),
        "DAIMON_TUI_LOG": str(scratch / "state" / "actions.jsonl"),
        "DAIMON_TUI_CONFIG": str(scratch / "config.toml"),
    })
    return env


def _ours(argv: list[str], env: dict[str, str], cwd: str) -> tuple[bench.Run, set[str]]:
    """One run of our command; which of `HEAVY` it imported."""
    modules = Path(env["DAIMON_TUI_CONFIG"]).with_name("modules.txt")
    modules.parent.mkdir(parents=True, exist_ok=True)
    run = bench.run_measured([sys.executable, "-c", RUN_OURS, *argv], {**env, "BENCH_MODULES": str(modules)}, cwd)
    if run.returncode not in (0, 1, 5) or "could not finish" in run.stderr:  # 1 no hit, 5 no repository to check
        raise RuntimeError(f"daimon-tui {' '.join(argv)} failed (rc {run.returncode}): {run.stderr[-2000:]}")
    return run, set(modules.read_text().split())


def _baseline(args: list[str], heavy: dict, repeats: int) -> float:
    walls = [bench.daimon_cli(args, heavy).wall for _ in range(repeats)]
    return statistics.median(walls)


def _headless(heavy: dict, scratch: Path, query: str, repeats: int,
              only: str | None = None) -> list[bench.Metric]:
    env = our_env(heavy, scratch)
    cwd = heavy["main_project"]
    commands = [c for c in COMMANDS if only is None or c[0].split()[0] == only]
    base: dict[str, float] = {}
    if any(c[2] == "recall" for c in commands):
        bench.daimon_cli(["recall", query], heavy)  # daimon's first recall (re)builds its index: not what is timed
        base["recall"] = _baseline(["recall", query], heavy, repeats)
    base["brief"] = _baseline(["brief"], heavy, repeats)
    print(", ".join(f"daimon {name} {wall:.2f} s" for name, wall in base.items()) + f" (median of {repeats})",
          file=sys.stderr)
    metrics: list[bench.Metric] = []
    for label, argv, against, warm_limit, cold_limit in commands:
        argv = [a.replace("{query}", query) for a in argv]
        shutil.rmtree(scratch / "cache", ignore_errors=True)
        cold, cold_textual = _ours(argv, env, cwd)
        warm, warm_textual = _ours(argv, env, cwd)
        if cold.stdout != warm.stdout:
            print(f"NOTE {label}: warm output differs from cold", file=sys.stderr)
        note = " (imported textual!)" if "textual" in cold_textual | warm_textual else ""
        print(f"{label}: cold {cold.wall:.2f} s, warm {warm.wall:.2f} s{note}", file=sys.stderr)
        for tag, run, limit in (("cold", cold, cold_limit), ("warm", warm, warm_limit)):
            passed = run.wall <= limit * base[against] and not note
            metrics.append(bench.Metric(f"{label} ({tag})", run.wall, base[against], f"<= {limit}x {against}",
                                        passed, note=("" if passed else "FAIL") + note))
    return metrics


def _small(small_dir: Path, scratch: Path, query: str, repeats: int) -> list[bench.Metric]:
    if not (small_dir / manifest_file.MANIFEST).is_file():
        print(f"generating a small store at {small_dir} …", file=sys.stderr)
        subprocess.run([sys.executable, str(HERE.with_name("generate_store.py")), "--out", str(small_dir),
                        "--projects", "3", "--sessions", "5", "--items", "20", "--events", "500"],
                       check=True, stdout=subprocess.DEVNULL)
    small = manifest_file.load(small_dir)
    bench.daimon_cli(["recall", query], small)
    env = our_env(small, scratch / "small")
    # ours -> its baseline; each ours run fresh (our cache emptied), all in turn each round
    ours_against = {label: against for label, _argv, against, *_ in COMMANDS}
    argvs = {label: [a.replace("{query}", query) for a in argv] for label, argv, *_ in COMMANDS}
    baselines = {"recall": ["recall", query], "brief": ["brief"]}
    walls: dict[str, list[float]] = {name: [] for name in (*ours_against, *(f"daimon {b}" for b in baselines))}
    imported: dict[str, set[str]] = {label: set() for label in ours_against}
    for _ in range(repeats):  # in turn, so a change of load meets every command alike
        for baseline, args in baselines.items():
            walls[f"daimon {baseline}"].append(bench.daimon_cli(args, small).wall)
        for label in ours_against:
            shutil.rmtree(scratch / "small" / "cache", ignore_errors=True)
            run, heavy = _ours(argvs[label], env, small["main_project"])
            walls[label].append(run.wall)
            imported[label] |= heavy
    median = {name: statistics.median(runs) for name, runs in walls.items()}
    print(f"small store (median of {repeats}): " + ", ".join(f"{name} {wall:.2f} s" for name, wall in median.items()),
          file=sys.stderr)
    metrics = []
    for label, against in ours_against.items():
        # only a search is held to leave pydantic out; every report, Textual
        bad = imported[label] if label == "search" else imported[label] & {"textual"}
        note = f"imported {', '.join(sorted(bad))}!" if bad else ""
        daimon = median[f"daimon {against}"]
        metrics.append(bench.Metric(f"fresh {label}, small store", median[label], daimon, f"<= 1.0x {against}",
                                    median[label] <= daimon and not bad, note=note))
    return metrics


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--store", type=Path, help="a store made by generate_store.py (left out: --small alone)")
    parser.add_argument("--scratch", type=Path, required=True, help="a directory of ours (our cache, state, log)")
    parser.add_argument("--query", default="payment retry")
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs of each daimon baseline (median); on the small store, rounds of every command")
    parser.add_argument("--small", type=Path, help="also every report fresh on this small store (made on first use)")
    parser.add_argument("--only", choices=sorted({label.split()[0] for label, *_ in COMMANDS}),
                        help="on --store, only this command (and only the baselines it is held to)")
    args = parser.parse_args(argv)
    if args.store is None and args.small is None:
        parser.error("give --store, --small or both")
    args.scratch.mkdir(parents=True, exist_ok=True)
    # as a wheel install has it: bytecode for every module of ours (quiet: only errors print)
    compileall.compile_dir(Path(daimon_tui.__file__).parent, quiet=1)
    before = os.getloadavg()
    metrics: list[bench.Metric] = []
    if args.store is not None:
        heavy = manifest_file.load(args.store.resolve())
        metrics += _headless(heavy, args.scratch.resolve(), args.query, args.repeats, args.only)
    if args.small:
        metrics += _small(args.small.resolve(), args.scratch.resolve(), args.query, args.repeats)
    after = os.getloadavg()
    print(json.dumps({m.name: [m.ours, m.daimon] for m in metrics}), file=sys.stderr)
    print(f"load average before / after: {before[0]:.1f} / {after[0]:.1f} on {os.cpu_count()} cores",
          file=sys.stderr)
    print(bench.table(metrics))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
