"""Every step after the first paint, against daimon's CLI on one store, in one run.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy
    python benchmarks/bench_steps.py --store /tmp/daimon-heavy

One run: `daimon brief` and `daimon why <id>` (the item our app works on),
then our app (`DaimonTUI`, headless, Pilot) twice: the first open of the
store (no kept fold in our cache: `--cold` empties it) and an ordinary open
(the kept fold of the previous run on disk). Each app run times:

* confirmation on open: spawn to the screen's `provisional` going False;
* item at rest during the first confirmation: `j` right after the first
  paint, until the detail pane holds an answer (provisional, from the item's
  own rows: `provisional_details`; or daimon's, if the confirmation won);
* item at rest: `j`, then until the detail pane holds daimon's answer
  (`why`, witnesses, lifecycle) for the new row; once right after the
  confirmation (the receipt audit may still run) and once with the app idle;
* verb preview: `r`, Enter, until the plan preview is the screen;
* write and acknowledgement: `y` (once the preview takes it: it ignores a `y`
  in its first `CONFIRM_DELAY_S`) until the verb's worker ends (the write is
  on disk and the notice "… daimon now says …" is posted);
* settled: `y` until no verdict is provisional and no read is running;
* peak memory after the verb: the app's and the judging child's peaks added,
  against `daimon brief`'s.

The item is put back afterwards (a `reopened` row by daimon's writer, source
`ui`), so each run leaves two rows. Ratios: the item and the verb steps to one
`daimon why`, the confirmation to one `daimon brief`.

`--opens` times the opens alone (first paint, confirmation on open), no key
and no verb, so the store is never written (a shared store stays as it
is): with `--cold`, a first open of the store, then two later opens (the
first of them reads the kept fold the first open wrote). `--scratch DIR`
keeps every file of ours (cache, state, log, settings) under DIR.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_briefing as bench
import manifest as manifest_file

HERE = Path(__file__).resolve()
QUIET_GROUPS = frozenset({"verb", "briefing-live", "team-live"})  # waits on a person / runs while the screen does


def _busy(app: Any) -> bool:
    return any(w.is_running and w.group not in QUIET_GROUPS for w in app.workers)


async def _item_at_rest(pilot: Any, app: Any, timeout: float = 300) -> float | None:
    screen = bench._briefing_screen(app)
    t0 = time.perf_counter()
    await pilot.press("j")
    item = screen.current_item()
    if item is None or not item.id:
        return None
    done = await bench._wait(pilot, lambda: item.id in screen.details, timeout)
    return time.perf_counter() - t0 if done else None


async def _item_at_rest_confirming(pilot: Any, app: Any) -> dict:
    """`j` right after the first paint, while daimon's confirmation runs in
    the judging child: until the pane holds an answer (provisional from the
    item's own rows, or daimon's confirmed one if that came first)."""
    screen = bench._briefing_screen(app)
    if not bench._provisional(app, screen):
        return {"at_rest_confirming_note": "confirmed before the key"}
    t0 = time.perf_counter()
    await pilot.press("j")
    item = screen.current_item()
    if item is None or not item.id:
        return {"at_rest_confirming_note": "no item under the cursor"}
    done = await bench._wait(
        pilot, lambda: item.id in screen.provisional_details or item.id in screen.details, 300)
    return {
        "at_rest_confirming_s": time.perf_counter() - t0 if done else None,
        "at_rest_confirming_by": "provisional" if item.id in screen.provisional_details else "confirmed",
        "at_rest_confirming_still_confirming": bench._provisional(app, screen),
    }


async def _steps(pilot: Any, app: Any, result: dict) -> None:
    screen = bench._briefing_screen(app)
    result["at_rest_after_confirm_s"] = await _item_at_rest(pilot, app)
    await bench._wait(pilot, lambda: not _busy(app), 300)
    result["at_rest_idle_s"] = await _item_at_rest(pilot, app)
    await bench._wait(pilot, lambda: not _busy(app), 300)
    target = screen.current_item()
    result["item"] = target.id if target is not None else None
    await pilot.press("r")
    if not await bench._wait(pilot, lambda: type(app.screen).__name__ == "ResolveModal", 30):
        result["error"] = "no resolve modal"
        return
    t0 = time.perf_counter()
    await pilot.press("enter")
    if not await bench._wait(pilot, lambda: type(app.screen).__name__ == "PlanPreviewModal", 300):
        result["error"] = "no preview"
        return
    result["preview_s"] = time.perf_counter() - t0
    # The preview ignores a `y` typed before a person could read it (counted
    # from its mount): the write is timed from the first `y` it takes.
    preview = app.screen
    await bench._wait(pilot, lambda: time.monotonic() - preview.opened_at > preview.CONFIRM_DELAY_S + 0.05, 30)
    notes: list[str] = []
    notify = app.notify
    app.notify = lambda message, *a, **kw: notes.append(str(message)) or notify(message, *a, **kw)
    t0 = time.perf_counter()
    await pilot.press("y")
    verb_done = await bench._wait(
        pilot, lambda: not any(w.is_running for w in app.workers if w.group == "verb"), 300)
    result["write_ack_s"] = time.perf_counter() - t0 if verb_done else None
    result["ack"] = next((n for n in notes if "now says" in n), notes[-1] if notes else None)
    await pilot.pause(0.05)
    settled = await bench._wait(pilot, lambda: not bench._provisional(app, screen) and not _busy(app), 300)
    result["settled_s"] = time.perf_counter() - t0 if settled else None
    result["resolved_gone"] = target is not None and target.id not in {i.id for i in screen.briefing.items()}


def _restore(item: str | None) -> None:
    if not item:
        return
    from daimon_briefing import store
    from daimon_briefing.surfaces import Writer

    time.sleep(1.05)  # past the resolve's second: a reopen then wins by time, not by tie rule
    store.append_event(item, "reopened", note="bench restore", source="ui",
                       project_dir=os.environ["DAIMON_PROJECT_DIR"], writer=Writer.HUMAN)


def child_main() -> int:
    launched = float(os.environ.get("BENCH_LAUNCHED_AT", time.time()))
    wall0 = time.time() - time.perf_counter()
    # as `daimon-tui` does before it imports Textual: the judging child starts and warms the project
    early_pid = None
    if not os.environ.get("BENCH_LATE_CHILD"):
        from daimon_tui.store.child import early_child

        early_child.spawn(None, None)
        early_pid = early_child._early.proc.pid if early_child._early is not None else None
    factory = bench._app_factory()
    assert factory is not None
    make, label = factory
    result: dict[str, Any] = {"label": label}

    opens_only = bool(os.environ.get("BENCH_OPENS_ONLY"))

    async def scenario() -> None:
        app = make()
        frames = bench.Frames(app)
        async with app.run_test(headless=True, size=bench.TERMINAL) as pilot:
            if opens_only:
                result.update(await bench._first_paint(pilot, app, frames, launched, wall0))
                from daimon_tui.store.child import judge_service

                result["early_child_answered"] = early_pid is not None and judge_service.service().pid == early_pid
                # as a person reads the briefing: the judging child keeps the fold once idle (a first
                # open's build comes after its answer); the open is timed, this wait is not
                from daimon_tui.store.judging import verdict_cache

                t0 = time.perf_counter()
                kept = await bench._wait(pilot, lambda: any(verdict_cache.cache_dir().glob("*.fold.json")), 120)
                result["fold_kept_after_s"] = time.perf_counter() - t0 if kept else None
                return
            result.update(await bench._first_paint(pilot, app, frames, launched, wall0,
                                                    lambda: _item_at_rest_confirming(pilot, app)))
            await _steps(pilot, app, result)

    asyncio.run(scenario())
    import resource

    # Peaks after a verb: the app's own and the judging child's (closed with the app)
    result["self_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result["children_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if not opens_only:
        _restore(result.get("item"))
    print(json.dumps(result))
    return 0


def _ours(store_dir: Path, heavy: dict, cold: bool, scratch: Path | None = None, opens: bool = False,
          late_child: bool = False) -> dict:
    if scratch is not None:
        from bench_headless import our_env

        env = our_env(heavy, scratch)
        cache = Path(env["DAIMON_TUI_CACHE"])
    else:
        env = manifest_file.child_env(heavy)
        cache = Path(heavy["home"]) / ".cache" / "daimon-tui"
    if cold:
        shutil.rmtree(cache, ignore_errors=True)
    if opens:
        env["BENCH_OPENS_ONLY"] = "1"
    if late_child:
        env["BENCH_LATE_CHILD"] = "1"
    env["BENCH_LAUNCHED_AT"] = repr(time.time())
    run = bench.run_measured([sys.executable, str(HERE), "--child", "--store", str(store_dir)], env,
                             heavy["main_project"], timeout=1800)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        raise RuntimeError(f"app run failed (rc {run.returncode}):\n{run.stderr[-3000:]}")
    return json.loads(lines[-1])


def _memory(ours: dict, brief_mb: float | None, tag: str) -> bench.Metric:
    """Both processes' peaks added (what the machine may hold at once) against `daimon brief`'s."""
    own, child = ours.get("self_rss_mb"), ours.get("children_rss_mb")
    together = own + child if own is not None and child is not None else None
    passed = None if together is None or not brief_mb else together <= brief_mb
    note = "" if together is None else f"{'PASS' if passed else 'FAIL'} (app {own:.0f} + child {child:.0f} MB)"
    return bench.Metric(f"peak memory after a verb ({tag})", together, brief_mb, "<= 1.0x brief", passed, "MB",
                        note)


def _metrics(ours: dict, brief: float, why: float, tag: str) -> list[bench.Metric]:
    def m(name: str, key: str, base: float, limit: float, what: str) -> bench.Metric:
        value = ours.get(key)
        return bench.Metric(f"{name} ({tag})", value, base, f"<= {limit}x {what}",
                            None if value is None else value <= limit * base)

    return [
        m("confirmation on open", "confirmed_s", brief, 0.5, "brief"),
        m("item at rest, first confirmation running", "at_rest_confirming_s", why, 0.15, "why"),
        m("item at rest, just confirmed", "at_rest_after_confirm_s", why, 0.15, "why"),
        m("item at rest, idle", "at_rest_idle_s", why, 0.15, "why"),
        m("verb preview", "preview_s", why, 0.15, "why"),
        m("write + acknowledgement", "write_ack_s", why, 0.15, "why"),
        m("screen settled after write", "settled_s", why, 1.0, "why"),
    ]


def _bytecode(from_source: bool) -> str:
    """Our package's bytecode compiled first, as `pip install` does for the
    wheel (and did for the daimon we compare with): with
    PYTHONDONTWRITEBYTECODE set, as in some shells and CI, an editable
    checkout otherwise compiles ~100 modules from source in the app and again
    in the judging child on every run (~0.2 s each). `--from-source` measures
    that condition: our bytecode is removed first (never daimon's)."""
    package = HERE.parents[1] / "daimon_tui"
    if from_source:
        for cache in package.rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            return "from source (removed first; PYTHONDONTWRITEBYTECODE is set)"
        return "removed first (the first run writes it again: PYTHONDONTWRITEBYTECODE is not set)"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, capture_output=True)
    return f"compiled first in {package}, as pip install does"


def parent_main(args: argparse.Namespace) -> int:
    store_dir = args.store.resolve()
    heavy = manifest_file.load(store_dir)
    load = os.getloadavg()
    print(f"store: {store_dir}  shape: {json.dumps(heavy['shape'])}", file=sys.stderr)
    print(f"our bytecode: {_bytecode(args.from_source)}", file=sys.stderr)
    brief = bench.daimon_cli(["brief"], heavy)
    print(f"daimon brief: {brief.wall:.2f} s, {brief.rss_mb or 0:.0f} MB", file=sys.stderr)
    if args.opens:
        return _opens(store_dir, heavy, args, brief, load)
    runs = []
    if args.cold:
        runs.append(("first open", _ours(store_dir, heavy, cold=True)))
    runs.append(("kept fold", _ours(store_dir, heavy, cold=False)))
    item = next((r.get("item") for _tag, r in runs if r.get("item")), None)
    why = bench.daimon_cli(["why", item], heavy) if item else None
    why_wall = why.wall if why else float("nan")
    print(f"daimon why {item}: {why_wall:.2f} s", file=sys.stderr)
    metrics: list[bench.Metric] = []
    for tag, ours in runs:
        print(f"ours ({tag}): {json.dumps(ours)}", file=sys.stderr)
        metrics += [*_metrics(ours, brief.wall, why_wall, tag), _memory(ours, brief.rss_mb, tag)]
    print(f"load average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          file=sys.stderr)
    print(bench.table(metrics))
    return 0


def _opens(store_dir: Path, heavy: dict, args: argparse.Namespace, brief: bench.Run, load: tuple) -> int:
    """First paint and confirmation of each open against `daimon brief`: a
    first open of the store (with `--cold`) at most 1.0x, every later one at
    most 0.3x."""
    scratch = args.scratch.resolve() if args.scratch else None
    runs = []
    if args.cold:
        runs.append(("first open", _ours(store_dir, heavy, cold=True, scratch=scratch, opens=True,
                                         late_child=args.late_child), 1.0))
    runs += [(f"later open {n}", _ours(store_dir, heavy, cold=False, scratch=scratch, opens=True,
                                       late_child=args.late_child), 0.3) for n in (1, 2)]
    metrics = []
    for tag, ours, limit in runs:
        print(f"ours ({tag}): {json.dumps(ours)}", file=sys.stderr)
        for name, key in (("first paint", "first_paint_s"), ("confirmation on open", "confirmed_s")):
            value = ours.get(key)
            metrics.append(bench.Metric(f"{name} ({tag})", value, brief.wall, f"<= {limit}x brief",
                                        None if value is None else value <= limit * brief.wall))
    print(f"load average before / after: {load[0]:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          file=sys.stderr)
    print(bench.table(metrics))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--store", type=Path, required=True, help="a store made by generate_store.py")
    parser.add_argument("--cold", action="store_true",
                        help="also run a first open: our cache (verdicts, kept fold) emptied first")
    parser.add_argument("--opens", action="store_true",
                        help="time the opens only (no key, no verb: the store is not written)")
    parser.add_argument("--scratch", type=Path, help="keep our cache, state, log and settings under this directory")
    parser.add_argument("--late-child", action="store_true",
                        help="start the judging child at the first read, not before Textual (for comparison)")
    parser.add_argument("--from-source", action="store_true",
                        help="our modules from source (an editable checkout under PYTHONDONTWRITEBYTECODE)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main()
    return parent_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
