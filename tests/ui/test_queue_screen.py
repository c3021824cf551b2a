"""The Queue view driven by a Pilot over a store with every kind of waiting item."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from daimon_briefing import amendments, api, refutations, relations, store, trust
from textual.app import App

from daimon_tui.models import ProjectRef
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.queue.screen import QueueScreen
from daimon_tui.ui.screens.verb_modals import ConfirmModal, ResolveModal, RetractModal
from tests.ui.settle import press_until, wait_until

STYLES = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "styles").glob("*.tcss"))
_spec = importlib.util.spec_from_file_location(
    "queue_store_recipe", Path(__file__).parents[1] / "store" / "test_queue.py"
)
recipe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recipe)
NOW = recipe.NOW.timestamp()
SIZE = (120, 36)


class QueueHost(App):
    CSS_PATH = STYLES

    def __init__(self, project: ProjectRef, log: ActionLog, *, world_check: bool = False) -> None:
        super().__init__()
        self.project = project
        self.action_log = log
        self.world_check = world_check

    def on_mount(self) -> None:
        self.push_screen(QueueScreen(self.project, now=NOW, log=self.action_log, world_check=self.world_check))


@pytest.fixture
def fixed_store(tmp_path, sandbox_root):
    """A queue store in the test's private sandbox (quarantine ids hash its
    path; snapshots mask them)."""
    with demo.sandboxed(sandbox_root, receipts=False) as sandbox:
        ids = recipe.build_queue_store(sandbox.project)
        project = ProjectRef(
            slug=api.project_slug(str(sandbox.project)), name="proj", path=str(sandbox.project)
        )
        yield project, ids, ActionLog(tmp_path / "actions.jsonl")


async def _settle(pilot, screen: QueueScreen) -> None:
    await wait_until(
        pilot,
        lambda: screen.state.queue is not None
        and not screen.state.busy
        and not any(w.is_running for w in screen.workers if w.group != "queue-summary"),
        timeout=20,
        what="the queue loaded and idle",
    )


async def _preview_then_y(pilot) -> None:
    """`y` only once a preview is on screen: it opens after a thread hop (the
    log probe, the plan), and a `y` sent before it would land on the queue."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal), what="the preview")
    await pilot.press("y")


async def test_a_pilot_run_through_the_whole_queue(fixed_store):
    project, ids, log = fixed_store
    app = QueueHost(project, log)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QueueScreen)
        await _settle(pilot, screen)
        assert next(e.kind for e in screen.state.queue.entries) == "agent-claim"
        assert screen.state.progress() == "1 of 12"
        # agent claim: confirm as resolved
        await pilot.press("a")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # supersede candidate: reject (daimon's reverify path, no evidence)
        await pilot.press("d")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # amendment: ratify
        await pilot.press("a")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # quarantine candidate: skip it, it stays waiting
        await pilot.press("s")
        await _settle(pilot, screen)
        # ruling: ratify the text shown
        await pilot.press("a")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # refutation: reject
        await pilot.press("d")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # relation: confirm
        await pilot.press("a")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # carried external item: retract (reason and evidence in the curation modal)
        assert screen.state.current.kind == "carried-external"
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, RetractModal), what="the retract dialog")
        await pilot.press(*"the spike branch was never pushed")
        await pilot.press("tab", *"issue:12", "enter")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # carried open loop: resolve with a note
        assert screen.state.current.kind == "carried-open-loop", screen.state.current
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ResolveModal), what="the resolve dialog")
        await pilot.press("enter")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        # the open loops `daimon loops` lists, in its order: skip the amended one, resolve the next
        current = screen.state.current
        assert current.kind == "open-loop" and current.ref == ids[recipe.PR7], current
        await pilot.press("s")
        await _settle(pilot, screen)
        assert screen.state.current.ref == ids[recipe.CACHE2]
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ResolveModal), what="the resolve dialog")
        await pilot.press("enter")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        await pilot.press("s")
        await _settle(pilot, screen)
        assert screen.state.current is None
        assert screen.state.progress() == (
            "12 of 12; 3 resolved, 1 retracted, 1 reopened, 2 ratified, 1 confirmed, 1 rejected, 3 skipped"
        )
        done = dict(screen.state.done)
    p = project.target
    assert done[f"agent-claim:{ids[recipe.EXPORT]}"] == "claim-confirm"
    assert done[f"trust:{ids['tid']}"] == "skip"
    latest = store.resolutions(project_dir=p)
    assert latest[ids[recipe.EXPORT]]["status"] == "resolved" and latest[ids[recipe.EXPORT]]["source"] == "ui"
    assert latest[ids[recipe.CACHE]]["note"] == "candidate rejected"
    assert (
        latest[ids[recipe.STAGING]]["status"] == "resolved" and latest[ids[recipe.STAGING]]["source"] == "ui"
    )
    assert latest[ids[recipe.CACHE2]]["status"] == "resolved" and latest[ids[recipe.CACHE2]]["source"] == "ui"
    assert amendments.get(ids["aid"], project_dir=p)["state"] == "ratified"
    assert refutations.get(ids["rid"], project_dir=p)["state"] == "active"
    assert refutations.get(ids["fid"], project_dir=p)["state"] == "overturned"
    assert relations.get(ids["rel"], project_dir=p)["state"] == "confirmed"
    assert trust.get(ids["tid"], project_dir=p)["state"] == "candidate"
    spike = api.lookup(p, ids[recipe.SPIKE])
    assert getattr(spike, "reason", None) == "quarantine"
    brief = api.render_briefing(p, now=NOW).text
    assert recipe.RULING in brief  # the ratified ruling is a standing ruling now
    assert recipe.EXPORT not in brief and recipe.STAGING not in brief and recipe.SPIKE not in brief
    assert recipe.CACHE in brief and "likely superseded" not in brief
    assert "↷ amended — progressed" in brief
    verbs_logged = [e.verb for e in log.entries()]
    assert verbs_logged == [
        "claim-confirm",
        "supersede-reject",
        "amend-ratify",
        "ruling-ratify",
        "refutation-reject",
        "relation-confirm",
        "retract",
        "resolve",
        "resolve",
    ]


async def test_not_activated_when_the_ruling_text_changed(fixed_store):
    project, ids, log = fixed_store
    app = QueueHost(project, log)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await _settle(pilot, screen)
        await press_until(pilot, "n", lambda: screen.state.current.kind == "ruling", limit=len(KINDS))
        refutations.revise(
            ids["rid"],
            channel="cli-agent",
            evidence=["artifact:gateway.md"],
            verdict="Always retry a request that timed out at the gateway",
            project_dir=project.target,
        )
        await pilot.press("a")
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        assert screen.state.current.kind == "ruling"  # it stays: nothing was activated
        assert screen.state.done[screen.state.current.key] == "not activated"
        assert "1 not activated" in screen.state.progress()
    assert refutations.get(ids["rid"], project_dir=project.target)["state"] == "candidate"
    assert log.entries()[-1].reason == "not-activated"


KINDS = [
    "agent-claim",
    "supersede-candidate",
    "amendment",
    "trust",
    "ruling",
    "refutation",
    "relation",
    "carried-external",
    "carried-open-loop",
    "open-loop",
]


@pytest.mark.parametrize("position", range(len(KINDS)), ids=KINDS)
def test_snapshot_of_each_kind(snap_compare, fixed_store, position):
    project, _ids, log = fixed_store

    async def go(pilot) -> None:
        await pilot.pause()
        await _settle(pilot, pilot.app.screen)
        for _ in range(position):
            await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen.state.current.kind == KINDS[position]

    assert snap_compare(QueueHost(project, log), terminal_size=SIZE, run_before=go)


def test_snapshot_of_the_end_of_queue_summary(snap_compare, fixed_store):
    project, _ids, log = fixed_store

    async def go(pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        await _settle(pilot, screen)
        await pilot.press("a")  # confirm the agent claim
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        await pilot.press("n", "a")  # ratify the amendment
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        await pilot.press("d")  # dismiss the quarantine candidate
        await _preview_then_y(pilot)
        await _settle(pilot, screen)
        for _ in range(10):
            await pilot.press("s")
        await _settle(pilot, screen)
        pilot.app.clear_notifications()  # toasts expire on a timer: keep them out of the picture
        await wait_until(pilot, lambda: not pilot.app.screen.query("Toast"), what="toasts gone")
        assert screen.state.current is None

    assert snap_compare(QueueHost(project, log), terminal_size=SIZE, run_before=go)


async def test_a_verdict_preview_with_an_unwritable_log_offers_only_close(fixed_store, tmp_path):
    from daimon_tui.ui.queue.decision_modal import DecisionModal

    project, _ids, _log = fixed_store
    blocker = tmp_path / "state"
    blocker.write_text("a file where the log's directory should be")
    app = QueueHost(project, ActionLog(blocker / "actions.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await _settle(pilot, screen)
        first = screen.state.current
        await pilot.press("a")
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, DecisionModal):
                break
        assert isinstance(app.screen, DecisionModal)
        shown = str(app.screen.query_one("#verb-log-problem").render())
        assert str(blocker / "actions.jsonl") in shown
        await pilot.press("y")
        await pilot.pause(0.1)
        assert isinstance(app.screen, DecisionModal)
        await pilot.press("n")
        await _settle(pilot, screen)
        assert screen.state.current is first and screen.state.progress() == "1 of 12"


async def test_the_queue_asks_the_world_check_service_and_shows_its_findings(fixed_store, monkeypatch) -> None:
    """The queue's world-check asks `services.world_check` (a failure there is
    swallowed by the screen, so only its findings on screen show it ran)."""
    from daimon_tui.domain.claims import Claim, ClaimKind, Expect
    from daimon_tui.domain.probes import Finding, Outcome
    from daimon_tui.domain.worldcheck import ClaimResult, ItemResult, WorldReport
    from daimon_tui.services import world_check

    asked: list[list[tuple]] = []

    async def fake_check(root: Path, items: list[tuple], **_: object) -> WorldReport:
        asked.append(items)
        item_id = items[0][0]
        claim = Claim(kind=ClaimKind.FILE, subject="src/app.py", expect=Expect.EXISTS, words="src/app.py", start=0,
                      end=10)
        finding = Finding(Outcome.CONTRADICTED, "no-such-path", "src/app.py does not exist")
        return WorldReport(str(root), (ItemResult(item_id, (ClaimResult(claim, finding),)),), None)

    monkeypatch.setattr(world_check, "check_items", fake_check)
    project, _ids, log = fixed_store
    app = QueueHost(project, log, world_check=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QueueScreen)
        await _settle(pilot, screen)
        await wait_until(pilot, lambda: bool(screen.state.world), timeout=20, what="the world-check's findings")
        assert asked and list(screen.state.world.values()) == ["contradicted: src/app.py does not exist"]
