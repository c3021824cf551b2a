"""The kept events fold on disk: sizes, a digest and offsets, never a row.

One JSON file per ledger in our cache dir (`own_files.cache_dir()`),
named by a hash of the checkpoint dir and the ledger's path, 0600 in a 0700
directory, replaced atomically. It says which bytes were folded (`size`,
`sha256`) and where the rows `kept_fold` keeps start: each ref's winner, each
witness, each ref's rows (refs named by a hash: a legacy ref may be text) and
the rows that may be tombstones; the witness rows grouped by the item they
count for (its ref's hash). Also daimon's corroboration fold of those witness
rows (`store.fold_corroborations`: per item id, the observing session ids and
the latest demotion's stamp), when every id and stamp in it has an id's
shape (never free text): a later run then neither parses nor folds the
witness rows of an item no appended row names. The rows themselves are read
back from the ledger, and only while its bytes hash the same. A file that is
not a small regular file of this format is ignored, and never opened blocking.

The seal: a fold this app checked (built from daimon's full read, or compared
with it: `kept_fold.check_against_full`) is written with an HMAC-SHA256 of its
numbers and the daimon release that folded them, keyed by a random key of our
own (`fold-seal.key`, 0600, beside the files). The seal is the record's last
member and signs the exact bytes before it (closed by `}`): checking it costs
a hash of the file, not a second encoding of it. A file whose seal verifies was
written by this app from a fold it checked: its completeness is proved without
a full read, so a headless report may answer from it. A file without one, or
whose seal does not verify (edited, forged, from another daimon release, or a
key that changed) still loads, unsealed: the app checks it once against
daimon's full fold before anything is called confirmed, and a headless report
does not use it at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import json
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api.public import config, daimon_version
from daimon_tui.store.own_files import cache_dir, read_regular, write_private_bytes

FORMAT = 3  # 3: witnesses grouped by item, and their corroboration fold
_MAX_BYTES = 64 * 1024 * 1024
SEAL_KEY = "fold-seal.key"
_KEY_BYTES = 32


def cache_file(key: str) -> Path:
    """Where the kept fold of the ledger at absolute path `key` is kept."""
    name = hashlib.sha256(f"{config.checkpoint_dir()}\0{key}".encode()).hexdigest()[:32]
    return cache_dir() / f"{name}.fold.json"


@dataclass(frozen=True, slots=True)
class Spans:
    """A kept fold as numbers: the bytes it covers and where its rows start."""

    size: int
    digest: str
    winners: tuple[int, ...]
    # an item's ref hash (`kept_fold.ref_key`) -> where its witness rows start
    witnesses: dict[str, list[int]]
    refs: dict[str, list[int]]
    tombstones: list[int]
    # daimon's `fold_corroborations` of the witness rows; None: not kept
    corroborations: dict[str, dict] | None = None
    # the file's seal verified: written by this app from a fold it checked
    sealed: bool = False


# What an id, a session id and a stamp may look like to be written here: no
# spaces, no free text (a hostile ref is not copied into our cache).
_ID = re.compile(r"[A-Za-z0-9._:@+-]{1,200}")
_ENTRY = frozenset({"origins", "recorded", "latest_demotion_ts"})


def encode_corroborations(folded: dict) -> dict[str, Any] | None:
    """daimon's corroboration fold as JSON (each session id written once, an
    item's sessions as indexes; its origins only where they are not all it
    recorded), or None when it holds anything but ids and stamps in the
    shape this file knows."""
    sessions: dict[str, int] = {}
    items: dict[str, list] = {}
    for item, entry in folded.items():
        if not (isinstance(item, str) and _ID.fullmatch(item) and isinstance(entry, dict) and set(entry) == _ENTRY):
            return None
        origins, recorded, demoted = entry["origins"], entry["recorded"], entry["latest_demotion_ts"]
        if not (isinstance(origins, set) and isinstance(recorded, set) and origins <= recorded
                and all(isinstance(s, str) and _ID.fullmatch(s) for s in recorded)
                and (demoted is None or (isinstance(demoted, str) and _ID.fullmatch(demoted)))):
            return None
        seen = sorted(sessions.setdefault(s, len(sessions)) for s in recorded)
        items[item] = [seen, None if origins == recorded else sorted(sessions[s] for s in origins), demoted]
    return {"sessions": list(sessions), "items": items}


def _named(value: Any, sessions: list[str]) -> set[str] | None:
    """The sessions at the indexes `value`, each once; None when it is not that."""
    if not isinstance(value, list) or not value or not set(map(type, value)) <= {int} or min(value) < 0:
        return set() if value == [] else None
    try:
        named = set(map(sessions.__getitem__, value))
    except IndexError:
        return None
    return named if len(named) == len(value) else None


def _decode_corroborations(value: Any) -> dict[str, dict] | None:
    if not isinstance(value, dict):
        return None
    sessions, items = value.get("sessions"), value.get("items")
    if not isinstance(sessions, list) or not all(isinstance(s, str) for s in sessions) or not isinstance(items, dict):
        return None
    out: dict[str, dict] = {}
    for item, entry in items.items():
        if not isinstance(entry, list) or len(entry) != 3:
            return None
        recorded = _named(entry[0], sessions)
        origins = recorded if entry[1] is None else _named(entry[1], sessions)
        demoted = entry[2]
        if recorded is None or origins is None or not origins <= recorded or not (
                demoted is None or isinstance(demoted, str)):
            return None
        out[item] = {"origins": set(origins), "recorded": recorded, "latest_demotion_ts": demoted}
    return out


def _seal_key(create: bool) -> bytes | None:
    """Our sealing key (`fold-seal.key` in the cache dir), made on first use
    when `create`; None when there is none or it is not ours (then nothing
    is sealed and no seal verifies: every fold is checked, as before)."""
    path = cache_dir() / SEAL_KEY
    try:
        data = read_regular(path)
    except FileNotFoundError:
        if not create:
            return None
        data = secrets.token_bytes(_KEY_BYTES)
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:  # another run made it meanwhile: theirs is the key
            return _seal_key(create=False)
        except OSError:
            return None
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError:  # not a regular file, unreadable: not ours
        return None
    return data if len(data) == _KEY_BYTES else None


def _seal(body: bytes, key: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


# the seal, as `save` writes it: the record's last member
_SEAL_TAIL = re.compile(rb',"seal":"([0-9a-f]{64})"\}\s*\Z')


def save(key: str, spans: Spans, *, sealed: bool = False) -> bool:
    """Write `spans` for the ledger `key` (atomic, 0600), sealed when
    `sealed` (the caller checked the fold) and a key is at hand. Never raises."""
    record: dict[str, Any] = {
        "format": FORMAT, "daimon": daimon_version(), "size": spans.size, "sha256": spans.digest,
        "winners": list(spans.winners), "witnesses": spans.witnesses, "refs": spans.refs,
        "tombstones": spans.tombstones}
    if spans.corroborations is not None and (folded := encode_corroborations(spans.corroborations)) is not None:
        record["corroborations"] = folded
    body = json.dumps(record, separators=(",", ":")).encode()
    seal_key = _seal_key(create=True) if sealed else None
    if seal_key is not None:
        body = body[:-1] + b',"seal":"' + _seal(body, seal_key).encode() + b'"}'
    return write_private_bytes(cache_file(key), body, prefix=".fold-")


def _ints(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not set(map(type, value)) <= {int}:  # bool is not int here
        return None
    return tuple(value)


def _groups(value: Any) -> dict[str, list[int]] | None:
    """A dict of str -> list of ints, checked in a few passes of C loops."""
    if (not isinstance(value, dict) or not set(map(type, value)) <= {str}
            or not set(map(type, value.values())) <= {list}
            or not set(map(type, itertools.chain.from_iterable(value.values()))) <= {int}):
        return None
    return value


def load(key: str) -> Spans | None:
    """The kept fold of the ledger `key` from disk, or None. Opened without
    blocking and without following a link; anything but a small regular file
    of our format is ignored."""
    try:
        fd = os.open(cache_file(key), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read()
        data = json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    data.pop("seal", None)
    tail = _SEAL_TAIL.search(raw)
    seal_key = _seal_key(create=False) if tail is not None else None
    sealed = (seal_key is not None and data.get("daimon") == daimon_version()
              and hmac.compare_digest(tail.group(1).decode(), _seal(raw[:tail.start()] + b"}", seal_key)))
    size, digest = data.get("size"), data.get("sha256")
    winners, witnesses = _ints(data.get("winners")), _groups(data.get("witnesses"))
    refs, tombstones = _groups(data.get("refs")), _ints(data.get("tombstones"))
    corroborations = _decode_corroborations(data["corroborations"]) if "corroborations" in data else None
    if (type(size) is not int or not isinstance(digest, str) or winners is None or witnesses is None
            or tombstones is None or refs is None or ("corroborations" in data and corroborations is None)):
        return None
    return Spans(size, digest, winners, witnesses, refs, list(tombstones), corroborations, sealed)


def discard(key: str) -> None:
    """Remove the kept fold of the ledger `key` from disk (it was found wrong)."""
    with contextlib.suppress(OSError):
        cache_file(key).unlink()
