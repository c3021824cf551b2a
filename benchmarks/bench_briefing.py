"""Measure daimon-tui against `daimon brief` on one generated store, in one run.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy
    python benchmarks/bench_briefing.py --store /tmp/daimon-heavy

Prints a table (metric, ours, daimon, ratio, target, pass/fail) for the budgets
of design.md "Performance budgets". Every process that reads the store is a
child with the store's settings exported (`manifest.child_env`), so the real
`daimon brief` and our app read the same files and never `~/.daimon`.

The cursor metric needs a store whose latest checkpoint holds 5,000 items; it
is generated next to the heavy one (`<store>-rows5000`) on first use.

The external-write metric appends one `resolved` row (source `ui`) to the
store's events.jsonl from a separate process and then one `reopened` row to
put the item back, so each run leaves two rows behind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import manifest as manifest_file

HERE = Path(__file__).resolve()
VENV_BIN = Path(sys.executable).parent
TIME = shutil.which("time", path="/usr/bin:/bin")
TERMINAL = (120, 40)
NA = "n/a (not implemented)"


# ---- running children ----------------------------------------------------------


@dataclass(frozen=True)
class Run:
    wall: float
    rss_mb: float | None
    stdout: str
    stderr: str
    returncode: int


def run_measured(argv: list[str], env: dict[str, str], cwd: str, timeout: float = 600) -> Run:
    """Run `argv`, returning wall time and that child's own peak RSS. GNU time
    reports the peak of exactly this child; without it we fall back to
    RUSAGE_CHILDREN, which is the max over every child so far."""
    import resource

    with tempfile.NamedTemporaryFile(prefix="bench-time-", suffix=".txt", delete=False) as handle:
        report = handle.name
    command = [TIME, "-f", "%M", "-o", report, *argv] if TIME else argv
    t0 = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    rss: float | None = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        rss = int(Path(report).read_text().strip().splitlines()[-1]) / 1024
    os.unlink(report)
    if rss is None:
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return Run(wall, rss, done.stdout, done.stderr, done.returncode)


def child(mode: str, store_dir: Path, manifest: dict[str, Any], timeout: float = 600) -> tuple[Run, dict]:
    """Run this script in `--child MODE` against a store; its last stdout line is JSON."""
    env = manifest_file.child_env(manifest)
    env["BENCH_LAUNCHED_AT"] = repr(time.time())
    argv = [sys.executable, str(HERE), "--child", mode, "--store", str(store_dir)]
    run = run_measured(argv, env, manifest["main_project"], timeout)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        raise RuntimeError(f"child {mode} failed (rc {run.returncode}):\n{run.stderr[-3000:]}")
    return run, json.loads(lines[-1])


def daimon_cli(args: list[str], manifest: dict[str, Any], timeout: float = 600) -> Run:
    run = run_measured(
        [str(VENV_BIN / "daimon"), *args], manifest_file.child_env(manifest), manifest["main_project"], timeout
    )
    if run.returncode != 0:
        raise RuntimeError(f"daimon {' '.join(args)} failed: {run.stderr[-2000:]}")
    return run


# ---- the child side: our app, headless -------------------------------------------


def _app_factory() -> tuple[Callable[[], Any], str] | None:
    """How to start our app: `daimon_tui.ui.app`'s App when the lead has written
    it, else the BriefingScreen in a bare host App (clearly labelled)."""
    from textual.app import App

    from daimon_tui.store.read import reader

    with contextlib.suppress(ImportError):
        module = importlib.import_module("daimon_tui.ui.app")
        for name in ("build_app", "make_app", "create_app"):
            if callable(getattr(module, name, None)):
                return getattr(module, name), f"daimon_tui.ui.app.{name}()"
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, App)
                and value is not App
                and value.__module__ == module.__name__
            ):
                params = inspect.signature(value).parameters
                if "project" in params:
                    return (
                        lambda cls=value: cls(project=reader.resolve_project())
                    ), f"{value.__name__}(project=…)"
                return value, f"{value.__name__}()"
    try:
        from daimon_tui.ui.briefing.screen import BriefingScreen
    except ImportError:
        return None

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(BriefingScreen(reader.resolve_project()))

    return Host, "BriefingScreen in a bare host App (ui/app.py not ready)"


def _briefing_screen(app: Any) -> Any | None:
    for screen in (app.screen, *getattr(app, "screen_stack", ())):
        if getattr(screen, "briefing", None) is not None:
            return screen
    return None


class Frames:
    """Timestamps of the screen updates Textual hands to the driver. Headless,
    `_display` draws nothing, but it is called after the compositor rendered
    the update, which is the moment a terminal would be painted."""

    def __init__(self, app: Any) -> None:
        self.stamps: list[float] = []
        # The first update rendered while a screen held a briefing: polling
        # for the briefing first and then waiting for "the next frame" would
        # miss a frame painted between two polls and count a later one.
        self.first_briefing: float | None = None
        # The first update rendered once no verdict on the screen was provisional
        # (daimon's confirmation painted), for the same reason.
        self.first_confirmed: float | None = None
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            if renderable is not None:
                now = time.perf_counter()
                self.stamps.append(now)
                shown = _briefing_screen(app)
                if self.first_briefing is None and shown is not None:
                    self.first_briefing = now
                if self.first_confirmed is None and shown is not None and not _provisional(app, shown):
                    self.first_confirmed = now
            original(screen, renderable)

        app._display = display

    def after(self, t0: float) -> float | None:
        return next((s for s in self.stamps if s >= t0), None)


def open_wait_s() -> float:
    """How long a child waits for the first paint and for the confirmation
    (`BENCH_OPEN_WAIT_S`, 120 s unless a large store's run says more)."""
    return float(os.environ.get("BENCH_OPEN_WAIT_S") or 120)


async def _wait(pilot: Any, done: Callable[[], bool], timeout: float) -> bool:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            return False
        await pilot.pause(0.005)
    return True


def _provisional(app: Any, screen: Any) -> bool:
    """The app's own word for "some verdict on screen is not confirmed yet"."""
    return bool(getattr(screen, "provisional", False) or getattr(app, "provisional", False))


async def _first_paint(pilot: Any, app: Any, frames: Frames, launched: float, wall0: float,
                       while_confirming: Callable[[], Awaitable[dict]] | None = None) -> dict:
    """`while_confirming`: a step run after the first paint, while daimon's
    confirmation runs (its result joins this one's)."""
    wait = open_wait_s()
    ok = await _wait(pilot, lambda: frames.first_briefing is not None, wait)
    if not ok:
        return {"error": f"no briefing painted within {wait:.0f} s"}
    painted = frames.first_briefing or time.perf_counter()
    screen = _briefing_screen(app)
    during = await while_confirming() if while_confirming is not None else {}
    # A confirmation that did not come is no number: null, with how long we waited. It is
    # timed at the frame that painted it: the poll's own wait for the screen comes later.
    confirmed = None
    if await _wait(pilot, lambda: not _provisional(app, screen) and frames.first_confirmed is not None, wait):
        confirmed = frames.first_confirmed
    briefing = screen.briefing
    return {
        "first_paint_s": wall0 - launched + painted,
        "confirmed_s": None if confirmed is None else wall0 - launched + confirmed,
        **({"confirm_waited_s": wait} if confirmed is None else {}),
        "items": len(briefing.items()),
        "state": briefing.state,
        **during,
    }


def child_main(mode: str, store_dir: Path) -> int:
    """Entry of `--child MODE`: prints one JSON line."""
    launched = float(os.environ.get("BENCH_LAUNCHED_AT", time.time()))
    wall0 = time.time() - time.perf_counter()  # perf_counter -> epoch
    if mode == "switcher":
        # What the switcher paints first: bucket envelopes and cached counts
        # (`project_index.quick_projects`); daimon's full listing confirms later.
        from daimon_tui.store.read import project_index, reader

        times = []
        count = 0
        for _ in range(3):
            t0 = time.perf_counter()
            rows, _notes = project_index.quick_projects()
            times.append(time.perf_counter() - t0)
            count = len(rows)
        t0 = time.perf_counter()
        reader.list_projects()
        confirmed = time.perf_counter() - t0
        print(json.dumps({"cold_s": times[0], "warm_s": statistics.median(times[1:]), "projects": count,
                          "confirmed_s": confirmed}))
        return 0
    factory = _app_factory()
    if factory is None:
        if mode != "first-paint":
            print(json.dumps({"na": "no briefing screen yet"}))
            return 0
        from daimon_tui.store.read import reader

        briefing = reader.load_briefing(reader.resolve_project())
        done = time.time()
        print(
            json.dumps(
                {
                    "label": "reader.load_briefing alone (no UI yet)",
                    "first_paint_s": done - launched,
                    "confirmed_s": done - launched,
                    "items": len(briefing.items()),
                }
            )
        )
        return 0
    make, label = factory
    result: dict[str, Any] = {"label": label}

    async def scenario() -> None:
        app = make()
        frames = Frames(app)
        async with app.run_test(headless=True, size=TERMINAL) as pilot:
            result.update(await _first_paint(pilot, app, frames, launched, wall0))
            if mode == "cursor":
                result.update(await _cursor(pilot, app, frames))
            elif mode == "external":
                result.update(await _external(pilot, app))

    asyncio.run(scenario())
    import resource

    # The app's own peak and the largest of its children's (the judging child):
    # GNU time in the parent reports the max of the two, a person pays the sum.
    result["self_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result["children_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps(result))
    return 0


async def _cursor(pilot: Any, app: Any, frames: Frames, presses: int = 200) -> dict:
    """Key press to the next screen update, for `presses` presses of `j`."""
    latencies = []
    await pilot.pause(0.3)  # let the first detail-pane worker settle
    for _ in range(presses):
        t0 = time.perf_counter()
        await pilot.press("j")
        await _wait(pilot, lambda t0=t0: frames.after(t0) is not None, 2)
        stamp = frames.after(t0)
        if stamp is not None:
            latencies.append(stamp - t0)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else None
    return {
        "cursor_p95_s": p95,
        "cursor_median_s": statistics.median(latencies) if latencies else None,
        "cursor_samples": len(latencies),
    }


WRITE = """
import sys
from daimon_briefing import store
from daimon_briefing.surfaces import Writer
ok = store.append_event(
    sys.argv[1], sys.argv[2], note="bench external write", source="ui", project_dir=sys.argv[3],
    writer=Writer.HUMAN,
)
sys.exit(0 if ok else 3)
"""


async def _external(pilot: Any, app: Any, timeout: float = 10.0) -> dict:
    """Resolve a visible item from another process; time until our model shows it resolved."""
    screen = _briefing_screen(app)
    candidates = [i for i in screen.briefing.items() if i.id and not i.corroboration and i.briefable]
    candidates = candidates or [i for i in screen.briefing.items() if i.id]
    if not candidates:
        return {"external_error": "no item with an id"}
    target = candidates[-1].id
    project = os.environ["DAIMON_PROJECT_DIR"]

    def visible() -> bool:
        current = _briefing_screen(app)
        return current is not None and any(i.id == target for i in current.briefing.items())

    write = await asyncio.create_subprocess_exec(sys.executable, "-c", WRITE, target, "resolved", project)
    if await write.wait() != 0:
        return {"external_error": "daimon refused the write"}
    written = time.perf_counter()
    seen = await _wait(pilot, lambda: not visible(), timeout)
    elapsed = time.perf_counter() - written if seen else None
    # Put the item back (a reopen outranks a same-second resolve in daimon's fold).
    await asyncio.sleep(1.05)
    restore = await asyncio.create_subprocess_exec(sys.executable, "-c", WRITE, target, "reopened", project)
    await restore.wait()
    return {"external_s": elapsed, "external_timeout_s": timeout, "external_item": target}


# ---- the parent: orchestration and the table ------------------------------------------


@dataclass
class Metric:
    name: str
    ours: float | None
    daimon: float | None
    target: str
    passed: bool | None
    unit: str = "s"
    note: str = ""

    def cells(self) -> list[str]:
        def show(value: float | None) -> str:
            if value is None:
                return "—"
            return (
                f"{value * 1000:.1f} ms"
                if self.unit == "ms"
                else (f"{value:.0f} MB" if self.unit == "MB" else f"{value:.2f} s")
            )

        ratio = f"{self.ours / self.daimon:.2f}x" if self.ours is not None and self.daimon else "—"
        verdict = self.note or ("PASS" if self.passed else "FAIL")
        if self.passed is None and not self.note:
            verdict = NA
        return [self.name, show(self.ours), show(self.daimon), ratio, self.target, verdict]


def ensure_rows_store(store_dir: Path, rows: int) -> Path:
    rows_dir = store_dir.parent / f"{store_dir.name}-rows{rows}"
    if not (rows_dir / manifest_file.MANIFEST).is_file():
        print(f"generating the {rows}-row store at {rows_dir} …", file=sys.stderr)
        subprocess.run(
            [
                sys.executable,
                str(HERE.with_name("generate_store.py")),
                "--out",
                str(rows_dir),
                "--rows",
                str(rows),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return rows_dir


def table(metrics: list[Metric]) -> str:
    head = ["metric", "ours", "daimon", "ratio", "target", "result"]
    rows = [head, *(m.cells() for m in metrics)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def parent_main(args: argparse.Namespace) -> int:
    store_dir = args.store.resolve()
    heavy = manifest_file.load(store_dir)
    print(f"store: {store_dir}  shape: {json.dumps(heavy['shape'])}", file=sys.stderr)
    print(
        f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]}, "
        f"peak RSS via {'GNU time' if TIME else 'RUSAGE_CHILDREN'}",
        file=sys.stderr,
    )

    only = set(args.only or STEPS)
    metrics: list[Metric] = []
    if "paint" in only:
        metrics += _paint_metrics(store_dir, heavy, args.repeats)
    if "cursor" in only:
        metrics.append(_cursor_metric(store_dir, args.rows))
    if "switcher" in only:
        metrics.append(_switcher_metric(store_dir, heavy))
    if "external" in only:
        metrics.append(_external_metric(store_dir, heavy))
    print(table(metrics))
    return 0


STEPS = ("paint", "cursor", "switcher", "external")


def _paint_metrics(store_dir: Path, heavy: dict[str, Any], repeats: int) -> list[Metric]:
    briefs = [daimon_cli(["brief"], heavy) for _ in range(repeats)]
    if "Decisions made" not in briefs[0].stdout and "Open loops" not in briefs[0].stdout:
        raise SystemExit(
            "daimon brief did not report items from the generated store:\n" + briefs[0].stdout[:2000]
        )
    brief_wall = statistics.median(r.wall for r in briefs)
    brief_rss = statistics.median(r.rss_mb or 0 for r in briefs)
    print(
        f"daimon brief: {[round(r.wall, 2) for r in briefs]} s, {[round(r.rss_mb or 0) for r in briefs]} MB",
        file=sys.stderr,
    )

    paints = [child("first-paint", store_dir, heavy) for _ in range(repeats)]
    if any(p.get("confirmed_s") is None for _r, p in paints):
        raise RuntimeError(f"a confirmation did not come within {open_wait_s():.0f} s (BENCH_OPEN_WAIT_S)")
    label = paints[0][1].get("label", "")
    print(
        f"ours ({label}): "
        + ", ".join(
            f"paint {p['first_paint_s']:.2f}s confirmed {p['confirmed_s']:.2f}s"
            f" items {p['items']} rss {r.rss_mb:.0f}MB"
            for r, p in paints
        ),
        file=sys.stderr,
    )
    paint = statistics.median(p["first_paint_s"] for _r, p in paints)
    confirmed = statistics.median(p["confirmed_s"] for _r, p in paints)
    rss = statistics.median(r.rss_mb or 0 for r, _p in paints)
    own = statistics.median(p.get("self_rss_mb", 0) for _r, p in paints)
    judged = statistics.median(p.get("children_rss_mb", 0) for _r, p in paints)
    print(f"ours = {label}", file=sys.stderr)
    # The stricter reading of the budget: both processes' peaks added (an
    # upper bound of what the machine holds at once), not the larger one.
    together = own + judged
    memory_note = f"app {own:.0f} MB + judging child {judged:.0f} MB; largest process {rss:.0f} MB"
    return [
        Metric(
            "first painted briefing",
            paint,
            brief_wall,
            "<= 1.0 s and <= 0.15x",
            paint <= 1.0 and paint <= 0.15 * brief_wall,
        ),
        Metric("verdicts confirmed by daimon", confirmed, brief_wall, "<= 1.0x", confirmed <= brief_wall),
        Metric("peak memory (app + child)", together, brief_rss, "<= 1.0x", together <= brief_rss, "MB",
               f"{'PASS' if together <= brief_rss else 'FAIL'} ({memory_note})"),
    ]


def _cursor_metric(store_dir: Path, rows: int) -> Metric:
    rows_dir = ensure_rows_store(store_dir, rows)
    _run, cursor = child("cursor", rows_dir, manifest_file.load(rows_dir))
    p95 = cursor.get("cursor_p95_s")
    print(f"cursor: {cursor}", file=sys.stderr)
    median = cursor.get("cursor_median_s")
    passed = None if p95 is None else p95 <= 0.016
    note = f"{'PASS' if passed else 'FAIL'} (median {median * 1000:.1f} ms)" if median is not None else ""
    return Metric(f"cursor repaint p95 @{cursor.get('items', 0):,} rows", p95, None, "<= 16 ms", passed, "ms", note)


def _switcher_metric(store_dir: Path, heavy: dict[str, Any]) -> Metric:
    _run, switch = child("switcher", store_dir, heavy)
    projects_cli = daimon_cli(["projects"], heavy)
    print(f"switcher: {switch}; daimon projects {projects_cli.wall:.2f}s", file=sys.stderr)
    return Metric(
        f"project switcher ({switch['projects']} projects)",
        switch["cold_s"],
        projects_cli.wall,
        "<= 300 ms",
        switch["cold_s"] <= 0.300,
        "ms",
    )


def _external_metric(store_dir: Path, heavy: dict[str, Any]) -> Metric:
    _run, external = child("external", store_dir, heavy)
    print(f"external: {external}", file=sys.stderr)
    seen = external.get("external_s")
    bare = "bare host" in external.get("label", "")
    return Metric(
        "external write visible",
        seen,
        None,
        "<= 1 s",
        None if seen is None and bare else (seen is not None and seen <= 1.0),
        note="" if seen is not None or not bare else NA,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    parser.add_argument("--store", type=Path, required=True, help="a store made by generate_store.py")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=5000, help="items in the cursor benchmark's checkpoint")
    parser.add_argument("--only", action="append", choices=STEPS,
                        help="run only this step (repeatable); paint = daimon brief, first paint, "
                             "confirmation and peak memory")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args.child, args.store)
    return parent_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
