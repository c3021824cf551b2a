"""Generate a heavy-year daimon store for the benchmarks, with daimon's own writers.

    python benchmarks/generate_store.py --out /tmp/daimon-heavy
    python benchmarks/generate_store.py --out /tmp/daimon-rows --rows 5000

The default shape is a year of heavy use: 40 projects; the main one with 100
retained sessions of about 40 items (a quarter verbatim with a verified quote,
carried and corroborated items, written session by session through
`capture.carry_forward` exactly as capture does) and an events.jsonl of about
200,000 rows (corroboration witnesses, resolutions, reopens, supersessions)
appended with `store.append_events` in large batches. `--rows N` instead makes
a small store whose latest checkpoint holds N items (the cursor benchmark).

`--sessions 1000 --events 2000000` (the cost curve's largest store) took 29
min on 2 shared cores at load 3-8 (peak 3.3 GB): 26 min for the 1,000
sessions, because each capture (`carry_forward`, the write gate) reads the
events ledger and the retained checkpoints again, so a session costs more
the more came before; 2.8 min for the 2,000,000 rows in 500,000-row batches.

Everything is written inside `daimon_briefing.testing.sandbox(OUT/daimon)`, so
the user's `~/.daimon` is never touched. `OUT/store.json` names the settings a
child process needs to read the store (see `manifest.py`). Keep OUT outside
the repository and outside $HOME (daimon's sandbox refuses both).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from daimon_briefing import capture, config, schema, store, testing
from daimon_briefing.surfaces import Writer

sys.path.insert(0, str(Path(__file__).resolve().parent))
import manifest as manifest_file

# The last main session is written "yesterday" relative to this fixed anchor, so
# two runs with one seed write the same checkpoints (event `ts` is wall clock in
# daimon and cannot be fixed).
ANCHOR = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

VERBS = ("Move", "Keep", "Split", "Cache", "Retry", "Pin", "Drop", "Batch", "Log", "Gate", "Shard", "Stream")
NOUNS = (
    "upload worker",
    "billing export",
    "session store",
    "auth token refresh",
    "search index",
    "nightly job",
    "webhook fan-out",
    "rate limiter",
    "feature flag",
    "schema migration",
    "thumbnail service",
    "audit trail",
    "config loader",
    "queue consumer",
    "metrics pipeline",
    "payment retry",
    "email digest",
    "cache warmer",
    "CSV importer",
    "permission check",
)
PLACES = (
    "src/upload/retry.py",
    "api/handlers.go",
    "web/app.tsx",
    "infra/terraform/main.tf",
    "jobs/nightly.py",
    "lib/cache.rs",
    "db/migrations",
    "cmd/server/main.go",
    "pkg/queue",
    "services/billing",
    "scripts/deploy.sh",
    "docs/runbook.md",
)
REASONS = (
    "the gateway times out at 60s",
    "the vendor bills per request",
    "we saw duplicate rows in prod",
    "the old path leaked file handles",
    "on-call asked for it",
    "the CI runner has 2 cores",
    "it halves the cold-start time",
    "the spec requires idempotency",
)
SECTIONS = {
    # kind: (section, key)
    f.kind: (f.section, f.key)
    for f in schema.ITEM_FIELDS
    if f.kind != "topic"
}
# Natives per session by kind, as fractions of the native count.
MIX = (
    ("question", 0.25),
    ("decision", 0.30),
    ("belief", 0.15),
    ("uncertainty", 0.20),
    ("contradiction", 0.10),
)


@contextlib.contextmanager
def event_clock(start: datetime, step: timedelta) -> Iterator[None]:
    """Stamp the event rows daimon writes meanwhile from `start`, `step` apart.

    daimon stamps events.jsonl rows with the wall clock (`testing.deterministic`
    does not reach them), so a generated year would otherwise be a minute of
    rows sharing a few seconds, which no real ledger looks like and which
    makes daimon's fold spend its time on same-second tie-breaks. The rows are
    still built and appended by daimon's own writer; only its clock is ours."""
    tick = [start - step]

    class Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
            tick[0] += step
            return tick[0] if tz is None else tick[0].astimezone(tz)

    with mock.patch.object(store, "datetime", Clock):
        yield


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Texts:
    """Deterministic, varied item texts (daimon dedups by salient terms, so
    every fresh text carries its own number and place)."""

    rng: random.Random
    counter: int = 0
    recurring: list[str] = field(default_factory=list)

    def fresh(self, kind: str) -> str:
        self.counter += 1
        verb, noun, place = self.rng.choice(VERBS), self.rng.choice(NOUNS), self.rng.choice(PLACES)
        n = self.counter
        if kind == "question":
            return f"Should we {verb.lower()} the {noun} in {place} (case {n})?"
        if kind == "uncertainty":
            return f"Whether the {noun} in {place} still needs step {n}"
        if kind == "contradiction":
            return f"The runbook says {n % 7 + 2} retries for the {noun} but {place} says {n % 5 + 3}"
        if kind == "belief":
            return f"The {noun} in {place} is owned by team {n}"
        return f"{verb} the {noun} in {place}, rollout {n}"

    def quote_of(self, text: str) -> str:
        words = text.rstrip("?").split()
        start = min(1, len(words) - 1)
        return " ".join(words[start : start + 6])


def _native(texts: Texts, kind: str, verbatim: bool, rng: random.Random, text: str | None = None) -> dict:
    text = text or texts.fresh(kind)
    item: dict[str, Any] = {"text": text}
    if verbatim:
        item.update(trust="verbatim", quote=texts.quote_of(text), quote_verified=True)
    elif rng.random() < 0.06:
        pass  # an untagged item: `? untagged` in the brief
    else:
        item["trust"] = "inferred"
    if kind == "decision" and rng.random() < 0.3:
        item["because"] = rng.choice(REASONS)
    if kind == "question" and rng.random() < 0.08:
        item["external_state"] = True
    return item


def _session(session_id: str, created: datetime, topic: str, natives: list[tuple[str, dict]]) -> dict:
    cp = testing.sample_checkpoint(topic=topic)
    cp["session_id"] = session_id
    cp["created"] = _stamp(created)
    cp["transcript_hash"] = hashlib.sha256(session_id.encode()).hexdigest()
    for section, key in SECTIONS.values():
        cp.setdefault(section, {})[key] = []
    for kind, item in natives:
        section, key = SECTIONS[kind]
        cp[section][key].append(item)
    return cp


def _natives(
    texts: Texts, rng: random.Random, count: int, recurring: list[tuple[str, str]]
) -> list[tuple[str, dict]]:
    """`count` native items, a quarter verbatim; `recurring` (kind, text) pairs
    are restated verbatim word for word (what makes capture corroborate)."""
    out: list[tuple[str, dict]] = [(kind, _native(texts, kind, True, rng, text)) for kind, text in recurring]
    for kind, share in MIX:
        for _ in range(max(1, round(count * share))):
            if len(out) >= count:
                break
            out.append((kind, _native(texts, kind, rng.random() < 0.12, rng)))
    return out


def _seed(project: Path, checkpoint: dict) -> None:
    """Carry the previous checkpoint forward, then write, as capture does."""
    carried = capture.carry_forward(checkpoint, str(project))
    testing.seed_checkpoint(project, carried, session_id=checkpoint["session_id"])


def _session_id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _write_project(
    project: Path,
    rng: random.Random,
    texts: Texts,
    *,
    sessions: int,
    natives: int,
    start: datetime,
    end: datetime,
    recurring_pool: list[tuple[str, str]],
    log: bool = False,
) -> list[str]:
    step = (end - start) / max(1, sessions - 1)
    ids: list[str] = []
    for n in range(sessions):
        created = start + step * n
        sid = _session_id(rng)
        # A window of recurring statements drifts through the year: consecutive
        # sessions restate the same few, so each restatement is a new witness.
        window = recurring_pool[(n // 5) % max(1, len(recurring_pool) - 3) :][:4]
        again = rng.sample(window, k=min(len(window), 2)) if window else []
        topic = f"{rng.choice(NOUNS).capitalize()} work, week {created.isocalendar().week}"
        with event_clock(created - timedelta(hours=1), timedelta(seconds=1)):
            if n:
                _close_some(project, rng, {text for _kind, text in recurring_pool})
            _seed(project, _session(sid, created, topic, _natives(texts, rng, natives, again)))
        ids.append(sid)
        if log and n % 100 == 99:
            print(f"  {project.name}: {n + 1}/{sessions} sessions", file=sys.stderr, flush=True)
    return ids


def _close_some(project: Path, rng: random.Random, keep: set[str]) -> None:
    """Between sessions a person resolves about half of what is still carried,
    so a session holds ~40 items rather than the carry cap (24 per kind). The
    recurring verbatim statements are never resolved: that would end their
    corroboration for good."""
    prev = store.read_latest_body(str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    if not isinstance(prev, dict):
        return
    carried_kinds = {key for _section, key, _type in schema.CARRIED_KINDS}
    specs = [
        {"item_ref": item["id"], "status": "resolved", "source": "ui", "note": "done"}
        for field_, item in schema.iter_items(prev)
        if field_.key in carried_kinds
        and item.get("id")
        and item.get("text") not in keep
        and rng.random() < 0.5
    ]
    if specs and not store.append_events(specs, project_dir=str(project), writer=Writer.HUMAN):
        raise RuntimeError("daimon refused the between-session resolutions")


def _item_ids(checkpoint_dir: Path, session_ids: list[str]) -> tuple[list[str], set[str]]:
    """Every item id the project's retained sessions hold, and those of the latest."""
    seen: dict[str, None] = {}
    latest: set[str] = set()
    for n, sid in enumerate(session_ids):
        path = checkpoint_dir / f"{sid}.json"
        try:
            cp = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for _field, item in schema.iter_items(cp):
            if item.get("id"):
                seen[item["id"]] = None
                if n == len(session_ids) - 1:
                    latest.add(item["id"])
    return list(seen), latest


def _bulk_specs(
    rng: random.Random, total: int, ids: list[str], latest: set[str], session_ids: list[str]
) -> list[dict]:
    """`total` event specs: a year of corroboration witnesses and human verdicts.

    Verdict rows on a bare id always use a known status (`resolved`,
    `reopened`, `superseded-by:`): any other status would hide the item. Items of
    the latest checkpoint are resolved-then-reopened only rarely (that demotes
    corroboration for good), so the brief keeps its badges."""
    old = [i for i in ids if i not in latest]
    # Items of sessions garbage-collected long ago: ids of the right shape that
    # no retained checkpoint holds any more, as a year of history leaves behind.
    gone = [f"{rng.choice('orsuc')}-{rng.getrandbits(48):012x}" for _ in range(max(1000, total // 25))]
    observers = session_ids + [_session_id(rng) for _ in range(400)]
    latest_list = sorted(latest)
    specs: list[dict] = []
    while len(specs) < total:
        roll = rng.random()
        if roll < 0.60:
            target = rng.choice(ids if rng.random() < 0.02 else gone)
            specs.append(
                {
                    "item_ref": store.corroboration_ref(target),
                    "status": f"corroborated-by:{rng.choice(observers)}",
                    "kind": "corroboration",
                    "source": "serializer",
                }
            )
        elif roll < 0.85:
            target = rng.choice(gone if rng.random() < 0.7 or not old else old)
            specs.append(
                {
                    "item_ref": target,
                    "status": "resolved",
                    "source": "ui",
                    "note": f"done in {rng.choice(PLACES)}",
                }
            )
            if rng.random() < 0.35:
                specs.append(
                    {
                        "item_ref": target,
                        "status": "reopened",
                        "source": "ui",
                        "note": "came back after review",
                    }
                )
        elif roll < 0.95:
            target = rng.choice(gone)
            specs.append({"item_ref": target, "status": f"superseded-by:{rng.choice(gone)}", "source": "ui"})
        else:
            target = rng.choice(old or gone)
            specs.append({"item_ref": target, "status": "reopened", "source": "ui"})
    # A handful of verdicts on what the latest briefing holds: resolved items the
    # brief withholds, and one resolve/reopen flip.
    for target in rng.sample(latest_list, k=min(4, len(latest_list))):
        specs.append({"item_ref": target, "status": "resolved", "source": "ui", "note": "shipped"})
    return specs[: total + 4]


def _append(project: Path, specs: list[dict], batch: int, log: bool) -> tuple[int, list[float]]:
    """Append through `store.append_events`, machine rows as the emitter and
    human verdicts as a person, one call per batch of each kind.

    Each call is daimon's whole write path: every row built and admitted by
    its own builder, the ledger's health judged under its lock (a parse of the
    whole file so far), then one write. So the batch is large: at 50,000 rows
    a 2,000,000-row ledger was judged 80 times (~40 minutes); at 500,000 it is
    judged 8 times and the rows are built at ~10,000 a second."""
    timings: list[float] = []
    written = 0
    for start in range(0, len(specs), batch):
        chunk = specs[start : start + batch]
        machine = [s for s in chunk if s["source"] == "serializer"]
        human = [s for s in chunk if s["source"] != "serializer"]
        t0 = time.perf_counter()
        for rows, writer in ((machine, Writer.EMITTER), (human, Writer.HUMAN)):
            if rows and not store.append_events(rows, project_dir=str(project), writer=writer):
                raise RuntimeError(f"daimon refused {len(rows)} event rows ({writer.name})")
            written += len(rows)
        timings.append(time.perf_counter() - t0)
        if log:
            print(f"  events {written:>7}/{len(specs)}  batch {timings[-1]:.2f}s", file=sys.stderr)
    return written, timings


def _count_rows(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def generate(
    out: Path,
    *,
    projects: int = 40,
    sessions: int = 100,
    items: int = 40,
    events: int = 200_000,
    seed: int = 1,
    rows: int | None = None,
    batch: int = 500_000,
    log: bool = True,
) -> dict[str, Any]:
    """Write the store under `out` and return its manifest (also written to `out/store.json`)."""
    out = out.resolve()
    if (out / "daimon").exists():
        raise SystemExit(f"{out / 'daimon'} exists: choose an empty --out")
    out.mkdir(parents=True, exist_ok=True)
    (out / "home").mkdir(exist_ok=True)
    env_file = out / "empty.env"
    env_file.write_text("", encoding="utf-8")
    rng = random.Random(seed)
    texts = Texts(rng)
    if rows is not None:
        projects, sessions = 1, 2
    root = out / "daimon"
    main = root / "projects" / "main-app"
    others = [
        root / "projects" / f"{rng.choice(NOUNS).replace(' ', '-')}-{n:02d}" for n in range(1, projects)
    ]
    other_sessions = [rng.randint(2, 5) for _ in others]
    settings = {
        "DAIMON_PROJECT_DIR": str(main),
        "DAIMON_AUTHOR": "bench",
        "DAIMON_PLAIN": "1",
        # Keep every session file this run writes: the default (100) is global
        # across projects, and the main project must retain all of its own.
        "DAIMON_CHECKPOINT_KEEP": str(sessions + sum(other_sessions) + 10),
    }
    started = time.perf_counter()
    phases: dict[str, float] = {}
    with testing.sandbox(root, settings=settings) as sb:
        for path in (main, *others):
            path.mkdir(parents=True)
        pool = [
            (kind, texts.fresh(kind)) for kind in ("question", "decision", "uncertainty") for _ in range(14)
        ]
        t0 = time.perf_counter()
        for n, (project, count) in enumerate(zip(others, other_sessions, strict=True)):
            end = ANCHOR - timedelta(days=rng.uniform(1, 300))
            _write_project(
                project,
                rng,
                texts,
                sessions=count,
                natives=rng.randint(8, 20),
                start=end - timedelta(days=count * 3),
                end=end,
                recurring_pool=pool[:6],
            )
            verdicts = [
                {"item_ref": f"o-{rng.getrandbits(48):012x}", "status": "resolved", "source": "ui"}
                for _ in range(rng.randint(5, 40))
            ]
            _append(project, verdicts, batch, log=False)
            if log and n % 10 == 9:
                print(f"  other projects {n + 1}/{len(others)}", file=sys.stderr)
        phases["other projects"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        natives = round(items * 0.55) if rows is None else rows
        if rows is None:
            session_ids = _write_project(
                main,
                rng,
                texts,
                sessions=sessions,
                natives=natives,
                start=ANCHOR - timedelta(days=sessions * 3.5),
                end=ANCHOR,
                recurring_pool=pool,
                log=log,
            )
        else:
            session_ids = _write_project(
                main,
                rng,
                texts,
                sessions=1,
                natives=30,
                start=ANCHOR - timedelta(days=2),
                end=ANCHOR - timedelta(days=2),
                recurring_pool=pool,
            )
            session_ids += _write_project(
                main, rng, texts, sessions=1, natives=rows, start=ANCHOR, end=ANCHOR, recurring_pool=pool
            )
        phases["main sessions"] = time.perf_counter() - t0
        if log:
            print(f"  main sessions written in {phases['main sessions']:.1f}s", file=sys.stderr)

        ids, latest = _item_ids(sb.checkpoint_dir, session_ids)
        events_path = store._events_path(store._resolved(str(main)))
        already = _count_rows(events_path) if events_path and events_path.exists() else 0
        wanted = (events if rows is None else min(events, 2_000)) - already
        t0 = time.perf_counter()
        specs = _bulk_specs(rng, max(0, wanted), ids, latest, session_ids)
        first = ANCHOR - timedelta(days=sessions * 3.5)
        with event_clock(first, (ANCHOR + timedelta(hours=1) - first) / max(1, len(specs))):
            _written, timings = _append(main, specs, batch, log)
        phases["events"] = time.perf_counter() - t0
        mapping = dict(config.active_settings() or {})
        slug = store.project_slug(str(main))

    item_counts = []
    for sid in session_ids:
        cp = json.loads((sb.checkpoint_dir / f"{sid}.json").read_text(encoding="utf-8"))
        item_counts.append(sum(1 for _ in schema.iter_items(cp)) - 1)  # minus the topic
    verbatim = sum(
        1
        for sid in session_ids
        for _field, item in schema.iter_items(
            json.loads((sb.checkpoint_dir / f"{sid}.json").read_text(encoding="utf-8"))
        )
        if item.get("trust") == "verbatim"
    )
    main_events = _count_rows(events_path) if events_path else 0
    result = {
        "root": str(root),
        "home": str(out / "home"),
        "env_file": str(env_file),
        "main_project": str(main),
        "main_slug": slug,
        "projects": [str(main), *(str(p) for p in others)],
        "settings": mapping,
        "shape": {
            "projects": projects,
            "main_sessions": len(session_ids),
            "items_per_session_mean": round(sum(item_counts) / max(1, len(item_counts)), 1),
            "latest_items": item_counts[-1] if item_counts else 0,
            "verbatim_share": round(verbatim / max(1, sum(item_counts)), 3),
            "main_events_rows": main_events,
            "events_bytes": events_path.stat().st_size if events_path else 0,
            "seed": seed,
            "rows_mode": rows,
        },
        "timings_s": {k: round(v, 2) for k, v in phases.items()}
        | {
            "total": round(time.perf_counter() - started, 2),
            "append_batch_max": round(max(timings, default=0.0), 3),
            "append_batch_mean": round(sum(timings) / max(1, len(timings)), 3),
        },
    }
    manifest_file.write(out, result)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    parser.add_argument("--out", type=Path, required=True, help="empty directory outside the repo and $HOME")
    parser.add_argument("--projects", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=100, help="retained sessions of the main project")
    parser.add_argument("--items", type=int, default=40, help="about this many items per session")
    parser.add_argument("--events", type=int, default=200_000, help="events.jsonl rows of the main project")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rows",
        type=int,
        default=None,
        help="instead: one project whose latest checkpoint holds this many items",
    )
    parser.add_argument("--batch", type=int, default=500_000,
                        help="event rows per append_events call (each call judges the whole ledger once)")
    args = parser.parse_args(argv)
    result = generate(
        args.out,
        projects=args.projects,
        sessions=args.sessions,
        items=args.items,
        events=args.events,
        seed=args.seed,
        rows=args.rows,
        batch=args.batch,
    )
    print(
        json.dumps(
            {
                "manifest": str(args.out.resolve() / manifest_file.MANIFEST),
                "shape": result["shape"],
                "timings_s": result["timings_s"],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
