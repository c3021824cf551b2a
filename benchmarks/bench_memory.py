"""Memory of the app and its judging child over many verbs, at rest, and idle.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy-mem   # the verbs leave rows behind
    python benchmarks/bench_memory.py --store /tmp/daimon-heavy-mem --verbs 50 --idle 100

(A copy made with `cp -a` still reads and writes the original: `store.json`
names absolute paths. A store of its own per run, then.)

One run: `daimon brief` (its peak RSS is the budget), then our app (`DaimonTUI`,
headless, Pilot) in a child process:

* opens the store and waits for daimon's confirmation;
* runs `--verbs` verbs through the app's own keys, in the cycle resolve (`r`,
  Enter, `y`), undo (`z`, `y`), retract (`x`, a reason, typed evidence, `y`),
  undo; each verb waits until its worker ended and the screen settled;
* after every verb, samples the resident size (`VmRSS` in /proc) of the app
  and of its judging child (`judge_service.service().pid`), and their peaks
  (`VmHWM`);
* at rest: samples both again `--rest` seconds after the last verb;
* idle with the live watch running: samples both every `--every` seconds for
  `--idle` seconds and fits a slope (least squares, MB per minute); the last
  sample is the figure **at rest** (issue 42.3: app + child ≤ 0.3× `daimon
  brief`'s peak RSS), after the judging child was given back (its idle time,
  the setting `judging_child_idle_s`, 60 s by default);
* then the child's way back: daimon's confirmation asked again (as the live
  watch asks it after a change), timed from the request to the confirmed
  briefing on a new child (against `daimon brief`'s time: the confirmation
  budget, ≤ 0.5×), and one resolve and its undo through the keys on it.

`--trace N` starts tracemalloc in the app after N verbs and prints the
allocation sites that grew the most by the last verb (the app's process only).
Each undo puts back what the verb before it did, so the store ends as it began
apart from the rows (every verb appends).

The result is one JSON line on stdout (`--json`) or a table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_briefing as bench
import bench_steps
import manifest as manifest_file

HERE = Path(__file__).resolve()
CYCLE = ("resolve", "undo", "retract", "undo")


def proc_mb(pid: int | None) -> dict[str, float | None]:
    """Resident size now and its peak, in MB, of one process (None if gone)."""
    out: dict[str, float | None] = {"rss": None, "hwm": None}
    if pid is None:
        return out
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out["rss" if key == "VmRSS" else "hwm"] = int(value.split()[0]) / 1024
    return out


def sample() -> dict[str, Any]:
    from daimon_tui.store.child import judge_service

    app, child = proc_mb(os.getpid()), proc_mb(judge_service.service().pid)
    return {"t": time.monotonic(), "app": app["rss"], "app_peak": app["hwm"],
            "child": child["rss"], "child_peak": child["hwm"]}


def slope_mb_per_min(points: list[tuple[float, float]]) -> float | None:
    if len(points) < 2:
        return None
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    if not var:
        return None
    return 60 * sum((t - mt) * (v - mv) for t, v in points) / var


async def _confirm(pilot: Any, app: Any) -> bool:
    """The modal after the verb's inputs: the plan preview, `y` once it takes one."""
    if not await bench._wait(pilot, lambda: type(app.screen).__name__ == "PlanPreviewModal", 120):
        return False
    preview = app.screen
    await bench._wait(pilot, lambda: time.monotonic() - preview.opened_at > preview.CONFIRM_DELAY_S + 0.05, 30)
    await pilot.press("y")
    return True


async def _verb(pilot: Any, app: Any, verb: str) -> str | None:
    """One verb through the keys; an error word, or None."""
    screen = bench._briefing_screen(app)
    if verb == "resolve":
        await pilot.press("r")
        if not await bench._wait(pilot, lambda: type(app.screen).__name__ == "ResolveModal", 30):
            return "no resolve modal"
        await pilot.press("enter")
    elif verb == "retract":
        await pilot.press("x")
        if not await bench._wait(pilot, lambda: type(app.screen).__name__ == "RetractModal", 30):
            return "no retract modal"
        await pilot.press(*"bench", "enter", *"issue:42", "enter")
    else:
        await pilot.press("z")
    if not await _confirm(pilot, app):
        name = type(app.screen).__name__
        if name != "BriefingScreen":
            await pilot.press("escape")
        return f"no preview ({name})"
    await pilot.pause(0.05)
    if not await bench._wait(pilot, lambda: not any(w.is_running for w in app.workers if w.group == "verb"), 300):
        return "verb did not end"
    await pilot.pause(0.05)
    await bench._wait(pilot, lambda: not bench._provisional(app, screen) and not bench_steps._busy(app), 300)
    return None


def _top_growth(first: Any, last: Any, limit: int = 15) -> list[str]:
    stats = last.compare_to(first, "traceback")
    lines = []
    for stat in stats[:limit]:
        frames = [f"{f.filename.split('site-packages/')[-1].split('daimon-tui/')[-1]}:{f.lineno}"
                  for f in list(stat.traceback)[-4:]]
        lines.append(f"{stat.size_diff / 1024:+9.0f} KiB {stat.count_diff:+7d} blocks  " + " <- ".join(
            reversed(frames)))
    return lines


async def _respawn(pilot: Any, app: Any, screen: Any) -> dict[str, Any]:
    """After the idle: the confirmation on a new child, then a verb and its undo on it."""
    from daimon_tui.store.child import first_paint, judge_service

    service = judge_service.service()
    out: dict[str, Any] = {"idle_s": service.idle_s, "rested": service.rested, "child_before": service.pid}
    t0 = time.perf_counter()
    briefing = await first_paint.confirm_async(screen.project, screen.now)
    out.update(confirm_s=round(time.perf_counter() - t0, 2), items=len(briefing.items()),
               provisional=briefing.provisional, notes=[n.message for n in briefing.notes][:3],
               child_after=service.pid, confirmed=sample())
    verbs = []
    for verb in ("resolve", "undo"):
        t0 = time.perf_counter()
        error = await _verb(pilot, app, verb)
        verbs.append({"verb": verb, "s": round(time.perf_counter() - t0, 2), "error": error, **sample()})
    out["verbs"] = verbs
    return out


def child_main(args: argparse.Namespace) -> int:
    factory = bench._app_factory()
    assert factory is not None
    make, label = factory
    result: dict[str, Any] = {"label": label, "verbs": []}

    async def scenario() -> None:
        import tracemalloc

        app = make()
        frames = bench.Frames(app)
        async with app.run_test(headless=True, size=bench.TERMINAL) as pilot:
            launched = time.time() - time.perf_counter()
            result.update(await bench._first_paint(pilot, app, frames, launched, launched))
            screen = bench._briefing_screen(app)
            await bench._wait(pilot, lambda: not bench_steps._busy(app), 300)
            result["opened"] = sample()
            first_snapshot = None
            for n in range(args.verbs):
                if args.trace is not None and n == args.trace:
                    tracemalloc.start(12)
                    gc.collect()
                    first_snapshot = tracemalloc.take_snapshot()
                verb = CYCLE[n % len(CYCLE)]
                t0 = time.perf_counter()
                error = await _verb(pilot, app, verb)
                row = {"n": n + 1, "verb": verb, "s": round(time.perf_counter() - t0, 2), **sample()}
                if error:
                    row["error"] = error
                result["verbs"].append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
            if first_snapshot is not None:
                gc.collect()
                result["growth"] = _top_growth(first_snapshot, tracemalloc.take_snapshot())
                tracemalloc.stop()
            result["items"] = len(screen.briefing.items())
            await pilot.pause(args.rest)
            result["rest"], result["rest_s"] = sample(), args.rest
            idle = []
            end = time.monotonic() + args.idle
            while time.monotonic() < end:
                await pilot.pause(args.every)
                idle.append(sample())
            result["idle"] = idle
            result["respawn"] = await _respawn(pilot, app, screen)

    asyncio.run(scenario())
    print(json.dumps(result))
    return 0


def _mb(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f} MB"


def summary(ours: dict, brief_mb: float | None, args_all: bool = False, brief_s: float | None = None) -> list[str]:
    verbs = ours.get("verbs", [])
    opened, rest = ours.get("opened", {}), ours.get("rest", {})
    last = verbs[-1] if verbs else {}
    peak = max((v["app_peak"] or 0) + (v["child_peak"] or 0) for v in verbs) if verbs else None
    errors = [f"{v['n']} {v['verb']}: {v['error']}" for v in verbs if v.get("error")]
    lines = [
        f"verbs run: {len(verbs)} ({len(errors)} with an error{': ' + '; '.join(errors[:5]) if errors else ''})",
        f"after open:        app {_mb(opened.get('app'))}, child {_mb(opened.get('child'))} "
        f"(peaks so far: app {_mb(opened.get('app_peak'))}, child {_mb(opened.get('child_peak'))})",
    ]
    for v in verbs:
        if args_all or v["n"] in (1, 10, 20, 30, 40, 50) or v is last:
            lines.append(f"after verb {v['n']:>2} ({v['verb']:<7}) app {_mb(v['app'])}, child {_mb(v['child'])}  "
                         f"({v['s']:.1f} s)")
    lines.append(f"{ours.get('rest_s', 20):.0f} s after:       app {_mb(rest.get('app'))}, "
                 f"child {_mb(rest.get('child'))}")
    if peak is not None and brief_mb:
        lines.append(f"peaks added (app VmHWM + child VmHWM): {peak:.0f} MB vs daimon brief {brief_mb:.0f} MB: "
                     f"{peak / brief_mb:.2f}x {'PASS' if peak <= brief_mb else 'FAIL'}")
    idle = ours.get("idle", [])
    if idle:
        t0 = idle[0]["t"]
        for key in ("app", "child"):
            points = [(s["t"] - t0, s[key]) for s in idle if s.get(key) is not None]
            slope = slope_mb_per_min(points)
            values = [v for _, v in points]
            lines.append(f"idle {key:<5} over {idle[-1]['t'] - t0:.0f} s: {min(values):.1f}–{max(values):.1f} MB, "
                         f"slope {slope if slope is not None else float('nan'):+.2f} MB/min "
                         f"(running in {len(values)} of {len(idle)} samples)" if values else
                         f"idle {key}: not running in any of {len(idle)} samples")
    lines += at_rest_lines(ours, brief_mb, brief_s)
    if ours.get("growth"):
        lines.append("tracemalloc, largest growth in the app:")
        lines += [f"  {line}" for line in ours["growth"]]
    return lines


AT_REST_TARGET = 0.3  # app + child at rest, to `daimon brief`'s peak RSS (issue 42.3)
CONFIRM_TARGET = 0.5  # a confirmation on a new child, to `daimon brief`'s time (the confirmation budget)


def at_rest_lines(ours: dict, brief_mb: float | None, brief_s: float | None) -> list[str]:
    """The figure at rest (the last idle sample) and the child's way back, each with its ratio."""
    idle, back = ours.get("idle", []), ours.get("respawn") or {}
    lines = []
    if idle:
        last, verbs = idle[-1], ours.get("verbs") or [ours["rest"]]
        held = (last.get("app") or 0) + (last.get("child") or 0)
        lines.append(f"at rest, {last['t'] - verbs[-1]['t']:.0f} s after the last verb: "
                     f"app {_mb(last.get('app'))} + child {_mb(last.get('child'))} = {held:.0f} MB "
                     f"(children given back: {back.get('rested', '?')}, idle time {back.get('idle_s')} s)")
        if brief_mb:
            ratio = held / brief_mb
            lines.append(f"at rest vs daimon brief's peak {brief_mb:.0f} MB: {ratio:.2f}x <= {AT_REST_TARGET}x "
                         f"{'PASS' if ratio <= AT_REST_TARGET else 'FAIL'}")
    if back.get("confirm_s") is not None:
        confirmed = back.get("confirmed", {})
        which = "a new child" if back.get("child_before") is None else "the running child (not given back yet)"
        line = (f"confirmation on {which}: {back['confirm_s']:.2f} s ({back['items']} items, "
                f"{'provisional' if back['provisional'] else 'confirmed'}); then app {_mb(confirmed.get('app'))}, "
                f"child {_mb(confirmed.get('child'))} (peak {_mb(confirmed.get('child_peak'))})")
        if brief_s:
            ratio = back["confirm_s"] / brief_s
            line += f"; vs daimon brief {brief_s:.2f} s: {ratio:.2f}x <= {CONFIRM_TARGET}x " + (
                "PASS" if ratio <= CONFIRM_TARGET else "FAIL")
        lines.append(line)
        if back.get("notes"):
            lines.append(f"  its notes: {'; '.join(back['notes'])}")
        for v in back.get("verbs", []):
            lines.append(f"then {v['verb']:<7} on it: {v['s']:.1f} s{' ERROR ' + v['error'] if v['error'] else ''}; "
                         f"app {_mb(v['app'])}, child {_mb(v['child'])}")
    return lines


def parent_main(args: argparse.Namespace) -> int:
    store_dir = args.store.resolve()
    heavy = manifest_file.load(store_dir)
    load0 = os.getloadavg()
    brief = bench.daimon_cli(["brief"], heavy)
    env = manifest_file.child_env(heavy)
    argv = [sys.executable, str(HERE), "--child", "--store", str(store_dir), "--verbs", str(args.verbs),
            "--rest", str(args.rest), "--idle", str(args.idle), "--every", str(args.every)]
    if args.trace is not None:
        argv += ["--trace", str(args.trace)]
    run = bench.run_measured(argv, env, heavy["main_project"], timeout=7200)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        raise SystemExit(f"app run failed (rc {run.returncode}):\n{run.stderr[-3000:]}")
    ours = json.loads(lines[-1])
    load1 = os.getloadavg()
    ours["daimon_brief"] = {"wall_s": brief.wall, "rss_mb": brief.rss_mb}
    ours["load"] = [round(load0[0], 2), round(load1[0], 2)]
    if args.json:
        print(json.dumps(ours))
        return 0
    print(f"store {store_dir}; load average {load0[0]:.1f} -> {load1[0]:.1f} on {os.cpu_count()} cores")
    print(f"daimon brief: {brief.wall:.2f} s, peak {_mb(brief.rss_mb)}")
    print("\n".join(summary(ours, brief.rss_mb, args.all, brief.wall)))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--store", type=Path, required=True, help="a store made by generate_store.py (a copy)")
    parser.add_argument("--verbs", type=int, default=50)
    parser.add_argument("--rest", type=float, default=20.0, help="seconds after the last verb")
    parser.add_argument("--idle", type=float, default=100.0,
                        help="seconds of idle live watch sampled after --rest (their sum: the time at rest)")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between idle samples")
    parser.add_argument("--trace", type=int, default=None, help="tracemalloc from this verb to the last")
    parser.add_argument("--all", action="store_true", help="a line per verb")
    parser.add_argument("--json", action="store_true", help="print the whole result as one JSON line")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args)
    return parent_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
