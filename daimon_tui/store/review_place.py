"""Where a project's review state lives: a hash of daimon's checkpoint
directory and the bucket slug (a slug spells the project's path, so it is
not the file name), under the app's own state directory."""

from __future__ import annotations

import hashlib
from pathlib import Path

from daimon_tui.store import paths
from daimon_tui.store.review_file import review_dir


def review_path(slug: str) -> Path:
    key = f"{paths.checkpoint_root()}\0{slug}".encode()
    return review_dir() / f"{hashlib.sha256(key).hexdigest()[:32]}.json"
