"""Time daimon's briefing allocator against ours at 400, 1,000 and 5,000 items.

    python benchmarks/bench_allocator.py --out /tmp/daimon-alloc
    python benchmarks/bench_allocator.py --out /tmp/daimon-alloc --sizes 400 1000 5000

For each size, a store whose latest checkpoint holds about that many items
(`generate_store.py --rows N`, written once under OUT/items-N and reused after).
In one process, inside the store's settings: the inputs `daimon brief` gives
its allocator (`daimon_brief.allocation`: the built sections, the byte budget,
the reserved bytes, rulings and panels), then one run each of daimon's
`briefing.select` and ours (`brief_allocation.allocate`) on those inputs. The
two selections must be equal (the bench stops otherwise). Prints both times,
their ratio, how many items were kept, and our whole confirming read
(`reader.load_briefing`, the split included) at that size.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from daimon_briefing import briefing, config, store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_store
import manifest as manifest_file

from daimon_tui.models import ProjectRef
from daimon_tui.store.read import brief_allocation, daimon_brief, reader


def _store(out: Path, items: int) -> dict[str, Any]:
    where = out / f"items-{items}"
    if not (where / manifest_file.MANIFEST).is_file():
        print(f"writing a store with a {items}-item briefing under {where} ...", file=sys.stderr)
        generate_store.generate(where, rows=items, log=False)
    return manifest_file.load(where)


def _same(ours: briefing.Selection, theirs: briefing.Selection) -> bool:
    fields = ("kept", "dropped", "reasons", "order", "overage", "kept_teammates", "panels")
    return (all(getattr(ours, f) == getattr(theirs, f) for f in fields)
            and briefing.render_selection(ours) == briefing.render_selection(theirs))


def measure(manifest: dict[str, Any]) -> dict[str, Any]:
    project = ProjectRef(slug=manifest["main_slug"], name="main-app", path=manifest["main_project"])
    now = time.time()
    with config.settings_override(manifest["settings"]):
        annotated = briefing.prepare(project.target, now, live=False, route=store.Route.OWN)
        given = daimon_brief.allocation(project, annotated, daimon_brief.handoff(project.target), now)
        if given is None:
            raise SystemExit(f"{project.path}: no briefing body")
        items = sum(len(v) for v in given.built.values() if isinstance(v, list))
        t0 = time.perf_counter()
        ours = brief_allocation.allocate(given.built, given.budget, now, **given.options)
        t1 = time.perf_counter()
        theirs = briefing.select(given.built, given.budget, now, **given.options)
        t2 = time.perf_counter()
        if not _same(ours, theirs):
            raise SystemExit(f"at {items} items our selection differs from daimon's")
        t3 = time.perf_counter()
        read = reader.load_briefing(project, now)
        t4 = time.perf_counter()
    split = [i.briefed for i in read.items()]
    return {
        "items": items,
        "kept": sum(len(v) for k, v in ours.kept.items() if k != "active_topic"),
        "daimon_select_s": round(t2 - t1, 3),
        "ours_s": round(t1 - t0, 3),
        "ratio": round((t1 - t0) / (t2 - t1), 4),
        "confirming_read_s": round(t4 - t3, 3),
        "split_known": None not in split,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="a directory outside the repo and $HOME for the stores")
    parser.add_argument("--sizes", type=int, nargs="+", default=[400, 1000, 5000])
    args = parser.parse_args(argv)
    rows = [measure(_store(args.out.resolve(), n)) for n in args.sizes]
    print(f"{'items':>6} {'kept':>5} {'daimon select':>14} {'ours':>8} {'ratio':>7} {'confirming read':>16}")
    for r in rows:
        unknown = "" if r["split_known"] else "  (split unknown)"
        print(f"{r['items']:>6} {r['kept']:>5} {r['daimon_select_s']:>13.3f}s {r['ours_s']:>7.3f}s "
              f"{r['ratio']:>7.4f} {r['confirming_read_s']:>15.3f}s{unknown}")
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
