"""The store as it stood at a moment: a read-only copy cut at that time.

`as_of(project, when)` copies, into a temporary directory, the session files
created up to `when` (with their receipts), this bucket's files with its
pointers rebuilt from those sessions, every ledger cut to the rows stamped
up to `when`, and the teammates' files that had reached the team clone by
then (`team_history`); then points daimon's configuration at the copy (its own
`settings_override` / `checkpoint_dir_override`, the mechanism
`testing.sandbox` uses) for the calling context only. daimon's own readers
then answer "what did the briefing say then?". The original store is only
read.

Forget is never undone by going back in time: every forget tombstone (this
bucket's and every other local bucket's, which make the machine-wide forgotten
set) is kept whatever its time, so a forgotten value cannot resurface in a
historical view.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from daimon_tui.domain.when import parse_when
from daimon_tui.models import Diagnostic, Handoff, ProjectRef
from daimon_tui.models.history import AsOfStore, parse_time
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import reading as daimon_reading
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import config, store, surfaces, view
from daimon_tui.store.read import asof_kept_copy, team_history
from daimon_tui.store.read.asof_moments import (  # when each session's checkpoint was written
    _mtime,
    _parsed,
    _time_of,
    forget_times,
    session_moment_rows,
    session_rows,
    stamp,
    written_at,
)
from daimon_tui.store.read.asof_moments import deciding_rows as deciding_rows  # what health_kept keeps of a session
from daimon_tui.store.read.asof_pass import Appended, LedgerPass, Seed

_LOCK = re.compile(r"\.lock$")


def resolve_when(project: ProjectRef, when: str | datetime,
                 now: datetime | None = None) -> tuple[datetime, str | None]:
    """`when` as a UTC moment, and the session id it named if it named one.
    Text is read by the one parser the `@` box uses (`domain.when`: a
    session id, "yesterday", "3d", a date, an ISO-8601 time). A session id
    means the moment that session's checkpoint was written. Raises
    ValueError, with the box's reason, for anything else."""
    if isinstance(when, datetime):
        return (when if when.tzinfo else when.replace(tzinfo=UTC)), None
    rows = {row.session_id: row for row in view.sessions(project.target).rows}
    parsed = parse_when(when, rows, now or datetime.now(UTC))
    if parsed.value is None:
        raise ValueError(parsed.problem or f"{when!r} is not a time or a session of this project")
    row = rows.get(parsed.value)
    if row is not None and isinstance(row.created, str):
        path = paths.contained(config.checkpoint_dir(), parsed.value, ".json")
        bucket = config.checkpoint_dir() / project.slug
        own = session_rows(bucket).get(parsed.value, ())
        return parse_time(written_at(path, row.created, own, forget_times(bucket))), parsed.value
    return parse_time(parsed.value), None


def _forgets(row: dict | None) -> bool:
    return row is not None and (store.is_tombstone_status(row.get("status")) or store.is_key_ref(row.get("item_ref")))


def _row_time(line: str) -> str | None:
    return _time_of(_parsed(line))


def _is_forget_row(line: str) -> bool:
    return _forgets(_parsed(line))


def _classify(body: str) -> tuple[str | None, bool]:
    row = _parsed(body)
    return _time_of(row), _forgets(row)


def _classify_row(row: dict) -> tuple[str | None, bool]:
    return _time_of(row), _forgets(row)


def ledger_pass(seed: Seed | None = None, appended: Appended | None = None) -> LedgerPass:
    """The ledgers of a pass over moments oldest first (`as_of(..., into=, ledgers=)`): each read once.
    `seed`: given each copy written whole from a ledger daimon read whole (`LedgerPass.offer`), with its rows;
    `appended`: each copy the pass appended to, with its size before."""
    return LedgerPass(_classify, _classify_row, seed, appended)


def _cut_ledger(src: Path, dst: Path, cutoff: str, *, forgets_only: bool = False,
                ledgers: LedgerPass | None = None) -> int:
    """Copy `src` keeping rows stamped at or before `cutoff`, every forget
    row, and lines with no time (torn lines keep the ledger's health).
    Returns how many rows were left out. With `ledgers`, through the pass (`asof_pass`)."""
    if ledgers is not None:
        return ledgers.cut(src, dst, cutoff, forgets_only=forgets_only)
    kept, cut = [], 0
    with src.open("r", encoding="utf-8", errors="surrogateescape", newline="") as handle:
        for line in handle:
            body = line.strip()
            if not body:
                kept.append(line)
                continue
            row = _parsed(body)  # once per row: a year's ledger is copied for each charted session
            if _forgets(row):
                kept.append(line)
                continue
            if forgets_only:
                cut += 1
                continue
            ts = _time_of(row)
            if ts is None or ts <= cutoff:
                kept.append(line)
            else:
                cut += 1
    _write_rows(dst, "".join(kept).encode("utf-8", errors="surrogateescape"))
    return cut


def _write_rows(dst: Path, data: bytes) -> None:
    """Write a cut ledger. Over the copy of an earlier moment (Health's pass,
    oldest first), only the rows that moment had not are appended: the kept
    fold of the copy then folds those alone. Any other difference: written whole."""
    try:
        old = dst.read_bytes()
    except OSError:
        old = None
    if old == data:
        return
    if old and data.startswith(old):
        with dst.open("ab") as handle:
            handle.write(data[len(old):])
        return
    dst.write_bytes(data)


def _clear_but_ledgers(copy_root: Path, written: asof_kept_copy.Written) -> None:
    """Empty a copy kept from an earlier moment, but for its ledgers (`*.jsonl`
    of the checkpoints and the team) and the session files and receipts it
    wrote (`written`: each kept only while unchanged, `asof_kept_copy`): what
    daimon read or wrote there then is gone."""
    for path in sorted(copy_root.rglob("*"), reverse=True):
        parts = path.relative_to(copy_root).parts
        if path.is_dir() and not path.is_symlink():
            continue
        if path.suffix == ".jsonl" and parts[0] in ("checkpoints", "team"):
            continue
        if len(parts) == 2 and parts[0] == "checkpoints" and parts[1] in written:
            continue
        path.unlink()


def _copy_bucket(src: Path, dst: Path, cutoff: str, ledgers: frozenset[str], passing: LedgerPass | None) -> int:
    dst.mkdir(parents=True, exist_ok=True)
    cut = 0
    for path in sorted(src.iterdir()):
        if not path.is_file() or _LOCK.search(path.name) or daimon_reading.is_pointer_name(path.name):
            continue
        if path.name in ledgers or path.suffix == ".jsonl":
            cut += _cut_ledger(path, dst / path.name, cutoff, ledgers=passing)
        else:
            shutil.copy2(path, dst / path.name)
    return cut


def _session_files(root: Path, slug: str, cutoff: str) -> list[tuple[str, str, Path]]:
    """(created, session id, path) of this project's session files written at
    or before `cutoff` (a checkpoint is written a minute or two after its
    `created`), oldest first."""
    out = []
    own_rows, rewrites = session_moment_rows(root / slug), forget_times(root / slug)
    for path in daimon_reading.session_files(root):
        slug_of, created = _slug_and_created(path)
        if slug_of != slug:
            continue
        if isinstance(created, str) and written_at(path, created, own_rows.get(path.stem, ()), rewrites) <= cutoff:
            out.append((created, path.stem, path))
    out.sort()
    return out


def _slug_and_created(path: Path) -> tuple[object, object]:
    """A session file's `project_slug` and `created` (None, None when unreadable)."""
    try:
        st = path.stat()
    except OSError:
        return None, None
    return _slug_and_created_of(str(path), (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))


@functools.lru_cache(maxsize=4096)
def _slug_and_created_of(path: str, _state: tuple[int, ...]) -> tuple[object, object]:
    # parsed once per state of the file (its stat key, ctime included): Health cuts a copy per charted session
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    return (raw.get("project_slug"), raw.get("created")) if isinstance(raw, dict) else (None, None)


def _retained(bucket: Path) -> dict[str, bytes]:
    """session id -> the bytes a retained pointer of the bucket holds for it (one
    copy asks for every session in the window: the pointers are listed once)."""
    pointers = tuple((str(p), _stat_key(p)) for p in sorted(bucket.glob("*.json"))
                     if daimon_reading.is_pointer_name(p.name))
    return _held_by_pointers(pointers)


def _stat_key(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@functools.lru_cache(maxsize=4)
def _held_by_pointers(pointers: tuple[tuple[str, tuple[int, ...] | None], ...]) -> dict[str, bytes]:
    # session id -> the bytes of the first pointer (by name) holding it; read once per state of the
    # pointers (their stat keys, ctime included): Health asks for each session at each moment
    held: dict[str, bytes] = {}
    for name, _state in pointers:
        try:
            data = Path(name).read_bytes()
            sid = json.loads(data).get("session_id")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(sid, str):
            held.setdefault(sid, data)
    return held


def _pointer_bytes(retained: dict[str, bytes], session_id: str, fallback: Path) -> bytes:
    """The bytes the bucket's pointer held for this session when a retained
    pointer still holds it (`retained`, `_retained`), else the session file's own."""
    held = retained.get(session_id)
    return held if held is not None else fallback.read_bytes()


def _changed_after(path: Path, cutoff: str) -> bool:
    try:
        return stamp(datetime.fromtimestamp(path.stat().st_mtime, UTC)) > cutoff
    except OSError:
        return False


def _fails_receipt(session_id: str) -> bool:
    """daimon's own tamper check of the session's root file, as it is now."""
    return view.receipt_state({"session_id": session_id, "receipts": True})["state"] == "mismatch"


def _edited_after(session_id: str, path: Path, *, kept: bool) -> Diagnostic:
    """A session file that fails its receipt now and was last changed after
    the moment. The store keeps only the signed bytes (in a pointer) and the
    bytes after the last change (the file, one mtime): an earlier change, or
    the signed bytes once the pointer window has moved on, is not recorded."""
    changed = _mtime(path)
    at = f" at {stamp(changed)}" if changed else ""
    if kept:
        return Diagnostic(level="info", source="daimon-tui", message=(
            f"session {session_id}: its file was last changed{at}, after this moment; shown as signed "
            "(a kept pointer holds those bytes); an earlier change of the file, if any, is not recorded"))
    return Diagnostic(source="daimon-tui", message=(
        f"session {session_id}: its file was changed{at}, after this moment, and no pointer keeps the bytes "
        "it had then: shown as it is now"))


def _copy_team(dst: Path, cutoff: str, passing: LedgerPass | None) -> None:
    """Teammates' published ledgers: tombstones whole (a forget is never
    undone by going back), quarantines cut at the moment."""
    team = config.team_dir()
    tombstones = daimon_reading.tombstone_ledger_name()
    names = (tombstones, daimon_reading.quarantine_ledger_name())
    for path in daimon_reading.team_ledger_paths(names, include_own=True, include_local=True):
        path = Path(path)
        if not path.is_file():
            continue
        try:
            target = dst / path.relative_to(team)
        except ValueError:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.name == tombstones:
            shutil.copy2(path, target)
        else:
            _cut_ledger(path, target, cutoff, ledgers=passing)


def _settings(copy_root: Path) -> dict[str, str]:
    """The configuration in force, with every store directory moved into the copy."""
    active = config.active_settings()
    if active is not None:
        mapping = dict(active)
    else:
        found = {**daimon_reading.settings_file_values(), **os.environ}
        mapping = {k: v for k, v in found.items() if k.startswith("DAIMON_")}
    dirs = {
        "DAIMON_CHECKPOINT_DIR": "checkpoints",
        "DAIMON_LOG_DIR": "logs",
        "DAIMON_TEAM_DIR": "team",
        "DAIMON_RECALL_SEEN_DIR": "recall_seen",
        "DAIMON_WINDSURF_DIR": "windsurf",
        "DAIMON_KEYS_DIR": "keys",
        "DAIMON_CHECKS_DIR": "checks",
        "DAIMON_CLAUDE_PROJECTS_DIR": "claude-projects",
    }
    for key, name in dirs.items():
        (copy_root / name).mkdir(parents=True, exist_ok=True)
        mapping[key] = str(copy_root / name)
    mapping["DAIMON_RECALL_DB"] = str(copy_root / "recall.db")
    # A historical view never world-checks or heals: it only reads.
    mapping.pop("DAIMON_WORLDCHECK", None)
    return mapping


def _build(project: ProjectRef, moment: datetime, named: str | None, copy_root: Path,
           passing: LedgerPass | None = None, written: asof_kept_copy.Written | None = None) -> AsOfStore:
    cutoff = stamp(moment)
    root = config.checkpoint_dir()
    slug = project.slug
    bucket = root / slug
    ledgers = frozenset(surfaces.bucket_ledger_names())
    dst_root = copy_root / "checkpoints"
    dst_root.mkdir(parents=True, exist_ok=True)
    notes: list[Diagnostic] = []
    cut = 0
    if bucket.is_dir():
        cut += _copy_bucket(bucket, dst_root / slug, cutoff, ledgers, passing)
    else:
        notes.append(Diagnostic(message=f"no bucket {slug} in the store"))
    # Other buckets matter only for the machine-wide forgotten set.
    for other in sorted(p for p in root.iterdir() if p.is_dir() and p.name != slug):
        events = other / "events.jsonl"
        if events.is_file():
            (dst_root / other.name).mkdir(exist_ok=True)
            _cut_ledger(events, dst_root / other.name / "events.jsonl", cutoff, forgets_only=True, ledgers=passing)
    _copy_team(copy_root / "team", cutoff, passing)
    team_history.copy_arrived(copy_root / "team", moment.timestamp())
    held = _session_files(root, slug, cutoff)
    noted: set[str] = set()  # sessions whose bytes then a note already qualifies
    placed: set[str] = set()  # the session files and receipts in the copy's checkpoint dir
    retained = _retained(bucket)
    for _created, sid, path in held:
        # A file changed after the moment (a hand edit) is copied as it stood
        # then, where a retained pointer still holds those bytes.
        changed = _changed_after(path, cutoff)
        before = retained.get(sid) if changed else None
        if before is not None:
            asof_kept_copy.write(dst_root / path.name, before, written)
        else:
            asof_kept_copy.copy(path, dst_root / path.name, written)
        placed.add(path.name)
        if changed and _fails_receipt(sid):
            notes.append(_edited_after(sid, path, kept=before is not None))
            noted.add(sid)
        receipt = path.with_suffix(".receipt")
        if receipt.is_file():
            asof_kept_copy.copy(receipt, dst_root / receipt.name, written)
            placed.add(receipt.name)
    if written is not None:
        asof_kept_copy.drop_others(dst_root, written, placed)
    # The pointer window as it stood: latest = the newest session then.
    window = list(reversed(held))[: config.checkpoint_history()]
    if window and (dst_root / slug).is_dir():
        for index, (_created, sid, path) in enumerate(window):
            name = "latest.json" if index == 0 else f"prev-{index}.json"
            (dst_root / slug / name).write_bytes(_pointer_bytes(retained, sid, path))
            if sid not in noted and sid not in retained and _fails_receipt(sid):
                # daimon's brief read the pointer (the signed bytes) then; the window has moved on since
                notes.append(Diagnostic(source="daimon-tui", message=(
                    f"session {sid}: its file fails its receipt and no pointer keeps the signed bytes daimon "
                    "read then: shown as the edited file holds it")))
    elif not window:
        notes.append(Diagnostic(level="info", message=f"no session of this project was created by {cutoff}"))
    current = window[0][1] if window else None
    label = f"{cutoff} ({named})" if named else cutoff
    return AsOfStore(
        project=project,
        when=cutoff,
        session_id=current,
        label=label,
        sessions=tuple(sid for _c, sid, _p in held),
        rows_cut=cut,
        diagnostics=tuple(notes),
    )


def refusal() -> str | None:
    """Why no as-of copy can be made here (safe mode), or None."""
    return daimon_reading.as_of_refusal()


@contextlib.contextmanager
def as_of(project: ProjectRef, when: str | datetime, *, into: Path | None = None,
          ledgers: LedgerPass | None = None, moment: datetime | None = None) -> Iterator[AsOfStore]:
    """The store as it stood at `when` (an ISO-8601 time or a session id).

    Inside the context daimon reads the copy (calling context only: the
    override is a ContextVar, so do the reading in the same thread or an
    `asyncio.to_thread` started inside). The copy is removed on exit; with
    `into` (a private directory of the caller's, for moments read oldest
    first), the copy is made there and kept: the next moment's ledgers grow
    by the rows between the two; with `ledgers` too (`ledger_pass()`, one for
    the pass), each ledger is read once and the copy only grows. `moment`:
    the moment the session id `when` names, when the caller worked it out
    already (`health_kept`, from the same inputs as `resolve_when`). Raises `Unavailable` in safe mode (the copy
    needs daimon's private names)."""
    refused = refusal()
    if refused:
        raise Unavailable(refused)
    moment, named = (moment, str(when)) if moment is not None else resolve_when(project, when)
    written: asof_kept_copy.Written | None = None  # a kept copy's session files and receipts
    with contextlib.ExitStack() as held:
        if into is None:
            copy_root = Path(held.enter_context(tempfile.TemporaryDirectory(prefix="daimon-tui-asof-")))
        else:
            copy_root = into
            written = asof_kept_copy.written_in(copy_root / "checkpoints")
            _clear_but_ledgers(copy_root, written)
        os.chmod(copy_root, 0o700)
        built = _build(project, moment, named, copy_root, ledgers, written)
        mapping = _settings(copy_root)
        with contextlib.ExitStack() as stack:
            stack.enter_context(config.settings_override(mapping))
            stack.enter_context(config.checkpoint_dir_override(copy_root / "checkpoints"))
            stack.enter_context(config.log_dir_override(copy_root / "logs"))
            stack.callback(daimon_reading.clear_team_project_cache)
            daimon_reading.clear_team_project_cache()
            yield built


def handoff_at(project: ProjectRef, when: str | datetime) -> Handoff | None:
    """The baton daimon would have printed at `when`: its own reader
    (`store.active_handoff`) over the store cut at that moment."""
    from daimon_tui.store.read.daimon_brief import handoff

    try:
        with as_of(project, when) as cut:
            return handoff(cut.project.target)
    except (OSError, ValueError):
        return None


# What `health_kept` checks an appended row by: whether a copy cut at a moment keeps it.
is_forget_row = _is_forget_row
row_time = _row_time


def team_dir() -> Path:
    """The team dir an as-of copy reads the teammates' files from."""
    return Path(config.team_dir())
