"""Which bucket a project directory or a slug names, and whether daimon holds
it: the first step of every read, light enough for a headless report (no
briefing models)."""

from __future__ import annotations

import os

from daimon_tui.models import ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import api, config, view


def resolve_project(path: str | None = None, slug: str | None = None) -> ProjectRef:
    """The bucket daimon would read for `--project PATH` / `--slug SLUG` (cwd by default)."""
    if slug:
        # A slug is one path component in daimon's own slug shape; anything
        # else (`../x`, `a/b`) is folded the way daimon folds it, so it can
        # only ever name a bucket inside the store. The bucket's `root` file
        # is used only when it names a directory daimon files under this slug.
        slug = api.project_slug(slug) or "-"
        try:
            root, _why = paths.root_for_slug(slug)
        except (OSError, ValueError):
            root = None
        return ProjectRef(slug=slug, name=os.path.basename(root or slug), path=root)
    directory = config.resolve_read_project(path)
    return ProjectRef(slug=api.project_slug(directory), name=os.path.basename(directory), path=directory)


def project_exists(project: ProjectRef) -> bool:
    try:
        return project.slug in view.buckets(None)
    except Exception:
        return False


def known_projects() -> tuple[str, ...]:
    """The projects daimon holds, named as a person would pass them: the
    directory a bucket's checked `root` file names, else its slug (`--slug`)."""
    try:
        slugs = sorted(view.buckets(None))
    except Exception:
        return ()
    named = []
    for slug in slugs:
        try:
            root, _why = paths.root_for_slug(slug)
        except (OSError, ValueError):
            root = None
        named.append(root or f"--slug {slug}")
    return tuple(named)
