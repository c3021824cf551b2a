"""The kept layout written (`kept_layout`): in the judging child beside the
verdict cache, after each confirmed read, and the app's launch pointer once
it knows which project an open names. Here daimon names the files watched."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.daimon_api.public import config, store, surfaces
from daimon_tui.store.judging import kept_layout
from daimon_tui.store.own_files import read_regular, write_private_json


def watched(project: ProjectRef) -> dict[str, Any] | None:
    """What the briefing about to be read is judged on (taken before the read,
    as the verdict cache's fingerprint is): every ledger and the latest pointer,
    and what daimon's forget stamp reads (each bucket's events ledger, the team
    ledgers, and the folders a new teammate's ledger would appear in); None
    when that cannot be told (then nothing is kept). Never raises."""
    try:
        return _watched(project)
    except Exception:  # an unknown stamp: nothing kept
        return None


def _watched(project: ProjectRef) -> dict[str, Any]:
    root = str(config.checkpoint_dir())
    bucket = os.path.join(root, project.slug)
    names = (*surfaces.bucket_ledger_names(), "latest.json")
    files = [[os.path.join(bucket, n), kept_layout.file_part(os.path.join(bucket, n))] for n in names]
    foreign = [list(entry) for entry in store.forgotten_stamp()[2]]
    team = str(config.team_dir())
    folders = sorted({team, *(str(Path(e[0]).parent) for e in foreign if e[0]),
                      *(str(Path(e[0]).parent.parent) for e in foreign if e[0])})
    return {"files": files, "local": kept_layout.local_events(root), "foreign": foreign,
            "dirs": [[d, kept_layout.dir_mtime(d)] for d in folders], "root": root}


def save(briefing: Briefing, seen: dict[str, Any] | None) -> None:
    """Keep the confirmed briefing's layout (no text), judged on `seen`; a
    briefing that cannot be kept without text removes the layout. Never raises."""
    if seen is not None:
        with contextlib.suppress(Exception):
            _save(briefing, seen)


def _save(briefing: Briefing, seen: dict[str, Any]) -> None:
    target = kept_layout.layout_file(seen["root"], briefing.project.slug)
    latest = next(path for path, _part in seen["files"] if os.path.basename(path) == "latest.json")
    part = next(part for path, part in seen["files"] if path == latest)
    if briefing.provisional or briefing.state == "unavailable" or part is None:
        target.unlink(missing_ok=True)
        return
    data = read_regular(latest)
    if kept_layout.file_part(latest) != part:
        target.unlink(missing_ok=True)  # written during the read: the next confirmation keeps it
        return
    tree = briefing.json_tree(computed=False)
    try:
        kept = kept_layout.record(tree, data, seen, briefing.project.json_tree(computed=False))
    except (kept_layout.NotKeepable, ValueError):
        target.unlink(missing_ok=True)
        return
    write_private_json(target, kept, prefix=".layout-")


def remember_launch(project_path: str | None, slug: str | None, project: ProjectRef, disabled: bool) -> None:
    """Which project this open (its directory or `--project`, `--slug`, daimon's
    environment) named, and whether daimon's kill switch was set, for the next
    open's first frame. Never raises."""
    with contextlib.suppress(Exception):
        target = kept_layout.launch_file(kept_layout.launch_key(project_path, slug))
        pointer = {"format": kept_layout.FORMAT, "root": str(config.checkpoint_dir()), "slug": project.slug,
                   "project": project.json_tree(computed=False), "disabled": disabled}
        with contextlib.suppress(OSError, ValueError):
            import json

            if json.loads(read_regular(target).decode("utf-8")) == pointer:
                return
        write_private_json(target, pointer, prefix=".launch-")
