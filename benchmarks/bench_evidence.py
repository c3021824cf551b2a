"""The transcript excerpt on screen after the cursor rests, on the heavy store
with a year of transcripts.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy
    python benchmarks/bench_evidence.py --store /tmp/daimon-heavy

First (once per store) it writes a year of host transcripts where daimon's
locator looks for them (Claude Code JSONL under the store's claude projects
dir): one per retained session of the main project, holding the quote of
every verbatim item that session stated among `--turns` turns of filler,
plus filler sessions up to `--days` files in all (other projects' folders).
Then our app runs headless in a child (Pilot): after daimon's confirmation
and with the app idle, for `--items` items that carry a quote, `j` to the
item and the time until the evidence panel has painted that item's excerpt
(`EvidencePanel.painted_at`). Reported from the key and from the rest
(the moment the app decides the cursor rests, `DETAIL_REST_S` after
the last move, and the pane starts filling: `EvidencePanel.followed_at`), p50 / p95 /
max. The first item is read cold; while the cursor rests on an item the
judging child reads ahead the other quoted items' transcripts (one per
0.3 s), as it would while a person reads, so later items are mostly kept.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_briefing as bench
import manifest as manifest_file

HERE = Path(__file__).resolve()
WORDS = ("retry", "upload", "bucket", "gateway", "worker", "nightly", "prefix", "backoff", "queue", "token",
         "cache", "schema", "index", "migration", "flag", "rollout", "dashboard", "latency", "budget", "ceiling",
         "test", "profile", "thread", "pool")


def _filler(rng: random.Random, chars: int) -> str:
    out: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(WORDS)
        out.append(word)
        size += len(word) + 1
    return " ".join(out) + "."


def _write(path: Path, sid: str, quotes: list[str], turns: int, end: datetime, rng: random.Random) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    slots = {rng.randrange(turns): q for q in quotes} if quotes else {}
    for i, q in enumerate(quotes):  # two quotes never share a slot
        if q not in slots.values():
            slots[(max(slots) + 1 + i) % turns if slots else i] = q
    start = end - timedelta(seconds=30 * turns)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(turns):
            role = "user" if i % 2 == 0 else "assistant"
            text = _filler(rng, rng.randint(200, 4000))
            if i in slots:
                role, text = "user", f"{_filler(rng, 120)} {slots[i]} {_filler(rng, 120)}"
            content: Any = text if role == "user" else [{"type": "text", "text": text}]
            handle.write(json.dumps({
                "type": role, "uuid": str(uuid.UUID(int=rng.getrandbits(128))), "sessionId": sid,
                "timestamp": (start + timedelta(seconds=30 * i)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "message": {"role": role, "content": content},
            }) + "\n")
    return path.stat().st_size


def write_transcripts(heavy: dict, days: int, turns: int, seed: int) -> dict:
    """A year of transcripts; skipped when the store already holds them."""
    root = Path(heavy["settings"]["DAIMON_CLAUDE_PROJECTS_DIR"])
    done = root / ".bench-evidence.json"
    if done.is_file():
        return json.loads(done.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    checkpoints = Path(heavy["settings"]["DAIMON_CHECKPOINT_DIR"])
    folder = root / ("-" + heavy["main_slug"].strip("-"))
    sizes: list[int] = []
    sessions = 0
    quotes_written = 0
    t0 = time.perf_counter()
    for path in sorted(checkpoints.glob("*.json")):
        try:
            cp = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if not isinstance(cp, dict) or cp.get("project_slug") != heavy["main_slug"]:
            continue
        sid = path.stem
        quotes = []
        for section in (cp.get("working_context") or {}, cp.get("epistemic_snapshot") or {}):
            for value in section.values():
                for item in value if isinstance(value, list) else ():
                    if isinstance(item, dict) and item.get("origin_session") == sid and item.get("quote"):
                        quotes.append(str(item["quote"]))
        try:
            end = datetime.strptime(str(cp.get("created")), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except ValueError:
            end = datetime.now(UTC)
        sizes.append(_write(folder / f"{sid}.jsonl", sid, quotes, turns, end, rng))
        sessions += 1
        quotes_written += len(quotes)
    for n in range(max(0, days - sessions)):
        sid = f"filler-{n:04d}"
        other = root / f"-projects-other-{n % 39:02d}"
        sizes.append(_write(other / f"{sid}.jsonl", sid, [], turns, datetime.now(UTC) - timedelta(days=n), rng))
    shape = {"files": len(sizes), "main_sessions": sessions, "quotes": quotes_written, "turns": turns,
             "mb_total": round(sum(sizes) / 1e6, 1), "mb_median": round(statistics.median(sizes) / 1e6, 2),
             "written_s": round(time.perf_counter() - t0, 1)}
    done.write_text(json.dumps(shape), encoding="utf-8")
    return shape


def child_main(items: int) -> int:
    factory = bench._app_factory()
    assert factory is not None
    make, label = factory
    result: dict[str, Any] = {"label": label}

    async def scenario() -> None:
        from daimon_tui.store.child import judge_service
        from daimon_tui.ui.widgets.evidence import EvidencePanel

        answered: list[float] = []
        asked_at: list[float] = []
        plain_read = judge_service.read

        async def timed_read(what: str, *args: Any) -> Any:
            t0 = time.perf_counter()
            if what == "evidence" and args[-2] == "item":
                asked_at.append(t0)
            out = await plain_read(what, *args)
            if what == "evidence" and args[-2] == "item":
                answered.append(time.perf_counter() - t0)
            return out

        judge_service.read = timed_read  # type: ignore[assignment]
        app = make()
        async with app.run_test(headless=True, size=bench.TERMINAL) as pilot:
            ok = await bench._wait(pilot, lambda: bench._briefing_screen(app) is not None, 300)
            screen = bench._briefing_screen(app)
            ok = ok and await bench._wait(pilot, lambda: not bench._provisional(app, screen), 600)
            if not ok:
                result["error"] = "no confirmed briefing"
                return
            busy = lambda: any(w.is_running for w in app.workers  # noqa: E731
                               if w.group not in {"verb", "briefing-live", "team-live"})
            await bench._wait(pilot, lambda: not busy(), 300)
            panel = screen.query_one(EvidencePanel)
            from_key: list[float] = []
            asked: list[float] = []
            from_rest: list[float] = []
            states: dict[str, int] = {}
            for _ in range(len(screen.rows) * 2):
                if len(from_key) >= items:
                    break
                t0 = time.perf_counter()
                await pilot.press("j")
                item = screen.current_item()
                if item is None or not item.quote or not item.id:
                    await bench._wait(pilot, lambda: not busy(), 60)
                    continue
                painted = await bench._wait(
                    pilot, lambda it=item: panel.item is it and panel.painted_at is not None, 60)
                if not painted:
                    result.setdefault("timeouts", 0)
                    result["timeouts"] += 1
                    continue
                from_key.append(panel.painted_at - t0)  # type: ignore[operator]
                from_rest.append(panel.painted_at - panel.followed_at)  # type: ignore[operator]
                asked.append(asked_at[-1] - panel.followed_at if asked_at else -1.0)  # type: ignore[operator]
                await bench._wait(pilot, lambda: not busy(), 300)
                kept = panel.kept.get(item.id)
                excerpt = kept[1].item if kept and kept[1] is not None else None
                state = f"{excerpt.locator}/{excerpt.support}" if excerpt else "none"
                states[state] = states.get(state, 0) + 1
                await bench._wait(pilot, lambda: not busy(), 300)
            result["from_key_s"] = from_key
            result["from_rest_s"] = from_rest
            result["states"] = states
            result["child_answer_s"] = answered
            result["asked_after_key_s"] = asked

    asyncio.run(scenario())
    print(json.dumps(result))
    return 0


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def parent_main(args: argparse.Namespace) -> int:
    heavy = manifest_file.load(args.store)
    shape = write_transcripts(heavy, args.days, args.turns, args.seed)
    print(f"transcripts: {json.dumps(shape)}")
    env = manifest_file.child_env(heavy)
    run = bench.run_measured([sys.executable, str(HERE), "--child", "--store", str(args.store),
                              "--items", str(args.items)], env, heavy["main_project"], timeout=1800)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        print(f"app run failed (rc {run.returncode}):\n{run.stderr[-3000:]}")
        return 1
    result = json.loads(lines[-1])
    if "error" in result:
        print(result["error"])
        return 1
    from_key = result["from_key_s"]
    after_rest = result["from_rest_s"]
    print(f"first item (nothing read ahead): {after_rest[0] * 1000:.0f} ms after the rest" if after_rest else "")
    print(f"items measured: {len(from_key)}; excerpt states: {result['states']}; timeouts: {result.get('timeouts', 0)}")
    for name, values in (("from the key", from_key), ("after the rest", after_rest)):
        print(f"excerpt on screen {name}: p50 {_pct(values, 0.5) * 1000:.0f} ms, "
              f"p95 {_pct(values, 0.95) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms")
    child = result.get("child_answer_s") or [0.0]
    print(f"of which the judging child's answer (round trip): p50 {_pct(child, 0.5) * 1000:.0f} ms, "
          f"p95 {_pct(child, 0.95) * 1000:.0f} ms")
    asked = result.get("asked_after_key_s") or [0.0]
    print(f"the read is asked after the rest: p50 {_pct(asked, 0.5) * 1000:.0f} ms, "
          f"p95 {_pct(asked, 0.95) * 1000:.0f} ms")
    print(f"target: ≤ 100 ms after the rest: {'pass' if _pct(after_rest, 0.95) <= 0.1 else 'FAIL'} (p95)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--store", type=Path, required=True, help="a store made by generate_store.py")
    parser.add_argument("--items", type=int, default=20, help="quoted items to visit")
    parser.add_argument("--days", type=int, default=365, help="transcript files in all (a year of sessions)")
    parser.add_argument("--turns", type=int, default=300, help="turns per transcript")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args.items)
    return parent_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
