"""The confirmed briefing's layout, kept without its text, for a later open's first frame.

A later open draws its first frame from this before daimon (or pydantic) is
imported: the confirmed briefing's order, sections, badges and header
furniture, as daimon last judged them. It holds no text of the checkpoint:
every string found in the live checkpoint (`latest.json`) is kept as its place
there and the sha256 of its text; a string built around one (daimon's printed
line) keeps only the furniture around the place. The texts come from the live
checkpoint each time (a forget scrubs them there), and the layout is drawn only
if every hash matches and nothing it was judged on has moved since: every
ledger and the latest pointer (stat and digest), and what daimon's machine-wide
forget stamp reads (each bucket's events ledger, the team ledgers). A briefing
holding words from elsewhere (a handoff, a ruling, a note: ledger prose) is
not kept at all, but for a resolution's note, left out as the provisional
read leaves it out. The frame is provisional, and daimon's confirmation replaces it.

This module imports no daimon: the judging child, which has it, names the files
watched (`kept_layout_save`). Our own files are untrusted input: anything
unexpected reads as "no kept layout", never as text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import installed
from daimon_tui.store.own_files import cache_dir, open_regular, read_regular

FORMAT = 1
_TAIL = 4096
# A checkpoint text shorter than this is never looked for inside a longer string.
_MIN_INSIDE = 6
# Strings kept as they are: identities, states, times and daimon's own furniture, never prose.
TOKEN_FIELDS = frozenset({
    "id", "kind", "section", "field", "trust", "mark", "stored_mark", "state", "origin_session",
    "origin_author", "first_seen", "carried_from", "closing_ts", "closing_source", "key", "title",
    "header", "slug", "name", "path", "session_id", "created", "format_version", "quarantine_id",
    "when", "forgotten_after", "greeting", "order", "level", "source", "ts",
})
# The words daimon's printed lines and section notes put around a text (marks, badges, states, counts).
FURNITURE_WORDS = frozenset({
    "inferred", "verbatim", "unverified", "untagged", "stale", "carried", "corroborated", "was",
    "resolved", "superseded", "forgotten", "quarantined", "withheld", "closed", "reopened", "by",
    "from", "days", "day", "ago", "because", "quote", "live", "external", "state", "anchored",
    # a section's note: "(10 of 15 shown; 5 older not shown)"
    "of", "shown", "older", "newer", "not", "more", "hidden",
})
# Ledger prose the first frame does without, as the provisional read does (a resolution's note).
LEFT_OUT = frozenset({"closing_note"})
_WORD = re.compile(r"[^\W\d_]{2,}")


class NotKeepable(ValueError):
    """The briefing holds words that are not in the live checkpoint: no layout is kept."""


def layout_file(root: str, slug: str) -> Path:
    key = f"{root}\0{slug}".encode()
    return cache_dir() / f"{hashlib.sha256(key).hexdigest()[:32]}.layout.json"


def launch_file(key: str) -> Path:
    return cache_dir() / f"launch-{key}.json"


_KEYED = frozenset({"HOME", "DAIMON_TUI_SAFE_MODE"})  # the latter: `daimon_api.mode.ENV_SAFE`


def _daimon_version() -> str | None:
    return installed.version()  # its dist-info, not daimon's import (nor importlib.metadata's, ~20 ms)


def launch_key(project_path: str | None, slug: str | None) -> str:
    """Which open this is: the directory (or `--project`), the `--slug`,
    daimon's configuration in the environment (where its store is) and the
    daimon installed (another judges, or refuses, otherwise)."""
    where = os.path.realpath(project_path or os.getcwd())
    # ours left out (a test's probe, the cache's place) but for safe mode, which changes what is read
    env = sorted((k, v) for k, v in os.environ.items()
                 if (k.startswith("DAIMON_") and not k.startswith("DAIMON_TUI_")) or k in _KEYED)
    raw = json.dumps([where, slug, env, _daimon_version()], separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---- what the layout was judged on --------------------------------------------


def file_part(path: str) -> list[Any] | None:
    """(size, mtime_ns, inode, sha256 of the file or of its last 4 KiB); latest.json whole."""
    whole = os.path.basename(path) == "latest.json"
    try:
        with open_regular(path) as handle:
            st = os.fstat(handle.fileno())
            if not whole and st.st_size > _TAIL:
                handle.seek(st.st_size - _TAIL)
            digest = hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino, digest]


def _stat_entry(path: str) -> list[Any]:
    try:
        st = os.stat(path)
    except OSError:
        return [path, None, None, None]
    return [path, st.st_mtime_ns, st.st_ctime_ns, st.st_size]


def local_events(root: str) -> list[list[Any]]:
    """Every bucket's events ledger as daimon's forget stamp reads it (a forget anywhere moves it)."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        names = []
    out: list[list[Any]] = []
    for name in names:
        try:
            st = os.stat(os.path.join(root, name, "events.jsonl"))
            out.append([name, st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size])
        except OSError:
            out.append([name, None, None, None, None])
    return out


def dir_mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def watched_now(watched: Any) -> Any:
    """`watched` as the files stand now: equal to the kept one when nothing moved."""
    files = [[path, file_part(path)] for path, _part in watched["files"]]
    foreign = [_stat_entry(entry[0]) for entry in watched["foreign"]]
    dirs = [[path, dir_mtime(path)] for path, _mtime in watched["dirs"]]
    return {"files": files, "local": local_events(watched["root"]), "foreign": foreign,
            "dirs": dirs, "root": watched["root"]}


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---- the layout, made (in the judging child) -----------------------------------


def checkpoint_places(checkpoint: Any) -> dict[str, list[Any]]:
    """Every string of the checkpoint, by its first place (a path of keys and indexes)."""
    places: dict[str, list[Any]] = {}

    def walk(value: Any, path: list[Any]) -> None:
        if isinstance(value, str):
            places.setdefault(value, path)
        elif isinstance(value, dict):
            for key, child in value.items():
                walk(child, [*path, key])
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, [*path, index])

    walk(checkpoint, [])
    return places


class _Encoder:
    def __init__(self, places: dict[str, list[Any]], vocabulary: frozenset[str]) -> None:
        self.places = places
        self.inside = sorted((t for t in places if len(t) >= _MIN_INSIDE), key=len, reverse=True)
        self.vocabulary = vocabulary

    def ref(self, text: str) -> dict[str, Any]:
        return {"$r": self.places[text], "$h": sha(text)}

    def string(self, text: str, field: str) -> Any:
        if text in self.places:
            return self.ref(text)
        if field in TOKEN_FIELDS:
            return text
        segments = self.split(text)
        for segment in segments:
            if isinstance(segment, str) and any(w.lower() not in self.vocabulary for w in _WORD.findall(segment)):
                raise NotKeepable(field)
        return {"$t": segments}

    def split(self, text: str) -> list[Any]:
        for inner in self.inside:
            at = text.find(inner)
            if at >= 0:
                head, tail = text[:at], text[at + len(inner):]
                return [*(self.split(head) if head else []), self.ref(inner), *(self.split(tail) if tail else [])]
        return [text]

    def value(self, value: Any, field: str) -> Any:
        if field in LEFT_OUT:
            return None
        if isinstance(value, str):
            return self.string(value, field)
        if isinstance(value, dict):
            return {key: self.value(child, key) for key, child in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(child, field) for child in value]
        if value is None or isinstance(value, bool | int | float):
            return value
        raise NotKeepable(field)


def _vocabulary(tree: Any, places: dict[str, list[Any]] | None = None) -> frozenset[str]:
    """The furniture words, and those of the token fields kept as they are (not a
    checkpoint's text): the same set from the briefing (made) and from the layout (read)."""
    words = set(FURNITURE_WORDS)

    def walk(value: Any, field: str) -> None:
        if isinstance(value, str) and field in TOKEN_FIELDS and (places is None or value not in places):
            words.update(w.lower() for w in _WORD.findall(value))
        elif isinstance(value, dict):
            for key, child in value.items():
                walk(child, key)
        elif isinstance(value, list):
            for child in value:
                walk(child, field)

    walk(tree, "")
    return frozenset(words)


def encode(tree: dict[str, Any], checkpoint: Any) -> dict[str, Any]:
    """The briefing's tree with each checkpoint text as its place and hash. Raises NotKeepable."""
    places = checkpoint_places(checkpoint)
    return _Encoder(places, _vocabulary(tree, places)).value(tree, "")


def record(tree: dict[str, Any], latest: bytes, watched: dict[str, Any], project: dict[str, Any]) -> dict[str, Any]:
    """What is kept for one confirmed briefing (`latest`: the pointer's bytes it was judged on)."""
    return {"format": FORMAT, "watched": watched, "project": project,
            "briefing": encode(tree, json.loads(latest.decode("utf-8")))}


# ---- the layout, read back (in the app, before daimon) ----------------------------


class _Stale(Exception):
    """The kept layout does not stand for the store as it is now."""


def _at(checkpoint: Any, path: Any) -> str:
    if not isinstance(path, list):
        raise _Stale("place")
    value = checkpoint
    for step in path:
        in_dict = isinstance(value, dict) and isinstance(step, str) and step in value
        if in_dict or (isinstance(value, list) and type(step) is int and 0 <= step < len(value)):
            value = value[step]
        else:
            raise _Stale("place")
    if not isinstance(value, str):
        raise _Stale("place")
    return value


def _filled(value: Any, checkpoint: Any, field: str, vocabulary: frozenset[str]) -> Any:
    """The layout's value with its texts from the checkpoint; a layout that holds words
    the encoder would never have kept (text outside a token field) is not ours."""
    if isinstance(value, dict):
        if "$r" in value:
            text = _at(checkpoint, value["$r"])
            if value.get("$h") != sha(text):
                raise _Stale("text")
            return text
        if "$t" in value:
            segments = value["$t"]
            if not isinstance(segments, list):
                raise _Stale("template")
            parts = []
            for segment in segments:
                if isinstance(segment, str):
                    if any(w.lower() not in vocabulary for w in _WORD.findall(segment)):
                        raise _Stale("words")
                    parts.append(segment)
                elif isinstance(segment, dict) and "$r" in segment:
                    parts.append(_filled(segment, checkpoint, field, vocabulary))
                else:
                    raise _Stale("template")
            return "".join(parts)
        return {key: _filled(child, checkpoint, key, vocabulary) for key, child in value.items()}
    if isinstance(value, list):
        return [_filled(child, checkpoint, field, vocabulary) for child in value]
    if isinstance(value, str) and field not in TOKEN_FIELDS:
        raise _Stale("words")
    return value


def _watched_valid(watched: Any) -> bool:
    try:
        return (isinstance(watched, dict) and isinstance(watched["root"], str)
                and all(isinstance(p, str) for p, _ in watched["files"])
                and all(isinstance(e, list) and isinstance(e[0], str) for e in watched["foreign"])
                and all(isinstance(p, str) for p, _ in watched["dirs"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return False


def read_tree(launch: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(the project's tree, the briefing's tree with its texts from the live
    checkpoint) for the open `launch` names, or None: nothing kept, something
    moved, a text differs, or a file of ours is not what we wrote."""
    try:
        pointer = json.loads(read_regular(launch_file(launch)).decode("utf-8"))
        if not isinstance(pointer, dict) or pointer.get("format") != FORMAT:
            return None
        root, slug = pointer.get("root"), pointer.get("slug")
        if not isinstance(root, str) or not isinstance(slug, str):
            return None
        kept = json.loads(read_regular(layout_file(root, slug)).decode("utf-8"))
        if not isinstance(kept, dict) or kept.get("format") != FORMAT or kept.get("project") != pointer.get("project"):
            return None
        watched = kept.get("watched")
        if not _watched_valid(watched) or watched["root"] != root:
            return None
        latest = next((p for p, _ in watched["files"] if os.path.basename(p) == "latest.json"), None)
        if latest is None or _canonical(watched_now(watched)) != _canonical(watched):
            return None
        data = read_regular(latest)
        part = next(part for p, part in watched["files"] if p == latest)
        if not isinstance(part, list) or hashlib.sha256(data).hexdigest() != part[-1]:
            return None  # moved between the stat and this read
        stored = kept.get("briefing")
        tree = _filled(stored, json.loads(data.decode("utf-8")), "", _vocabulary(stored))
        project = pointer.get("project")
        if not isinstance(tree, dict) or not isinstance(project, dict):
            return None
        return project, tree
    except (_Stale, OSError, ValueError, TypeError, KeyError, IndexError, StopIteration, RecursionError):
        return None


def kept_root(launch: str) -> tuple[str, str] | None:
    """(checkpoint dir, slug) the launch pointer names, or None."""
    try:
        pointer = json.loads(read_regular(launch_file(launch)).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(pointer, dict) and isinstance(pointer.get("root"), str) and isinstance(pointer.get("slug"), str):
        return pointer["root"], pointer["slug"]
    return None


def kept_receipt_failures(root: str, slug: str) -> int:
    """The receipt audit's kept count (`verdict_cache.save_receipts`) while the
    session files are as it judged them, read without daimon; else 0."""
    try:
        with os.scandir(root) as entries:
            files = [(e.name, st.st_ino, st.st_size, st.st_mtime_ns)
                     for e in entries if e.is_file(follow_symlinks=False) and (st := e.stat(follow_symlinks=False))]
        name = layout_file(root, slug).name.replace(".layout.json", ".receipts.json")  # the verdict cache's
        data = json.loads(read_regular(cache_dir() / name).decode("utf-8"))
    except (OSError, ValueError):
        return 0
    stamp = hashlib.sha256(repr(tuple(sorted(files))).encode("utf-8", "surrogatepass")).hexdigest()
    if not isinstance(data, dict) or data.get("format") != 1 or data.get("stamp") != stamp:
        return 0
    failures = data.get("failures")
    return failures if type(failures) is int and failures >= 0 else 0


def kept_writes_disabled(launch: str) -> bool:
    """Whether daimon's kill switch was set at the last open (the header's until daimon says)."""
    try:
        pointer = json.loads(read_regular(launch_file(launch)).decode("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(pointer, dict) and pointer.get("disabled") is True
