"""Health's kept numbers: each retained session's numbers as it stood,
computed once and kept in our cache, keyed by what its as-of read
(`asof._build`) depends on, and checked like the kept fold:

- its moment, worked out again each run from the same inputs `asof.resolve_when` reads
  (what the events ledger says of it kept with the ledger's stat key: `_moment_rows`);
- the bucket's ledgers: a ledger that only grew (its kept bytes hash the
  same) keeps the numbers of every session its new rows come after (the copy
  cuts rows stamped after the moment); a new forget row, a row with no time,
  or any other change keeps nothing (a forget row is copied whatever its time);
  other buckets' ledgers matter only by their forget rows;
- the bytes of each session held then: its file (and when it was last
  changed), its receipt, the bytes a retained pointer keeps of it;
- everything else (the bucket's other files, the team dir and its git refs,
  daimon's settings, daimon's version, this code): any change keeps nothing.

Also kept: the history listing Health charts from (its rows and notes),
keyed by the stat of every file it reads (`_listing_key`). The now point
and the failing receipts are never kept: they are judged today (daimon's
stale mark is a span of time from now). A cache that cannot be read or
written is only a slower read."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from daimon_tui.models import Diagnostic
from daimon_tui.store import own_files, paths
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.mode import installed_version
from daimon_tui.store.daimon_api.public import config
from daimon_tui.store.read import asof

FORMAT = 1
_BLOCK = 1 << 20


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _file_sha(path: Path, limit: int | None = None) -> str | None:
    """sha256 of the file's bytes (its first `limit` bytes); None when it cannot be read whole."""
    sha, left = hashlib.sha256(), limit
    try:
        with own_files.open_regular(path) as handle:
            while left is None or left > 0:
                block = handle.read(_BLOCK if left is None else min(_BLOCK, left))
                if not block:
                    break
                sha.update(block)
                left = None if left is None else left - len(block)
    except OSError:
        return None
    return None if left else sha.hexdigest()


def _stat(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _team_files() -> list[Path]:
    """The team dir's files an as-of copy may read: the clones and their git refs (not git's objects)."""
    team = asof.team_dir()
    if not team.is_dir():
        return []
    return sorted(p for p in team.rglob("*") if p.is_file() and "objects" not in p.relative_to(team).parts)


def _world(bucket: Path, sources: Iterable[Path]) -> str:
    """Everything a session's numbers depend on but its ledgers and its sessions' bytes."""
    others = sorted(p for p in bucket.iterdir() if p.is_file() and p.suffix != ".jsonl"
                    and not p.name.endswith(".lock") and not daimon_reading.is_pointer_name(p.name))
    code = [_file_sha(Path(p)) for p in sources]
    settings = {k: v for k, v in os.environ.items() if k.startswith("DAIMON_")}
    try:
        settings.update({f"file:{k}": str(v) for k, v in daimon_reading.settings_file_values().items()})
    except Exception:  # safe mode: no as-of read runs, nothing is kept
        settings["file"] = "unreadable"
    return _digest({"format": FORMAT, "daimon": installed_version(), "code": code, "settings": settings,
                    "root": str(bucket.parent), "bucket": [(p.name, _stat(p)) for p in others],
                    "team": [(str(p), _stat(p)) for p in _team_files()]})


def _ledgers(root: Path, slug: str) -> dict[str, str]:
    """path -> "bucket" (every row counts) or "forgets" (another bucket's: only its forget rows)."""
    out = {str(p): "bucket" for p in sorted((root / slug).glob("*.jsonl"))}
    for other in sorted(p for p in root.iterdir() if p.is_dir() and p.name != slug):
        if (other / "events.jsonl").is_file():
            out[str(other / "events.jsonl")] = "forgets"
    return out


def _appended_since(path: Path, kept: dict, kind: str) -> str | None:
    """The earliest time among the rows appended to `path` since `kept`
    ("" when none counts); None when nothing kept can stand (not only appended,
    a forget row, a row with no time)."""
    size = kept.get("size", -1)
    try:
        if path.stat().st_size < size or _file_sha(path, size) != kept.get("sha"):
            return None
        with own_files.open_regular(path) as handle:
            handle.seek(size)
            tail = handle.read()
    except OSError:
        return None
    earliest = ""
    for raw in tail.decode("utf-8", errors="surrogateescape").splitlines():
        line = raw.strip()
        if not line:
            continue
        if asof.is_forget_row(line):
            return None
        if kind == "forgets":
            continue
        ts = asof.row_time(line)
        if ts is None:
            return None
        earliest = min(earliest, ts) if earliest else ts
    return earliest


Listed = tuple[tuple[tuple[str, str | None], ...], tuple[Diagnostic, ...]]  # (session id, created) rows, notes


def _listing_key(root: Path, bucket: Path, world: str, ledgers: dict[str, dict]) -> str:
    """What the history listing reads, by stat (ctime included: a write moves
    it): every file of the checkpoint dir (each project's session files and
    receipts) and of the bucket (its pointers), the ledgers, daimon's keys;
    and `world` (daimon's version and settings, this code)."""

    def files(folder: Path) -> list:
        try:
            return [(p.name, _stat(p)) for p in sorted(folder.iterdir()) if p.is_file()]
        except OSError:
            return []

    return _digest({"world": world, "ledgers": {name: held.get("stat") for name, held in ledgers.items()},
                    "root": files(root), "bucket": files(bucket), "keys": files(Path(config.keys_dir()))})


def _diagnostic(held: object) -> Diagnostic | None:
    if not isinstance(held, dict) or held.get("level") not in ("info", "warning", "error"):
        return None
    source, message, repair = held.get("source"), held.get("message"), held.get("repair")
    if not isinstance(source, str) or not isinstance(message, str) or not isinstance(repair, str | None):
        return None
    return Diagnostic(level=held["level"], source=source, message=message, repair=repair)


def _listed(held: object, key: str | None) -> Listed | None:
    """The kept listing when it was kept under `key`, else None."""
    if key is None or not isinstance(held, dict) or held.get("key") != key:
        return None
    rows, notes = held.get("rows"), held.get("notes")
    if not isinstance(rows, list) or not isinstance(notes, list):
        return None
    if not all(isinstance(r, list) and len(r) == 2 and isinstance(r[0], str) and isinstance(r[1], str | None)
               for r in rows):
        return None
    diagnostics = [_diagnostic(n) for n in notes]
    if any(d is None for d in diagnostics):
        return None
    return tuple((sid, made) for sid, made in rows), tuple(d for d in diagnostics if d is not None)


class KeptNumbers:
    """The kept numbers of one project's sessions: `get` a session's when its
    key still holds, `put` what was read, `save` once at the end; `listing`,
    the history listing when it still holds (`keep_listing` what was read)."""

    def __init__(self, project_slug: str, keys: dict[str, str], points: dict[str, dict],
                 state: dict, target: Path | None, moments: dict[str, str] | None = None,
                 listing_key: str | None = None, listing: Listed | None = None) -> None:
        self.slug = project_slug
        self.moments = moments or {}  # session id -> its moment (`asof.resolve_when`'s), worked out once
        self.keys = keys  # session id -> what its numbers depend on now
        self.points = points
        self.state = state
        self.target = target
        self.listing_key = listing_key  # what the listing depends on now (None: nothing is kept)
        self.listing = listing

    def keep_listing(self, listing: Listed) -> None:
        if self.listing_key is not None:
            rows, notes = listing
            self.state["listing"] = {"key": self.listing_key, "rows": [list(r) for r in rows],
                                     "notes": [n.json_tree() for n in notes]}

    def get(self, session_id: str) -> dict[str, int] | None:
        point = self.points.get(session_id)
        key = self.keys.get(session_id)
        if point is None or key is None or point.get("key") != key:
            return None
        counts = point.get("counts")
        return dict(counts) if isinstance(counts, dict) else None

    def put(self, session_id: str, counts: dict[str, int]) -> None:
        key = self.keys.get(session_id)
        if key is not None:
            self.points[session_id] = {"key": key, "counts": dict(counts)}

    def save(self) -> None:
        if self.target is not None:  # only the sessions still charted
            points = {sid: p for sid, p in self.points.items() if sid in self.keys}
            own_files.write_private_json(self.target, {**self.state, "points": points}, prefix=".health-")


def _moment_rows(bucket: Path, kept: object) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...], dict]:
    """What the events ledger says of each session's moment: its deciding
    witness rows (`asof.deciding_rows`) and the forget times, with what is
    kept of them. Kept with the ledger's stat key (daimon's own memo key,
    ctime included: a write moves it), so a later run reads no row of the
    ledger while it stands; read whole again once it moved."""
    stat = _stat(bucket / "events.jsonl")  # before the read: a write meanwhile moves it, and this is read again
    if isinstance(kept, dict) and stat is not None and kept.get("stat") == stat:
        own, forgets = kept.get("own"), kept.get("forgets")
        if (isinstance(own, dict) and isinstance(forgets, list) and all(isinstance(t, str) for t in forgets)
                and all(isinstance(r, list) and all(isinstance(t, str) for t in r) for r in own.values())):
            return {sid: tuple(rows) for sid, rows in own.items()}, tuple(forgets), kept
    own = {sid: asof.deciding_rows(rows) for sid, rows in asof.session_rows(bucket).items()}
    forgets = asof.forget_times(bucket)
    return own, forgets, {"stat": stat, "own": {sid: list(rows) for sid, rows in own.items()},
                          "forgets": list(forgets)}


def _cutoffs_and_sessions(root: Path, slug: str, created: dict[str, str | None],
                          own_rows: dict[str, tuple[str, ...]], rewrites: tuple[str, ...]) -> tuple[dict, dict]:
    """Each charted session's moment (as `asof.resolve_when` works it out from
    `own_rows` and `rewrites`: `_moment_rows`), and each of the project's
    session files' state: (when written, bytes, receipt, a pointer's bytes, mtime)."""
    bucket = root / slug
    pointers: dict[str, str | None] = {}
    for path in sorted(bucket.glob("*.json")):
        if daimon_reading.is_pointer_name(path.name):
            try:
                sid = json.loads(path.read_bytes()).get("session_id")
            except (OSError, ValueError, AttributeError):
                continue
            if isinstance(sid, str):
                pointers.setdefault(sid, _file_sha(path))
    sessions: dict[str, list] = {}
    for path in daimon_reading.session_files(root):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(raw, dict) or raw.get("project_slug") != slug or not isinstance(raw.get("created"), str):
            continue
        written = asof.written_at(path, raw["created"], own_rows.get(path.stem, ()), rewrites)
        stat = _stat(path)
        sessions[path.stem] = [written, _file_sha(path), _file_sha(path.with_suffix(".receipt")),
                               pointers.get(path.stem), stat[1] if stat else None]
    cutoffs = {}
    for sid, made in created.items():
        path = paths.contained(root, sid, ".json")
        if isinstance(made, str) and path is not None:
            cutoffs[sid] = asof.written_at(path, made, own_rows.get(sid, ()), rewrites)
    return cutoffs, sessions


def kept_numbers(project_slug: str, created: dict[str, str | None], sources: Iterable[Path]) -> KeptNumbers:
    """The kept numbers of the charted sessions (`created`: session id ->
    its created stamp), with each session's key worked out now. `sources`:
    the code the numbers come from (a change of it keeps nothing)."""
    root = paths.checkpoint_root()
    bucket = root / project_slug
    target = own_files.cache_dir() / "health" / f"{_digest([str(root), project_slug])[:24]}.json"
    if not bucket.is_dir():
        return KeptNumbers(project_slug, {}, {}, {}, None)
    try:
        kept = json.loads(own_files.read_regular(target))
        kept = kept if isinstance(kept, dict) and kept.get("format") == FORMAT else {}
    except (OSError, ValueError):
        kept = {}
    world = _world(bucket, sources)
    points = kept.get("points") if kept.get("world") == world and isinstance(kept.get("points"), dict) else {}
    ledgers = _ledgers(root, project_slug)
    before = kept.get("ledgers") if isinstance(kept.get("ledgers"), dict) else {}
    now_ledgers: dict[str, dict] = {}
    earliest: str | None = ""  # the earliest appended row that counts; None: nothing kept stands
    if set(before) != set(ledgers):
        earliest = None
    for name, kind in ledgers.items():
        path, old = Path(name), before.get(name)
        stat = _stat(path)
        if isinstance(old, dict) and stat is not None and old.get("stat") == stat:
            now_ledgers[name] = old
            continue
        now_ledgers[name] = {"stat": stat, "size": stat[0] if stat else -1, "sha": _file_sha(path)}
        if earliest is not None:
            since = _appended_since(path, old, kind) if isinstance(old, dict) else None
            earliest = None if since is None else (min(earliest, since) if earliest and since else earliest or since)
    own_rows, rewrites, moment_rows = _moment_rows(bucket, kept.get("moments") if kept.get("world") == world else None)
    cutoffs, sessions = _cutoffs_and_sessions(root, project_slug, created, own_rows, rewrites)
    keys = {}
    for sid, cutoff in cutoffs.items():
        held = sorted((s, state) for s, state in sessions.items() if state[0] <= cutoff)
        keys[sid] = _digest([cutoff, held])
    if earliest is None:
        points = {}
    elif earliest:  # a session at or after the first appended row would now see it
        points = {sid: p for sid, p in points.items() if sid in cutoffs and cutoffs[sid] < earliest}
    state = {"format": FORMAT, "world": world, "ledgers": now_ledgers, "moments": moment_rows}
    listing_key = _listing_key(root, bucket, world, now_ledgers)
    listing = _listed(kept.get("listing"), listing_key)
    if listing is not None:
        state["listing"] = kept["listing"]
    return KeptNumbers(project_slug, keys, dict(points), state, target, cutoffs, listing_key, listing)
