"""A persisted cache of daimon's judged verdicts per bucket, holding no text.

Written after each confirmed read; read at first paint so rows show daimon's last
verdict (state, corroboration, staleness) instead of none. It holds ids, states,
counts, timestamps and badge tokens only: never item text, quote, because, note,
branch or file names, so daimon's forget stays complete (the file name itself is
a hash, because a bucket slug spells the project's path). The fingerprint says
which ledger and pointer bytes the verdicts were judged on; a mismatch means the
verdicts may be stale, and the UI shows them as provisional until daimon answers.

Location: our cache dir (`own_files.cache_dir`); directory 0700, files 0600.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daimon_tui.models import Briefing, ProjectRef, WithheldItem
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import config, store, surfaces
from daimon_tui.store.judging.kept_layout import file_part
from daimon_tui.store.own_files import cache_dir, open_regular, read_regular, write_private_json

FORMAT = 1
_TAIL = 4096


def cache_file(slug: str) -> Path:
    key = f"{config.checkpoint_dir()}\0{slug}".encode()
    return cache_dir() / f"{hashlib.sha256(key).hexdigest()[:32]}.json"


def fingerprint(project: ProjectRef) -> str:
    """A digest of every ledger, the latest pointer and daimon's machine-wide
    forgotten-set stamp: equal digests mean the verdicts were judged on the same bytes."""
    bucket = Path(config.checkpoint_dir()) / project.slug
    parts: dict[str, Any] = {
        name: file_part(str(bucket / name)) for name in surfaces.bucket_ledger_names()
    }
    parts["latest.json"] = file_part(str(bucket / "latest.json"))  # read whole
    try:
        parts["forgotten"] = repr(store.forgotten_stamp())
    except Exception:  # an unknown stamp never matches
        parts["forgotten"] = None
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def events_mark(project: ProjectRef) -> list[Any] | None:
    """Where the events ledger ends now: (size, inode, sha256 of the 4 KiB
    before that end). Taken with the fingerprint, it lets the first paint read
    only the rows appended since the verdicts were judged (`appended_since`)."""
    path = Path(config.checkpoint_dir()) / project.slug / "events.jsonl"
    try:
        with open_regular(path) as handle:
            st = os.fstat(handle.fileno())
            handle.seek(max(0, st.st_size - _TAIL))
            return [st.st_size, st.st_ino, hashlib.sha256(handle.read(st.st_size)).hexdigest()]
    except OSError:
        return None


def appended_since(project: ProjectRef, mark: tuple | None) -> bytes | None:
    """The bytes appended to the events ledger since `mark` (complete lines
    only); None when it was rewritten, shrunk or replaced since (forget's
    scrub, a repair: then only daimon's full read can tell) or has no mark."""
    if not mark or len(mark) != 3:
        return None
    size, inode, digest = mark
    path = Path(config.checkpoint_dir()) / project.slug / "events.jsonl"
    try:
        with open_regular(path) as handle:
            st = os.fstat(handle.fileno())
            if st.st_ino != inode or st.st_size < size:
                return None
            handle.seek(max(0, size - _TAIL))
            if hashlib.sha256(handle.read(size - max(0, size - _TAIL))).hexdigest() != digest:
                return None
            data = handle.read(st.st_size - size)
    except (OSError, TypeError, ValueError):
        return None
    return data[:data.rfind(b"\n") + 1]  # a torn last line waits for its newline


@dataclass(frozen=True, slots=True)
class Verdict:
    """daimon's judgement of one item, without its text."""

    state: str
    mark: str | None = None
    badges: tuple[str, ...] = ()
    stale_days: float | None = None
    closing_status: str | None = None
    closing_ts: str | None = None
    closing_source: str | None = None

    @property
    def corroboration(self) -> int:
        for token in self.badges:
            if token.startswith("corroborated:"):
                with contextlib.suppress(ValueError):
                    return int(token.split(":", 1)[1])
        return 0


@dataclass(frozen=True, slots=True)
class Cached:
    fingerprint: str
    session_id: str | None
    items: dict[str, Verdict] = field(default_factory=dict)
    withheld: tuple[WithheldItem, ...] = ()
    visible_items: int | None = None
    # where the events ledger ended when these verdicts were judged (`events_mark`)
    events: tuple | None = None

    def forgotten_ids(self) -> frozenset[str]:
        gone = {w.id for w in self.withheld if w.state == "forgotten" and w.id}
        gone |= {i for i, v in self.items.items() if v.state == "forgotten"}
        return frozenset(gone)


def _short(value: str | None, limit: int = 120) -> str | None:
    return value[:limit] if isinstance(value, str) else None


def _status_word(status: str | None) -> str | None:
    return status.split(":", 1)[0][:40] if isinstance(status, str) else None


def to_record(briefing: Briefing, digest: str, events: list[Any] | None = None) -> dict[str, Any]:
    """What is persisted for a confirmed briefing: verdicts by id, no text."""
    items: dict[str, Any] = {}
    for item in (*briefing.items(), *briefing.resolved):
        if not item.id:
            continue
        items[item.id] = {
            "state": item.state,
            "mark": item.mark,
            # tokens only: a badge's `detail` can hold a note or a session's words
            "badges": [b.token for b in item.badges],
            "stale_days": item.stale_days,
            # the verb only: a status is free-form and may carry words after `:`
            "closing_status": _status_word(item.closing_status),
            "closing_ts": _short(item.closing_ts, 40),
            "closing_source": _short(item.closing_source, 40),
        }
    return {
        "format": FORMAT,
        "fingerprint": digest,
        "session_id": _short(briefing.session_id),
        "items": items,
        "withheld": [
            {"id": w.id, "kind": w.kind, "state": w.state, "quarantine_id": w.quarantine_id}
            for w in briefing.withheld
        ],
        "visible_items": len(briefing.items()),
        "events": events,
    }


def save(briefing: Briefing, digest: str, events: list[Any] | None = None) -> Path | None:
    """Persist the verdicts of a confirmed briefing (atomic, 0600). Never raises."""
    if briefing.provisional or briefing.state == "unavailable":
        return None
    target = cache_file(briefing.project.slug)
    record = to_record(briefing, digest, events)
    return target if write_private_json(target, record, prefix=".verdicts-") else None


def _verdict(raw: Any) -> Verdict | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("state"), str):
        return None
    stale = raw.get("stale_days")
    badges = raw.get("badges") if isinstance(raw.get("badges"), list) else []
    return Verdict(
        state=raw["state"],
        mark=raw.get("mark") if isinstance(raw.get("mark"), str) else None,
        badges=tuple(str(b) for b in badges),
        stale_days=float(stale) if isinstance(stale, (int, float)) and not isinstance(stale, bool) else None,
        closing_status=_short(raw.get("closing_status")),
        closing_ts=_short(raw.get("closing_ts")),
        closing_source=_short(raw.get("closing_source")),
    )


def load(slug: str) -> Cached | None:
    """The cached verdicts of a bucket, or None (absent, torn, other format)."""
    try:
        data = json.loads(read_regular(cache_file(slug)).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("items"), dict):
        return None
    items = {str(k): v for k, raw in data["items"].items() if (v := _verdict(raw)) is not None}
    withheld = []
    for raw in data.get("withheld") or ():
        with contextlib.suppress(Exception):
            withheld.append(WithheldItem(id=raw.get("id"), kind=str(raw.get("kind")), state=raw.get("state"),
                                         quarantine_id=raw.get("quarantine_id")))
    count = data.get("visible_items")
    mark = data.get("events")
    valid = (isinstance(mark, list) and len(mark) == 3 and all(type(n) is int for n in mark[:2])
             and isinstance(mark[2], str))
    return Cached(
        fingerprint=str(data.get("fingerprint") or ""),
        session_id=_short(data.get("session_id")),
        items=items,
        withheld=tuple(withheld),
        visible_items=count if isinstance(count, int) and not isinstance(count, bool) else None,
        events=tuple(mark) if valid else None,
    )


# -- the receipt audit's count ----------------------------------------------------


def _receipts_file(slug: str) -> Path:
    return cache_file(slug).with_suffix(".receipts.json")


def _stamp_digest(stamp: tuple) -> str:
    return hashlib.sha256(repr(stamp).encode("utf-8", "surrogatepass")).hexdigest()


def save_receipts(slug: str, stamp: tuple | None, failures: int) -> None:
    """Keep how many session receipts failed, for the session files `stamp`
    (`paths.session_files_stamp`): a count and a digest, nothing else."""
    if stamp is not None:
        write_private_json(_receipts_file(slug), {"format": FORMAT, "stamp": _stamp_digest(stamp),
                                                  "failures": int(failures)}, prefix=".receipts-")


def load_receipts(slug: str, stamp: tuple | None) -> int | None:
    """The kept count when the session files are still `stamp`, else None."""
    if stamp is None:
        return None
    try:
        data = json.loads(read_regular(_receipts_file(slug)).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("stamp") != _stamp_digest(stamp):
        return None
    failures = data.get("failures")
    return failures if type(failures) is int and failures >= 0 else None


def kept_receipt_failures(slug: str) -> int:
    """The audit's last count of failing session receipts while the session
    files are still the ones it judged (a scandir and one small file), else 0."""
    return load_receipts(slug, paths.session_files_stamp()) or 0
