"""Which daimon-briefing is installed, found as `importlib.metadata.version` finds it but without
importing `importlib.metadata`: that import (email, csv, zipfile…) took ~20 ms of every start, before
the first frame (`cli.daimon_missing`, the kept layout's launch key).

The first `sys.path` directory holding the distribution's `.dist-info` (or `.egg-info`), its metadata's
`Version:` header. What this cannot read the way `importlib.metadata` would (a zip on the path, another
finder that lists distributions, no such directory, no header) asks `importlib.metadata` itself."""

from __future__ import annotations

import os
import re
import sys
from importlib.machinery import PathFinder

DISTRIBUTION = "daimon-briefing"
_SUFFIXES = {".dist-info": "METADATA", ".egg-info": "PKG-INFO"}


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


class _Unsure(Exception):
    """The path holds something only `importlib.metadata` reads as it does."""


def _header(path: str) -> str | None:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                return None  # the headers end: no Version
            key, _, value = line.partition(":")
            if key.strip().lower() == "version":
                return value.strip()
    return None


def _scan(distribution: str) -> str | None:
    wanted = _normalized(distribution)
    for finder in sys.meta_path:
        if finder is not PathFinder and hasattr(finder, "find_distributions"):
            raise _Unsure  # a finder of its own lists distributions (a zipapp, an installer's hook)
    for entry in sys.path:
        root = entry or "."
        if not os.path.isdir(root):
            if os.path.exists(root):
                raise _Unsure  # a zip on the path
            continue
        for child in os.listdir(root):
            base, dot, suffix = child.lower().rpartition(".")
            metadata = _SUFFIXES.get(dot + suffix)
            if metadata is None or _normalized(base.partition("-")[0]) != wanted:
                continue
            found = os.path.join(root, child, metadata)
            if not os.path.isfile(found):
                raise _Unsure  # an egg-info file, a tree without its metadata
            version = _header(found)
            if version is None:
                raise _Unsure
            return version
    raise _Unsure  # not found here: `importlib.metadata` says so (or finds what this cannot)


def version(distribution: str = DISTRIBUTION) -> str | None:
    """The installed version, as `importlib.metadata.version`; None when it is not installed."""
    try:
        return _scan(distribution)
    except (_Unsure, OSError, UnicodeDecodeError):
        pass
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None
