"""How cost grows with the store: one run per size, our app beside daimon's CLI.

    python benchmarks/generate_store.py --out /tmp/c20k  --sessions 10   --events 20000
    python benchmarks/generate_store.py --out /tmp/c200k --sessions 100  --events 200000
    python benchmarks/generate_store.py --out /tmp/c2m   --sessions 1000 --events 2000000
    python benchmarks/generate_store.py --out /tmp/c5000 --rows 5000
    python benchmarks/bench_curve.py --store /tmp/c20k --store /tmp/c200k --store /tmp/c2m \\
        --store /tmp/c5000 --out benchmarks/results/curve.json
    python benchmarks/curve_chart.py benchmarks/results/curve.json     # the SVG and the text table

For each store, in one run (the load average recorded at its start and end):

* daimon's CLI: `daimon brief` (wall, peak RSS), `daimon recall QUERY`, and
  `daimon why` on the item our app worked on;
* our app, `bench_steps`'s child (`DaimonTUI` headless, Pilot): a first open
  (our cache emptied) and a later open (the kept fold of the first on disk):
  first paint, confirmation, item at rest (idle), verb preview, write and
  acknowledgement, peak memory of the app and its judging child added;
* a later open after `--append` rows were appended to the events ledger by
  daimon's own writer (`store.append_events`, as any session would): its
  confirmation, to say whether a later open's cost follows the bytes appended
  or the whole ledger;
* the events ledger read alone, in a fresh process as a later open starts
  (`FOLD_PROBE`): daimon's full `jsonl.read`, our kept fold read from its
  file, then `--append` more rows by daimon's writer and the kept fold read
  again in the same process (and how many rows the kept fold holds), which
  isolates the fold from the rest of an open;
* `bench_search`'s child: the first query and each further keystroke p95.

`--wait` bounds each daimon command, paint and confirmation; one that takes
longer is null with "timed out after N seconds" in `errors` (never a number).

Each store's result is one JSON object, added to `--out` (a list; a store run
again replaces its entry). Nothing is estimated: a step that failed is null,
with its error.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_briefing as bench
import bench_search
import bench_steps
import manifest as manifest_file

HERE = Path(__file__).resolve()

APPEND = """
import sys, uuid
from daimon_briefing import store
from daimon_briefing.surfaces import Writer
n, project = int(sys.argv[1]), sys.argv[2]
specs = [{"item_ref": store.corroboration_ref(f"r-bench{uuid.uuid4().hex[:8]}"), "status": "corroborated-by:bench",
          "kind": "corroboration", "source": "serializer"} for _ in range(n)]
sys.exit(0 if store.append_events(specs, project_dir=project, writer=Writer.EMITTER) else 3)
"""


# The events ledger's read alone, in a fresh process (as a later open of the app
# starts): daimon's own full read, then our kept fold (its file on disk, written
# by the opens before), then `n` rows appended by daimon's writer and the kept
# fold read again in the same process. Only our daimon_api seam swaps a daimon
# function (`kept_fold.install`), after daimon's own read was timed.
FOLD_PROBE = """
import json, os, sys, time
from pathlib import Path
from daimon_briefing import jsonl, store
from daimon_briefing.surfaces import Writer
path, n, project = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
out = {"ledger_bytes": path.stat().st_size}
t0 = time.perf_counter(); full = jsonl.read(path); out["daimon_read_s"] = time.perf_counter() - t0
out["ledger_rows"], out["daimon_health"] = len(full.rows), full.health.value
del full
from daimon_tui.store.judging import kept_fold, kept_fold_file
spans = kept_fold_file.load(os.path.abspath(path))
out["kept_file_bytes"] = spans.size if spans else None
out["kept_min_bytes"] = kept_fold.KEEP_MIN_BYTES
def timed(key):
    t0 = time.perf_counter()
    with kept_fold.active():
        got = kept_fold.read(path)
    out[key + "_s"], out[key + "_rows"] = time.perf_counter() - t0, len(got.rows)
timed("kept_fresh")
timed("kept_unchanged")
specs = [{"item_ref": store.corroboration_ref(f"r-probe{i:08x}"), "status": "corroborated-by:probe",
          "kind": "corroboration", "source": "serializer"} for i in range(n)]
before = path.stat().st_size
out["appended_ok"] = store.append_events(specs, project_dir=project, writer=Writer.EMITTER)
out["appended_rows"], out["appended_bytes"] = n, path.stat().st_size - before
timed("kept_after_append")
print(json.dumps(out))
"""


def _fold_probe(heavy: dict, rows: int, timeout: float) -> dict:
    events = _events_path(heavy)
    if events is None:
        raise RuntimeError("no events ledger")
    done = subprocess.run([sys.executable, "-c", FOLD_PROBE, str(events), str(rows), heavy["main_project"]],
                          env=manifest_file.child_env(heavy), cwd=heavy["main_project"], capture_output=True,
                          text=True, timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"fold probe rc {done.returncode}: {done.stderr[-1500:]}")
    return json.loads(lines[-1])


def _append(heavy: dict, rows: int) -> dict:
    """`rows` corroboration rows appended by daimon's writer; bytes appended."""
    events = _events_path(heavy)
    before = events.stat().st_size if events else 0
    done = subprocess.run([sys.executable, "-c", APPEND, str(rows), heavy["main_project"]],
                          env=manifest_file.child_env(heavy), cwd=heavy["main_project"], capture_output=True,
                          text=True, timeout=600)
    after = events.stat().st_size if events else 0
    return {"rows": rows, "bytes": after - before, "rc": done.returncode, "error": done.stderr[-500:] or None}


def _events_path(heavy: dict) -> Path | None:
    found = list(Path(heavy["settings"]["DAIMON_CHECKPOINT_DIR"]).glob(f"{heavy['main_slug']}/events.jsonl"))
    return found[0] if found else None


def _safe(what: str, call: Any) -> tuple[Any, str | None]:
    try:
        return call(), None
    except Exception as error:  # one failed step is a null with its error, never a made-up number
        return None, f"{what}: {type(error).__name__}: {str(error)[-400:]}"


def _search(heavy: dict, query: str) -> dict:
    env = manifest_file.child_env(heavy)
    done = subprocess.run([sys.executable, str(Path(bench_search.__file__)), "--child", "--query", query],
                          env=env, cwd=heavy["main_project"], capture_output=True, text=True, timeout=1800)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"search child rc {done.returncode}: {done.stderr[-1500:]}")
    got = json.loads(lines[-1])
    keys = sorted(got["keystroke_s"])
    return {"first_query_s": got["first_query_s"], "keystroke_p50_s": statistics.median(keys),
            "keystroke_p95_s": keys[min(len(keys) - 1, round(0.95 * (len(keys) - 1)))], "hits": got["hits"]}


def _save(path: Path, result: dict) -> None:
    """`result` into the list at `path`, replacing the same store's entry."""
    results = json.loads(path.read_text()) if path.is_file() else []
    results = [r for r in results if r.get("store") != result["store"]] + [result]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1) + "\n")


def measure(store_dir: Path, query: str, append_rows: int, wait: float, save: Any = None) -> dict:
    heavy = manifest_file.load(store_dir)
    events = _events_path(heavy)
    out: dict[str, Any] = {"store": str(store_dir), "shape": heavy["shape"], "errors": [],
                           "events_bytes_at_start": events.stat().st_size if events else None,
                           "load_start": round(os.getloadavg()[0], 2), "cores": os.cpu_count(), "wait_s": wait,
                           "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}

    def step(name: str, call: Any) -> Any:
        # What the steps before this one recorded, saved first: a run stopped
        # midway keeps every step it measured, marked incomplete.
        if save is not None:
            save(out | {"complete": False, "load_now": round(os.getloadavg()[0], 2),
                        "running": name, "running_since": time.strftime("%H:%M:%SZ", time.gmtime())})
        value, error = _safe(name, call)
        if error:
            out["errors"].append(error)
        print(f"  {name}: {'failed: ' + error if error else 'done'} (load {os.getloadavg()[0]:.2f}, "
              f"{time.strftime('%H:%M:%S', time.gmtime())} UTC)", file=sys.stderr, flush=True)
        return value

    brief = step("daimon brief", lambda: bench.daimon_cli(["brief"], heavy, timeout=wait))
    out["daimon_brief"] = {"wall_s": brief.wall, "rss_mb": brief.rss_mb} if brief else None
    recall = step("daimon recall", lambda: bench.daimon_cli(["recall", query], heavy, timeout=wait))
    out["daimon_recall_s"] = recall.wall if recall else None
    out["first_open"] = step("our first open", lambda: bench_steps._ours(store_dir, heavy, cold=True))
    out["later_open"] = step("our later open", lambda: bench_steps._ours(store_dir, heavy, cold=False))
    item = next((r.get("item") for r in (out["first_open"], out["later_open"]) if r and r.get("item")), None)
    why = step("daimon why", lambda: bench.daimon_cli(["why", item], heavy, timeout=wait)) if item else None
    out["daimon_why_s"] = why.wall if why else None
    out["appended"] = step("append", lambda: _append(heavy, append_rows))
    out["after_append_open"] = step("our open after the append",
                                    lambda: bench_steps._ours(store_dir, heavy, cold=False))
    out["fold_probe"] = step("events read alone (daimon's, our kept fold)",
                             lambda: _fold_probe(heavy, append_rows, wait))
    out["search"] = step("search", lambda: _search(heavy, query))
    out["load_end"] = round(os.getloadavg()[0], 2)
    out["complete"] = True
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--store", type=Path, action="append", required=True, help="repeatable, smallest first")
    parser.add_argument("--out", type=Path, required=True, help="JSON list of results (entries replaced by store)")
    parser.add_argument("--query", default="payment retry")
    parser.add_argument("--append", type=int, default=2000, help="rows appended before the last open")
    parser.add_argument("--wait", type=float, default=1800,
                        help="seconds to wait for one daimon command, a paint or a confirmation before it is "
                             "recorded as not measured (with this wait)")
    args = parser.parse_args(argv)
    os.environ["BENCH_OPEN_WAIT_S"] = str(args.wait)  # the app children's paint and confirmation waits
    for store_dir in args.store:
        print(f"{store_dir}", file=sys.stderr, flush=True)
        result = measure(store_dir.resolve(), args.query, args.append, args.wait,
                         save=lambda partial: _save(args.out, partial))
        _save(args.out, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
