"""What version of a dependency a project's manifests and lockfiles name.

Read with real parsers (tomllib, json) rather than daimon's regex scan, from
files inside the project root only. Lockfiles come first, as in daimon: a lock
records the resolved version, a manifest usually a range.
"""

from __future__ import annotations

import json
import re
import stat
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_MANIFEST_BYTES = 2_000_000

LOCKFILES = ("uv.lock", "poetry.lock", "package-lock.json", "Cargo.lock")
MANIFESTS = ("pyproject.toml", "package.json", "Cargo.toml")  # requirements*.txt sit between these

_VERSION = re.compile(r"\d{1,6}(?:\.[0-9A-Za-z]{1,12}){0,5}")
_REQ_LINE = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*"
    r"(?P<op>===|==|~=|>=|<=|!=|>|<)\s*v?(?P<ver>[0-9][0-9A-Za-z.*+!-]*)"
)
_NPM_SPEC = re.compile(r"^\s*(?P<op>\^|~|>=|<=|>|<|=)?\s*v?(?P<ver>\d[0-9A-Za-z.+-]*)\s*$")
_CARGO_SPEC = re.compile(r"^\s*(?P<op>\^|~|>=|<=|>|<|=)?\s*(?P<ver>\d[0-9A-Za-z.+-]*)\s*$")


@dataclass(frozen=True, slots=True)
class Pin:
    file: str  # path relative to the project root
    version: str
    exact: bool  # a lock entry or an exact pin; False for a range
    spec: str  # as written, e.g. ">=0.27" or "0.27.2 (locked)"


def normalise(name: str) -> str:
    """PEP 503 normalisation; also fine for npm and crate names."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_inside(root: Path, relpath: str) -> str | None:
    """The text of a regular file inside `root` (symlinks resolved and refused
    when they leave it), at most MAX_MANIFEST_BYTES; None otherwise."""
    base = root.resolve()
    target = (base / relpath).resolve()
    if target != base and base not in target.parents:
        return None
    try:
        st = target.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MANIFEST_BYTES:
            return None
        return target.read_text("utf-8", "replace")
    except OSError:
        return None


def candidate_files(root: Path) -> list[str]:
    requirements = sorted(
        p.name for p in _listdir(root) if p.name.startswith("requirements") and p.name.endswith(".txt")
    )
    return [*LOCKFILES, "pyproject.toml", *requirements, "package.json", "Cargo.toml"]


def _listdir(root: Path) -> list[Path]:
    try:
        return list(root.iterdir())
    except OSError:
        return []


def pins_for(root: Path, name: str) -> Iterator[list[Pin]]:
    """Per file (in authority order), the pins that file holds for `name`;
    files that do not mention it are skipped."""
    want = normalise(name)
    for fname in candidate_files(root):
        text = read_inside(root, fname)
        if text is None:
            continue
        try:
            pins = list(_parse(fname, text, want))
        except (ValueError, TypeError, AttributeError, KeyError):
            continue  # a corrupt manifest answers nothing
        if pins:
            yield pins


def _parse(fname: str, text: str, want: str) -> Iterator[Pin]:
    if fname in ("uv.lock", "poetry.lock", "Cargo.lock"):
        for package in tomllib.loads(text).get("package", []) or []:
            if isinstance(package, dict) and normalise(str(package.get("name", ""))) == want:
                version = str(package.get("version", ""))
                if version:
                    yield Pin(fname, version, True, f"{version} (locked)")
    elif fname == "package-lock.json":
        yield from _npm_lock(fname, json.loads(text), want)
    elif fname == "package.json":
        data = json.loads(text)
        for section in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
            spec = (data.get(section) or {}).get(_find_key(data.get(section) or {}, want) or "")
            if isinstance(spec, str):
                yield from _spec_pin(fname, spec, _NPM_SPEC, exact_ops=("", "="))
    elif fname == "Cargo.toml":
        yield from _cargo(fname, tomllib.loads(text), want)
    elif fname == "pyproject.toml":
        yield from _pyproject(fname, tomllib.loads(text), want)
    else:  # requirements*.txt
        for line in text.splitlines():
            yield from _requirement(fname, line.split("#", 1)[0], want)


def _find_key(table: dict[str, Any], want: str) -> str | None:
    return next((k for k in table if isinstance(k, str) and normalise(k) == want), None)


def _npm_lock(fname: str, data: dict[str, Any], want: str) -> Iterator[Pin]:
    seen = set()
    for key, entry in (data.get("packages") or {}).items():
        if (
            isinstance(entry, dict)
            and key.startswith("node_modules/")
            and normalise(key.rsplit("node_modules/", 1)[-1]) == want
            and entry.get("version")
        ):
            seen.add(str(entry["version"]))
    if not seen:
        for key, entry in (data.get("dependencies") or {}).items():  # lockfile v1
            if normalise(key) == want and isinstance(entry, dict) and entry.get("version"):
                seen.add(str(entry["version"]))
    for version in sorted(seen):
        yield Pin(fname, version, True, f"{version} (locked)")


def _spec_pin(fname: str, spec: str, pattern: re.Pattern[str], exact_ops: tuple[str, ...]) -> Iterator[Pin]:
    m = pattern.match(spec)
    if m:
        op = m.group("op") or ""
        yield Pin(fname, m.group("ver"), op in exact_ops, spec.strip())


def _table_pins(fname: str, table: Any, want: str, spec_re: Any, exact_ops: tuple[str, ...]) -> Iterator[Pin]:
    """A `name = "1.2"` or `name = { version = "1.2" }` table (Cargo, Poetry)."""
    table = table if isinstance(table, dict) else {}
    key = _find_key(table, want)
    if key is None:
        return
    spec = table[key]
    if isinstance(spec, dict):
        spec = spec.get("version")
    if isinstance(spec, str):
        yield from _spec_pin(fname, spec, spec_re, exact_ops=exact_ops)


def _cargo(fname: str, data: dict[str, Any], want: str) -> Iterator[Pin]:
    for section in ("dependencies", "dev-dependencies", "build-dependencies"):
        yield from _table_pins(fname, data.get(section), want, _CARGO_SPEC, ("=",))


def _pyproject(fname: str, data: dict[str, Any], want: str) -> Iterator[Pin]:
    project = data.get("project") or {}
    lines = list(project.get("dependencies") or [])
    for extra in (project.get("optional-dependencies") or {}).values():
        lines += list(extra or [])
    for group in (data.get("dependency-groups") or {}).values():
        lines += [g for g in group or [] if isinstance(g, str)]
    for line in lines:
        if isinstance(line, str):
            yield from _requirement(fname, line, want)
    poetry = (data.get("tool") or {}).get("poetry") or {}
    tables = [poetry.get("dependencies") or {}, poetry.get("dev-dependencies") or {}]
    tables += [(g or {}).get("dependencies") or {} for g in (poetry.get("group") or {}).values()]
    for table in tables:
        yield from _table_pins(fname, table, want, _NPM_SPEC, ("", "="))


def _requirement(fname: str, line: str, want: str) -> Iterator[Pin]:
    m = _REQ_LINE.match(line)
    if m and normalise(m.group("name")) == want:
        op = m.group("op")
        yield Pin(fname, m.group("ver"), op in ("==", "==="), line.strip())


def version_matches(found: str, claimed: str) -> bool:
    """daimon's prefix rule: a claim of "2.31" is not falsified by 2.31.4."""
    found, claimed = found.lstrip("v"), claimed.lstrip("v")
    return found == claimed or found.startswith(claimed + ".")
