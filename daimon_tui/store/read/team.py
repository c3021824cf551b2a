"""Team memory through daimon's own team readers (read-only).

The teammates' sections are built the way `daimon brief --team` builds them
(`view.team`, then `briefing.prepare` without stamps, `briefing.build`, the
decision cap of `briefing.select`, its item line), so order, marks and
labels are daimon's. The remotes are read from their local clones only: this
module never fetches, pushes or asks the remote anything (`daimon team status`
asks the remote with `ls-remote`; we say how old the copy is instead), and it
never syncs. The published quarantines are `view.team_quarantines`; the
reader's own are `trust.standing_claims` checked by daimon's publisher test.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from daimon_tui.domain.team import publish_phrase, release_phrase
from daimon_tui.domain.verbs import PlannedWrite
from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.team import OwnQuarantine, TeamItem, Teammate, TeamQuarantine, TeamRemote, TeamView
from daimon_tui.store.daimon_api import rendering
from daimon_tui.store.daimon_api import team as daimon_team
from daimon_tui.store.daimon_api.public import briefing, config, schema, store, teamproject, teamsync, trust, view
from daimon_tui.store.read import reader, team_history


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _ids(checkpoint: Mapping | None) -> set[str]:
    if not isinstance(checkpoint, dict):
        return set()
    return {item["id"] for _field, item in schema.iter_items(checkpoint) if isinstance(item.get("id"), str)}


def _last_sync(sidecar: Path, branch: str) -> str | None:
    """When the clone's tracking ref last moved (a fetch or a push), from its
    reflog: a file read, so no git runs and nothing reaches the remote."""
    log = sidecar / ".git" / "logs" / "refs" / "remotes" / "origin" / branch
    try:
        last = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1]
        epoch = int(last.split("\t", 1)[0].split()[-2])
    except (OSError, IndexError, ValueError):
        return None
    return _stamp(epoch)


def _stamp(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _remotes() -> tuple[tuple[TeamRemote, ...], dict[str, list[str]]]:
    """Each clone with its unpushed and pending counts (daimon's own local
    plumbing, as `team status` counts them) and which remotes hold each author."""
    rows: list[TeamRemote] = []
    holders: dict[str, list[str]] = {}
    for sidecar in teamsync.list_remotes():
        authors = tuple(sorted({p.name for p in daimon_team.team_author_dirs(sidecar)}))
        for author in authors:
            holders.setdefault(author, []).append(sidecar.name)
        branch = daimon_team.branch(sidecar)
        rows.append(TeamRemote(
            slug=sidecar.name,
            branch=branch,
            last_sync=_last_sync(sidecar, branch),
            unpushed=daimon_team.unpushed_count(sidecar, branch),
            pending=daimon_team.pending_count(sidecar),
            authors=authors,
            scope=tuple(teamproject.scope_entries(sidecar)),
            granted_by_env=bool(config.team_project()),
            config_warning=_text(teamproject.config_error(sidecar)),
        ))
    return tuple(rows), holders


def _own_quarantines(project: ProjectRef) -> tuple[tuple[OwnQuarantine, ...], bool]:
    """The reader's active quarantines, each with the clones that hold its
    activation (daimon's publisher presence test) and those that do not."""
    claims = [c for c in trust.standing_claims(project_dir=project.target) if c.get("state") == "active"]
    got = store.unpublished_quarantines(claims, project_dir=project.target)
    unknown = tuple(sorted(daimon_team.remote_of(f.path) for f in got.unknown))
    out = []
    for claim in claims:
        missing = tuple(sorted(daimon_team.remote_of(p) for p, ids in got.missing.items()
                               if claim.get("event_id") in ids))
        published = tuple(sorted(daimon_team.remote_of(p) for p, ids in got.missing.items()
                                 if claim.get("event_id") not in ids))
        out.append(OwnQuarantine(quarantine_id=str(claim.get("quarantine_id") or ""), kind=str(claim.get("kind")),
                                 published_to=published, missing_from=missing, unknown=unknown))
    return tuple(sorted(out, key=lambda q: q.quarantine_id)), got.routed


def _publishes_to(project: ProjectRef) -> tuple[str, ...]:
    """The clones a human quarantine made now would be published to: the
    author's own directories `store.publish_quarantine` writes (none with the
    team off)."""
    if not config.team_enabled():
        return ()
    return tuple(daimon_team.remote_of(d) for d in daimon_team.own_team_dirs(project.target, clones_only=True))


def team_effects(project: ProjectRef, writes: Iterable[PlannedWrite]) -> tuple[str, ...]:
    """What a preview says about the team for quarantines and releases: daimon
    publishes a human quarantine to the team clones, and a release to every clone
    that holds the quarantine. Nothing on a machine with no team clone."""
    writes = tuple(writes)
    if not any(w.op in ("quarantine", "release") for w in writes) or not teamsync.list_remotes():
        return ()
    off = daimon_team.refusal()  # safe mode: where daimon publishes a new quarantine is not known here
    out = []
    if any(w.op == "quarantine" for w in writes):
        out.append(f"the team: not shown ({off})" if off else f"the team: {publish_phrase(_publishes_to(project))}")
    released = {w.quarantine_id for w in writes if w.op == "release" and w.quarantine_id}
    if released:
        own, _routed = _own_quarantines(project)
        holders = sorted({r for q in own if q.quarantine_id in released for r in q.published_to})
        out.append(f"the team: {release_phrase(holders, config.team_enabled())}")
    return tuple(out)


def _arrived(remotes: Iterable[str], author: str, session_id: str | None) -> str | None:
    """The earliest time the checkpoint reached one of the clones, from their git history."""
    if not session_id or "/" in session_id or session_id.startswith("."):
        return None
    times = [t for slug in remotes
             if (t := team_history.checkpoint_arrival(config.team_dir() / slug, author, session_id)) is not None]
    return _stamp(min(times)) if times else None


def _teammate(author: str, prepared: Any, remotes: tuple[str, ...],
              authors_of: Mapping[str, list[str]]) -> Teammate | None:
    """None when nothing is worth surfacing, the teammate daimon skips."""
    checkpoint = prepared.checkpoint or {}
    built = briefing.build(checkpoint)
    if built is None:
        return None
    topic, label, decisions = None, None, []
    active = built.get("active_topic")
    if isinstance(active, Mapping):
        topic = str(active.get("text") or "").strip()
        # The topic line carries the label itself (as daimon's teammate blocks render it).
        label = briefing.FOREIGN_VERBATIM_NOTE if active.get("foreign_verbatim_claim") else None
    sel = briefing.select(built, None)
    for raw in sel.kept["decisions"]:
        item = reader._item("decisions", raw, False, prepared.snapshot)
        # The teammate block prints the item's line with its defaults.
        item = item.model_copy(update={"line": rendering.line(dict(raw)).split("\n")[0]})
        decisions.append(TeamItem(item=item, authors=tuple(authors_of.get(item.id or "", [author]))))
    note = briefing.section_note(sel, "decisions")
    session_id = _text(checkpoint.get("session_id"))
    return Teammate(
        author=author,
        session_id=session_id,
        arrived=_arrived(remotes, author, session_id),
        created=_text(checkpoint.get("created")),
        project_slug=_text(checkpoint.get("project_slug")),
        remotes=tuple(remotes),
        topic=topic or None,
        topic_label=label,
        decisions=tuple(decisions),
        decisions_note=note.strip() if note else None,
    )


def load_team(project: ProjectRef, now: float | None = None, *, clones: bool = True) -> TeamView:
    """What `daimon brief --team` shows of the teammates for `project`, with
    who states each item, what the team withholds and where the copy came from.
    `clones=False` leaves out the clones' sync state (a historical copy has none)."""
    now = time.time() if now is None else now
    me = config.author()
    # safe mode: the clones' counts and where a quarantine is published need
    # daimon's private names; the teammates' memory (public) still shows.
    off = daimon_team.refusal() if teamsync.list_remotes() else None
    try:
        remotes, holders = _remotes() if clones and not off else ((), {})
        own = view.open(project.target, live=True)
        self_slug = store.project_slug(me)
        mates = []
        resolved = quarantined = by_team = 0
        for author, opened in view.team(project.target, live=True):
            if store.project_slug(author) == self_slug:
                continue  # daimon never shows your own state as a teammate's
            prepared = briefing.prepare(project.target, now, opened=opened, stamps=False)
            resolved += prepared.suppressed
            quarantined += prepared.quarantined
            # a teammate's published quarantine withholds with no id of the reader's trust ledger
            by_team += sum(1 for w in prepared.withheld if w.reason == "quarantine" and not w.quarantine_id)
            mates.append((author, prepared))
        authors_of: dict[str, list[str]] = {}
        for item_id in _ids(own.checkpoint):
            authors_of.setdefault(item_id, []).append(me)
        for author, prepared in mates:
            for item_id in _ids(prepared.checkpoint):
                authors_of.setdefault(item_id, []).append(author)
        shown = (_teammate(author, prepared, tuple(holders.get(store.project_slug(author) or author, ())), authors_of)
                 for author, prepared in mates)
        teammates = tuple(mate for mate in shown if mate is not None)
        notes = tuple(reader._note(line) for line in view.team_notes(project.target))
        own_quarantines, routed = _own_quarantines(project)
        publishes = _publishes_to(project) if not off else ()
        if off:
            notes += (Diagnostic(level="info", message=off),)
        published = tuple(TeamQuarantine(kind=str(kind), author=str(author), ts=str(ts))
                          for kind, author, ts in sorted(view.team_quarantines()))
    except Exception as exc:  # a store we did not write must not take the app down
        failed = f"daimon could not read the team memory ({type(exc).__name__}: {exc})"
        return TeamView(author=me, notes=(Diagnostic(level="error", message=failed),))
    return TeamView(
        author=me,
        remotes=remotes,
        teammates=teammates,
        resolved_withheld=resolved,
        quarantined_withheld=quarantined,
        team_quarantined_withheld=by_team,
        team_quarantines=published,
        own_quarantines=own_quarantines,
        routed=routed,
        publishes_to=publishes,
        notes=notes,
    )
