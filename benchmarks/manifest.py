"""The `store.json` manifest a generated benchmark store carries, and the
environment that makes a subprocess (the real `daimon brief`, our app) read
that store and nothing else.

daimon's sandbox lives in a ContextVar, which never reaches a child process,
so the child gets every `DAIMON_*` setting exported, an empty env file (so the
user's `~/.daimon/env` is not read) and a scratch HOME inside the store dir.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

MANIFEST = "store.json"


def write(out: Path, manifest: dict[str, Any]) -> Path:
    path = out / MANIFEST
    path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def load(store_dir: Path) -> dict[str, Any]:
    path = Path(store_dir) / MANIFEST
    if not path.is_file():
        raise SystemExit(f"{path} not found: run benchmarks/generate_store.py --out {store_dir} first")
    return json.loads(path.read_text(encoding="utf-8"))


def child_env(manifest: dict[str, Any]) -> dict[str, str]:
    """A clean environment for a child reading the generated store: no DAIMON_*
    value leaks in from ours, only the manifest's."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith("DAIMON_")}
    keep.update(manifest["settings"])
    keep["DAIMON_ENV_FILE"] = manifest["env_file"]
    keep["DAIMON_PLAIN"] = "1"
    keep["HOME"] = manifest["home"]
    keep.pop("VIRTUAL_ENV_PROMPT", None)
    return keep
