"""Profile where daimon's read time goes on a generated store.

    python benchmarks/profile_daimon.py --store /tmp/daimon-heavy
    python benchmarks/profile_daimon.py --store /tmp/daimon-heavy --calls render_briefing --top 30

Runs each read call in one warm process (after one untimed warm-up of the
imports), prints its wall time, and the top functions of a cProfile of a
second run by cumulative and by own time. The store's settings are applied
in-process through daimon's `config.settings_override`, the same mechanism the
sandbox uses, so `~/.daimon` is never read.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daimon_briefing import api, briefing, config, store, view

sys.path.insert(0, str(Path(__file__).resolve().parent))
import manifest as manifest_file


def calls(project: str, now: float) -> dict[str, Callable[[], Any]]:
    def first_id() -> str:
        opened = view.open(project, live=False)
        for section in (opened.checkpoint or {}).values():
            if isinstance(section, dict):
                for value in section.values():
                    if isinstance(value, list):
                        for item in value:
                            if isinstance(item, dict) and item.get("id"):
                                return item["id"]
        raise SystemExit("no item id in the latest checkpoint")

    item_id = first_id()
    return {
        "view.snapshot": lambda: view.snapshot(project),
        "store.resolutions": lambda: store.resolutions(project_dir=project),
        "render_briefing": lambda: api.render_briefing(project, now=now),
        "briefing.prepare": lambda: briefing.prepare(project, now, live=False, route=store.Route.OWN),
        "api.why": lambda: api.why(project, item_id, now=now),
        "view.events": lambda: view.events(project),
        "view.sessions": lambda: view.sessions(project),
        "view.projects": lambda: view.projects(None),
        "view.open": lambda: view.open(project, live=False),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--calls", nargs="*", help="subset of calls to profile (default: all)")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--no-profile", action="store_true", help="only time each call")
    args = parser.parse_args(argv)
    manifest = manifest_file.load(args.store.resolve())
    project = manifest["main_project"]
    now = time.time()
    with config.settings_override(manifest["settings"]):
        table = calls(project, now)
        wanted = args.calls or list(table)
        for name in wanted:
            fn = table[name]
            t0 = time.perf_counter()
            fn()
            wall = time.perf_counter() - t0
            print(f"\n=== {name}: {wall:.2f} s (warm process)")
            if args.no_profile:
                continue
            profile = cProfile.Profile()
            profile.enable()
            fn()
            profile.disable()
            for order in ("cumulative", "tottime"):
                out = io.StringIO()
                pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
                body = out.getvalue()
                start = body.find("   ncalls")
                print(f"--- by {order}\n{body[start:].rstrip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
