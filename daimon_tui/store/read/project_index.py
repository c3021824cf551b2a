"""The project switcher's fast listing: bucket envelopes and cached counts.

daimon's `view.projects` folds every bucket's events ledger (the main bucket of
a year of memory alone takes seconds). The switcher first shows what needs no
fold: each bucket's latest-pointer envelope through daimon's `api.read_meta`
(only envelope keys leave it, never an item) and the visible-item count of the
last confirmed read from the verdict cache. The topic is item text whose
verdict needs the fold, so it is left out here; `listing` confirms the rows later.

`listing` is daimon's listing with the briefing's counts. The judging child
answers it (`judge_child.READS["projects"]`): daimon's machine-wide forget walk
and the open project's fold are already held there (the briefing needed them),
so only the small buckets are read, and the counts come in a second or so
instead of the whole fold again in a thread of the app.
"""

from __future__ import annotations

from daimon_tui.models import Diagnostic, ProjectRef, ProjectSummary
from daimon_tui.models.projects import ProjectListing
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import api
from daimon_tui.store.judging import verdict_cache
from daimon_tui.store.read import reader


def quick_projects() -> tuple[tuple[ProjectSummary, ...], tuple[Diagnostic, ...]]:
    """Every bucket with a latest pointer, newest first, without folding a ledger."""
    root = paths.checkpoint_root()
    refused = reader._refused_buckets()
    rows: list[ProjectSummary] = []
    notes: list[Diagnostic] = []
    try:
        children = sorted(root.iterdir())
    except OSError:
        return (), ()
    for child in children:
        latest = child / "latest.json"
        if child.name in refused:
            notes.append(Diagnostic(level="error", source="daimon-tui",
                                    message=f"{child} holds a symlink leading outside the store: refused"))
            continue
        try:
            mtime = latest.stat().st_mtime
        except OSError:
            continue  # not a bucket, or one that never got a pointer
        meta = api.read_meta(latest)
        cached = verdict_cache.load(child.name)
        rows.append(ProjectSummary(
            slug=child.name,
            name=reader.field_text(meta.project_name) if meta and meta.project_name else child.name,
            session_id=reader.field_text(meta.session_id) if meta else None,
            created=reader.field_text(meta.created) if meta else None,
            git_branch=reader.field_text(meta.git_branch) if meta else None,
            visible_items=cached.visible_items if cached else None,
            readable=meta is not None,
            mtime=mtime,
        ))
    rows.sort(key=lambda row: (row.created or "", row.mtime), reverse=True)
    return tuple(rows), tuple(notes)


def briefed_counts(rows: tuple[ProjectSummary, ...]) -> tuple[ProjectSummary, ...]:
    """`rows` with each count as the project's briefing gives it, where known.

    daimon's listing count (`view.Peek`) keeps loops a resolution closed, which
    its briefing leaves out, so the switcher said 12 where the briefing said 11.
    Where the verdict cache was judged on the bucket's current bytes, its count is
    the briefing's own; elsewhere daimon's listing count stands."""
    out = []
    for row in rows:
        cached = verdict_cache.load(row.slug)
        if (cached is not None and cached.visible_items is not None and cached.session_id == row.session_id
                and cached.fingerprint == verdict_cache.fingerprint(ProjectRef(slug=row.slug))):
            row = row.model_copy(update={"visible_items": cached.visible_items})
        out.append(row)
    return tuple(out)


def listing(_project: ProjectRef | None = None) -> ProjectListing:
    """Every project daimon lists, counted as its briefing counts (`_project`
    is the one the judging child holds warm; the listing is machine-wide)."""
    rows, notes = reader.list_projects()
    return ProjectListing(rows=briefed_counts(rows), notes=notes)
