"""What the team section says, in words shared by the screen and `brief --team` (pure).

Every phrase takes our models and returns inert text: author names, slugs and
ids come from files a teammate wrote.
"""

from __future__ import annotations

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import short_id
from daimon_tui.models.team import (
    NOT_CORROBORATION,
    SYNC_COMMAND,
    OwnQuarantine,
    TeamItem,
    Teammate,
    TeamRemote,
    TeamView,
)

# `daimon brief --team`'s own header (its teammates header; a test pins it).
TEAMMATES_HEADER = "Teammates — where they left off:"
TEAMMATE_RELEASE_REFUSAL = (
    "a teammate's quarantine is never released from here: daimon gives no one but its author that right; "
    "ask them to run `daimon trust release`"
)


def shared_claims(team: TeamView) -> tuple[TeamItem, ...]:
    """Each claim more than one author states, once, in the order first shown."""
    seen: set[str] = set()
    out = []
    for entry in team.items():
        if entry.shared and entry.item.id and entry.item.id not in seen:
            seen.add(entry.item.id)
            out.append(entry)
    return tuple(out)


def first_showing(team: TeamView) -> dict[str, str]:
    """item id -> the teammate whose section shows a shared claim; later copies collapse into it."""
    out: dict[str, str] = {}
    for mate in team.teammates:
        for entry in mate.decisions:
            if entry.item.id and entry.item.id not in out:
                out[entry.item.id] = mate.author
    return out


def author_names(entry: TeamItem, me: str) -> str:
    return ", ".join(f"{inert(a)} (you)" if a == me else inert(a) for a in entry.authors)


def authors_phrase(entry: TeamItem, me: str) -> str:
    return f"stated by {author_names(entry, me)}; {NOT_CORROBORATION}"


def remote_phrase(remote: TeamRemote) -> str:
    synced = f"last synced {remote.last_sync}" if remote.last_sync else "never synced"
    pending = f", {remote.pending} pending" if remote.pending else ""
    authors = ", ".join(inert(a) for a in remote.authors) or "none yet"
    return (f"Team remote {inert(remote.slug)} ({inert(remote.branch)}): {synced}; {remote.unpushed} unpushed"
            f"{pending}; authors: {authors}; {scope_phrase(remote)}.{warning_phrase(remote)} "
            f"This copy is as of that sync; `{SYNC_COMMAND}` refreshes it.")


def scope_phrase(remote: TeamRemote) -> str:
    """Which projects the remote receives, in `daimon team status`'s words."""
    if remote.scope:
        return "scope: " + ", ".join(inert(s) for s in remote.scope)
    if remote.granted_by_env:
        return "scope: none configured — DAIMON_TEAM_PROJECT grants this machine's sessions"
    return "scope: none — this remote receives no checkpoints (add [scope] repos to daimon-team.toml)"


def warning_phrase(remote: TeamRemote) -> str:
    return f" warning: {inert(remote.config_warning, limit=300)}." if remote.config_warning else ""


def teammate_origin(mate: Teammate) -> str:
    where = ", ".join(inert(r) for r in mate.remotes) or "the team directory"
    arrived = f", arrived here {inert(mate.arrived, limit=60)}" if mate.arrived else ""
    checkout = f"; their checkout {inert(mate.project_slug)}" if mate.project_slug else ""
    created = inert(mate.created or "no date", limit=60)
    return f"session {inert(short_id(mate.session_id or '-'))} ({created}), from {where}{arrived}{checkout}"


def withheld_phrase(team: TeamView) -> str | None:
    """What the reader's own ledgers withhold from the teammates' sections,
    and apart from it what teammates' published quarantines withhold (those
    are listed on their own below), or None when nothing is withheld."""
    own_quarantined = max(team.quarantined_withheld - team.team_quarantined_withheld, 0)
    parts = []
    if team.resolved_withheld or own_quarantined:
        parts.append(f"by your own ledgers: {team.resolved_withheld} resolved, {own_quarantined} quarantined")
    if team.team_quarantined_withheld:
        parts.append(f"by teammates' published quarantines (below): {team.team_quarantined_withheld}")
    return ("Withheld from the teammates' sections " + "; ".join(parts)) if parts else None


def own_quarantine_phrase(own: OwnQuarantine, routed: bool) -> str:
    if not routed:
        return "not published: this project routes to no team remote"
    parts = []
    if own.published_to:
        parts.append("published to " + ", ".join(inert(r) for r in own.published_to))
    if own.missing_from:
        parts.append("not yet published to " + ", ".join(inert(r) for r in own.missing_from)
                     + " (`daimon trust republish`)")
    if own.unknown:
        parts.append("cannot tell for " + ", ".join(inert(r) for r in own.unknown))
    return "; ".join(parts) or "not published"


# daimon writes a published transition into this machine's clone of the
# remote; only `daimon team sync` here pushes it (daimon also starts one,
# detached, when a session starts), and a teammate's own sync fetches it.
_REACHES_TEAM = (f"it reaches a teammate only after your `{SYNC_COMMAND}` has pushed it (daimon also starts one "
                 f"when a session starts) and then theirs has fetched it")


def publish_phrase(publishes_to: tuple[str, ...]) -> str:
    """What the preview of a new quarantine says about the team."""
    if not publishes_to:
        return "stays on this machine: no team remote receives this project's quarantines"
    return ("will be published to your clone of " + ", ".join(inert(r) for r in publishes_to)
            + f"; {_REACHES_TEAM}: until then teammates still see the value")


def release_phrase(holders: list[str] | tuple[str, ...], team_on: bool) -> str:
    """What the preview of a release says about the team: the clones that hold the quarantine."""
    if not holders:
        return "this quarantine was never published: the release stays on this machine"
    where = ", ".join(inert(r) for r in holders)
    if not team_on:
        return (f"published to {where}, but the team is off here (DAIMON_TEAM): the release is not published "
                "and teammates keep withholding the value")
    return (f"the release is published to your clone of {where} too; {_REACHES_TEAM}: until then teammates "
            "keep withholding the value")
