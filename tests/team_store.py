"""A real two-engineer team store, made by daimon's own team functions.

Two HOMEs (two daimon sandboxes, `alice` and `bob`) share one project by its
git origin and sync through a local bare git remote: alice inits the team and
pushes her checkpoint; bob joins (his clone brings hers), states the same
decision (the same id: ids hash the text), quarantines one of his values (a
human quarantine is published to the team) and pushes; alice syncs (his
checkpoint and quarantine arrive), resolves the loop they share, quarantines
one of her own values (published to her clone, pending there until her
next sync). The reader is alice: the fixture yields with
her sandbox active. Only the fixture runs git against the remote.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from daimon_briefing import teamsync, testing, trust

from daimon_tui.store.read import reader
from daimon_tui.store.write import writer

ORIGIN = "git@example.invalid:team/app.git"
SHARED_DECISION = "Use sqlite for the response cache"
SHARED_LOOP = "Should uploads retry on HTTP 429?"
ALICE_OWN = "Pin textual to the 8.x series"
ALICE_QUARANTINED = "Run the migrations by hand on every deploy"
BOB_VERBATIM = "Keep the importer retries at three attempts"
BOB_QUARANTINED = "Ship the importer straight to production without a flag"
BOB_TOPIC = "Migrating the importer to the new queue"
ALICE_TOPIC = "Caching the upload responses"
# Items are stamped by daimon's own clock in the sandbox and git by a fixed
# date per sync, so ts, ids and the clone's history repeat: alice pushes,
# then bob pushes, then alice's clone fetches his checkpoint.
_START_NS = 1_796_000_000 * 10**9
ALICE_PUSHED = "2026-11-30T12:00:00Z"
BOB_PUSHED = "2026-12-01T16:00:00Z"
ALICE_FETCHED = "2026-12-02T08:00:00Z"


@dataclass(frozen=True)
class TeamStore:
    root: Path
    remote: Path
    project: Path  # alice's checkout
    bob_project: Path
    remote_slug: str
    shared_loop_id: str
    alice_quarantine: str
    bob_quarantine: str


def _git(*argv: str) -> None:
    subprocess.run(["git", *argv], check=True, capture_output=True)


def _checkout(path: Path) -> None:
    path.mkdir(parents=True)
    _git("init", "-q", str(path))
    _git("-C", str(path), "remote", "add", "origin", ORIGIN)


def _settings(author: str, project: Path) -> dict[str, str]:
    return {"DAIMON_PROJECT_DIR": str(project), "DAIMON_AUTHOR": author, "DAIMON_PLAIN": "1", "DAIMON_TEAM": "1"}


def _join(remote: Path, project: Path, author: str) -> Path:
    sidecar = teamsync.init(str(remote), project_dir=project)
    # The clone commits as its author, so daimon's provenance check agrees.
    _git("-C", str(sidecar), "config", "user.name", author)
    _git("-C", str(sidecar), "config", "user.email", f"{author}@example.invalid")
    return sidecar


def _checkpoint(session_id: str, created: str, topic: str, decisions: list[dict], questions: list[str]) -> dict:
    cp = testing.sample_checkpoint(topic=topic, questions=questions)
    cp["session_id"] = session_id
    cp["created"] = created
    cp["working_context"]["recent_decisions"] = decisions
    return cp


def _git_date(when: str) -> contextlib.AbstractContextManager:
    return mock.patch.dict(os.environ, {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when})


def _synced(expect_fetch: bool, when: str, *, strict: bool = True) -> None:
    """`strict`: no warnings (a hostile author name draws daimon's author-mismatch warning)."""
    with _git_date(when):
        reports = teamsync.sync()
    assert reports and (not strict or not any(r["warnings"] for r in reports)), reports
    assert all(r["fetched"] for r in reports) or not expect_fetch, reports


@contextlib.contextmanager
def team_store(root: Path, *, bob_extra: tuple[dict, ...] = (), bob_topic: str = BOB_TOPIC, bob: str = "bob",
               remote_name: str = "remote.git", bob_created: str = "2026-12-01T15:00:00Z") -> Iterator[TeamStore]:
    """`bob_extra`: more decisions in bob's checkpoint (hostile text, say);
    `bob`, `remote_name`, `bob_created`: his author name, the remote's
    directory name (so its URL) and his checkpoint's `created` (hostile too)."""
    remote = root / remote_name
    remote.parent.mkdir(parents=True, exist_ok=True)
    _git("init", "-q", "--bare", str(remote))
    alice_home, bob_home = root / "alice", root / "bob"
    project, bob_project = alice_home / "src" / "app", bob_home / "code" / "app"
    inferred = {"trust": "inferred"}
    with testing.sandbox(alice_home, settings=_settings("alice", project), clock=testing.StepClock(_START_NS)):
        _checkout(project)
        with _git_date(ALICE_PUSHED):
            sidecar = _join(remote, project, "alice")
        testing.seed_checkpoint(
            project,
            _checkpoint("S-alice-1", "2026-11-30T10:00:00Z", ALICE_TOPIC,
                        [{"text": SHARED_DECISION, **inferred}, {"text": ALICE_OWN, **inferred},
                         {"text": ALICE_QUARANTINED, **inferred}], [SHARED_LOOP]),
            session_id="S-alice-1",
        )
        _synced(expect_fetch=False, when=ALICE_PUSHED)
        with testing.sandbox(bob_home, settings=_settings(bob, bob_project),
                             clock=testing.StepClock(_START_NS + 3600 * 10**9, seed="bob")):
            _checkout(bob_project)
            with _git_date(BOB_PUSHED):
                _join(remote, bob_project, bob)
            testing.seed_checkpoint(
                bob_project,
                _checkpoint("S-bob-1", bob_created, bob_topic,
                            [{"text": SHARED_DECISION, **inferred}, {"text": BOB_QUARANTINED, **inferred},
                             {"text": BOB_VERBATIM, "trust": "verbatim", "quote": "three attempts, no more",
                              "quote_verified": True}, *bob_extra], [SHARED_LOOP]),
                session_id="S-bob-1",
            )
            bob_quarantine = trust.propose(text=BOB_QUARANTINED, kind="decision", reason="never without a flag",
                                           evidence=["artifact:incident-7"], channel="ui",
                                           project_dir=str(bob_project))
            assert not bob_quarantine.published.failed
            _synced(expect_fetch=False, when=BOB_PUSHED, strict=bob == "bob")
        _synced(expect_fetch=True, when=ALICE_FETCHED, strict=bob == "bob")
        ref = reader.resolve_project(str(project))
        briefing = reader.load_briefing(ref)
        loop = next(i for i in briefing.items() if i.text == SHARED_LOOP)
        assert writer.resolve(loop.id or "", note="answered in review", project=ref).outcome == "applied"
        alice_quarantine = trust.propose(text=ALICE_QUARANTINED, kind="decision", reason="a wrong habit",
                                         evidence=["artifact:runbook"], channel="ui", project_dir=str(project))
        assert not alice_quarantine.published.failed
        yield TeamStore(
            root=root,
            remote=remote,
            project=project.resolve(),
            bob_project=bob_project.resolve(),
            remote_slug=sidecar.name,
            shared_loop_id=loop.id or "",
            alice_quarantine=str(alice_quarantine),
            bob_quarantine=str(bob_quarantine),
        )


def teammate_pushes(store: TeamStore, author: str, decision: str, *, when: str = "2026-12-02T10:00:00Z") -> None:
    """Another engineer (a fresh HOME beside alice's and bob's) joins the team
    and pushes a checkpoint stating `decision`; alice's clone has not fetched it."""
    home = store.root / author
    project = home / "src" / "app"
    with testing.sandbox(home, settings=_settings(author, project),
                         clock=testing.StepClock(_START_NS + 7200 * 10**9, seed=author)):
        _checkout(project)
        with _git_date(when):
            _join(store.remote, project, author)
        testing.seed_checkpoint(
            project,
            _checkpoint(f"S-{author}-1", when, f"{author}'s topic", [{"text": decision, "trust": "inferred"}], []),
            session_id=f"S-{author}-1",
        )
        _synced(expect_fetch=False, when=when)


def reader_syncs(when: str = "2026-12-02T11:00:00Z") -> None:
    """alice runs `daimon team sync` (as in another terminal): her clone fetches."""
    _synced(expect_fetch=True, when=when)
