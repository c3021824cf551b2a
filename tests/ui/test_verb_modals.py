"""Verb modals: snapshots of each preview, and Pilot-driven verbs on the demo store."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from daimon_briefing import api, trust, view
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Label

from daimon_tui.domain import undo_plan, verb_registry, verbs
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.verbs import ForgetReach, ItemFacts, LatestEvent, StoreGuard
from daimon_tui.models import ProjectRef
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.write import plans
from daimon_tui.ui.log.screen import LogScreen
from daimon_tui.ui.screens.verb_modals import (
    ForgetConfirmModal,
    PlanPreviewModal,
    ResolveModal,
    RetractModal,
    ReverifyModal,
)
from daimon_tui.ui.verb_flow import run_verb
from tests.daimon_records import brief_text as brief
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

STYLES = Path(__file__).resolve().parents[2] / "styles" / "verbs.tcss"
SIZE = (100, 32)
OK = StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"})
UNDONE = ActionEntry(action_id="act-0123456789ab", time="2026-12-02T10:00:01Z", user="u", project="demo",
                     verb="resolve", item_ids=("o-eab53c8845ea",), outcome="applied")
RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"
RESOLVED_Q = "Does the upload API send Retry-After headers when throttling?"
QUARANTINED_U = "Whether the CDN caches 429 responses from the upload API"
NIGHTLY = "Switch the nightly job to its own bucket prefix"


class Host(App):
    CSS_PATH = str(STYLES)

    def __init__(self, make: Callable[[], Screen]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


def facts(item_id: str = "o-eab53c8845ea", **kw) -> ItemFacts:
    base = {"item_id": item_id, "kind": "question", "text": RETRY_Q, "in_live": True, "lifecycle": "active"}
    return ItemFacts(**{**base, **kw})


PLANS: dict[str, Callable[[], verbs.Plan]] = {
    "resolve": lambda: verbs.plan_resolve("demo", [facts(corroboration=3), facts("o-ceead3f90865",
                                                     text="Whether the staging bucket is shared")],
                                          OK, verbs.ResolveInput(status="done", note="n")),
    "retract": lambda: verbs.plan_retract("demo", [facts(copies=2)], OK,
                                          verbs.RetractInput(reason="wrong", evidence=("issue:42",))),
    "restore": lambda: verbs.plan_restore("demo", [
        facts(lifecycle="resolved", latest=LatestEvent(status="resolved", source="ui", ts="t")),
        facts("o-37f8691b0c44", lifecycle="superseded", substitute_id="o-eab53c8845ea", substitute_live=True,
              latest=LatestEvent(status="superseded-by:o-eab53c8845ea", source="ui", ts="t"))], OK),
    "reverify": lambda: verbs.plan_reverify("demo", [facts(lifecycle="resolved")], OK,
                                            verbs.ReverifyInput(evidence="checked the docs")),
    "forget": lambda: verbs.plan_forget("demo", facts(reach=ForgetReach(
        siblings=("o-111111111111",), ledger_records=("a-222222222222",), active_rulings=("r-333333333333",),
        quarantines=("tr-444444444444",))), OK),
    "undo": lambda: undo_plan.plan_undo("demo", UNDONE,
                                    [undo_plan.DoneRecord(item_id="o-eab53c8845ea", op="resolve", status="done")],
                                    {"o-eab53c8845ea": facts(lifecycle="resolved")}, OK),
    "refused": lambda: verbs.plan_resolve("demo", [facts()], StoreGuard(disabled=True), verbs.ResolveInput()),
}


def test_preview_resolve(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["resolve"]())), terminal_size=SIZE)


def test_preview_retract(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["retract"]())), terminal_size=SIZE)


def test_preview_restore(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["restore"]())), terminal_size=SIZE)


def test_preview_reverify(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["reverify"]())), terminal_size=SIZE)


def test_preview_forget(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["forget"]())), terminal_size=SIZE)


def test_preview_undo(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["undo"]())), terminal_size=SIZE)


def test_preview_refused(snap_compare) -> None:
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["refused"]())), terminal_size=SIZE)


def test_forget_confirm_modal(snap_compare) -> None:
    assert snap_compare(Host(lambda: ForgetConfirmModal("o-eab53c8845ea")), terminal_size=SIZE)


def test_preview_text_is_inert() -> None:
    hostile = facts(text="evil \x1b]8;;http://x\x07link [bold]markup[/bold]")
    plan = verbs.plan_resolve("demo", [hostile], OK, verbs.ResolveInput())

    async def go() -> str:
        app = Host(lambda: PlanPreviewModal(plan))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            return str(app.screen.query_one("#verb-plan").render())

    shown = asyncio.run(go())
    assert "\x1b" not in shown and "\\x1b" in shown and "[bold]markup[/bold]" in shown


def test_input_modals_dismiss_with_typed_results() -> None:
    async def go() -> list:
        got: list = []
        app = Host(lambda: Screen())
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(ResolveModal(("o-1",), status="merged"), got.append)
            await pilot.pause()
            await pilot.press(*"fixed", "enter")
            app.push_screen(RetractModal(("o-1",)), got.append)
            await pilot.pause()
            await pilot.press(*"why", "enter", "enter")  # no evidence: stays open
            await pilot.pause()
            assert isinstance(app.screen, RetractModal)
            await pilot.press(*"issue:1", "enter")
            app.push_screen(ReverifyModal(("o-1",)), got.append)
            await pilot.pause()
            await pilot.press(*"seen", "enter")
            app.push_screen(ForgetConfirmModal("o-1"), got.append)
            await pilot.pause()
            await pilot.press(*"o-2", "enter")  # wrong id: stays open
            await pilot.pause()
            assert isinstance(app.screen, ForgetConfirmModal)
            await pilot.press("escape")
            await pilot.pause()
        return got

    got = asyncio.run(go())
    assert got == [verbs.ResolveInput(status="merged", note="fixed"),
                   verbs.RetractInput(reason="why", evidence=("issue:1",)),
                   verbs.ReverifyInput(evidence="seen"), None]


# ---- Pilot on the demo store ----------------------------------------------------------


class VerbHost(App):
    """A stand-in for the briefing screen: keys launch `run_verb` on a fixed selection."""

    CSS_PATH = str(STYLES)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(spec.key, f"verb('{spec.name}')", spec.title) for spec in verb_registry.VERBS]

    def __init__(self, project: ProjectRef, log: ActionLog, items: tuple[str, ...]) -> None:
        super().__init__()
        self.project, self.actions_log, self.items = project, log, items
        self.outcomes: list[verbs.Outcome] = []

    def action_verb(self, name: str) -> None:
        self.run_worker(self._run(name), exclusive=True, group="verb")

    async def _run(self, name: str) -> None:
        self.outcomes.append(await run_verb(self, name, self.items, self.project, self.actions_log))










async def until(pilot, check: Callable[[], bool], tries: int = 200) -> None:
    for _ in range(tries):
        await pilot.pause(0.02)
        if check():
            return
    raise AssertionError("condition not reached")


async def on_screen(pilot, cls: type) -> None:
    # a preview may wait on the judging child's start (its plan is read there)
    await until(pilot, lambda: isinstance(pilot.app.screen, cls), tries=1500)


async def to_preview(pilot) -> None:
    """`r` on the row under the cursor, then Enter: the resolve's preview is up."""
    await pilot.press("r")
    await on_screen(pilot, ResolveModal)
    await pilot.press("enter")
    await on_screen(pilot, PlanPreviewModal)


async def done(pilot, n: int) -> None:
    await until(pilot, lambda: len(pilot.app.outcomes) >= n, tries=600)


def drive(project: ProjectRef, log: ActionLog, items: tuple[str, ...], script,
          size: tuple[int, int] = SIZE) -> VerbHost:
    async def go() -> VerbHost:
        app = VerbHost(project, log, items)
        async with app.run_test(size=size) as pilot:
            await script(pilot)
        return app

    return asyncio.run(go())


def test_pilot_resolve_then_undo(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")

    async def script(pilot) -> None:
        await pilot.press("r")
        await on_screen(pilot, ResolveModal)
        await pilot.press("down", "down")  # focus stays in the note; status via the radio set below
        await pilot.press(*"shipped it", "enter")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)
        assert RETRY_Q not in brief(demo_store)
        await pilot.press("z")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 2)

    app = drive(ref(demo_store), log, (item,), script)
    first, undo = app.outcomes
    assert first.status == "applied" and undo.status == "applied"
    rows = [r for r in events(demo_store) if r["item_ref"] == item]
    assert [(r["status"], r["source"]) for r in rows] == [("resolved", "ui"), ("reopened", "ui")]
    assert rows[0]["ts"] < rows[1]["ts"]
    assert RETRY_Q in brief(demo_store)
    entries = log.entries()
    assert [e.verb for e in entries] == ["resolve", "undo"] and entries[1].undoes == entries[0].action_id
    assert log.verify_chain().ok
    raw = log.path.read_text()
    assert RETRY_Q not in raw and "shipped it" not in raw


def test_pilot_retract_then_undo(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[NIGHTLY]
    log = ActionLog(tmp_path / "actions.jsonl")

    async def script(pilot) -> None:
        await pilot.press("x")
        await on_screen(pilot, RetractModal)
        await pilot.press(*"never decided", "enter", *"issue:42", "enter")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)
        assert NIGHTLY not in brief(demo_store)
        await pilot.press("z")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 2)

    app = drive(ref(demo_store), log, (item,), script)
    assert [o.status for o in app.outcomes] == ["applied", "applied"]
    qid = app.outcomes[0].results[0].ref
    record = trust.get(qid, project_dir=str(demo_store.project))
    assert record["state"] == "released" and record["proposed_channel"] == "ui"
    assert NIGHTLY in brief(demo_store)
    raw = log.path.read_text()
    assert NIGHTLY not in raw and "never decided" not in raw and "issue:42" not in raw


def test_pilot_restore_and_reverify_refusal(demo_store, tmp_path: Path) -> None:
    table = ids(demo_store.project)
    log = ActionLog(tmp_path / "actions.jsonl")
    before = len(events(demo_store))

    async def script(pilot) -> None:
        await pilot.press("v")
        await on_screen(pilot, ReverifyModal)
        await pilot.press("enter")  # no evidence: daimon's gate refuses before any preview
        await done(pilot, 1)
        await pilot.press("u")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 2)

    app = drive(ref(demo_store), log, (table[RESOLVED_Q],), script)
    refused, restored = app.outcomes
    assert refused.status == "refused" and refused.refusals[0].code == "evidence-required"
    assert restored.status == "applied"
    assert len(events(demo_store)) == before + 1
    assert events(demo_store)[-1]["status"] == "reopened" and events(demo_store)[-1]["source"] == "ui"
    assert RESOLVED_Q in brief(demo_store)
    assert [e.outcome for e in log.entries()] == ["refused", "applied"]
    assert log.entries()[0].reason == "evidence-required"


def test_pilot_forget_needs_the_typed_id(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[NIGHTLY]
    log = ActionLog(tmp_path / "actions.jsonl")

    async def script(pilot) -> None:
        await pilot.press("F")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await on_screen(pilot, ForgetConfirmModal)
        await pilot.press(*"r-wrong", "enter", "escape")
        await done(pilot, 1)
        assert NIGHTLY in brief(demo_store)
        await pilot.press("F")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await on_screen(pilot, ForgetConfirmModal)
        await pilot.press(*item, "enter")
        await done(pilot, 2)

    app = drive(ref(demo_store), log, (item,), script)
    assert [o.status for o in app.outcomes] == ["cancelled", "applied"]
    assert NIGHTLY not in brief(demo_store)
    assert api.why(str(demo_store.project), item)["axes"]["lifecycle"] == "forgotten"
    assert isinstance(api.lookup(str(demo_store.project), item), view.Withheld)
    assert NIGHTLY not in log.path.read_text()


def test_log_screen_flags_a_broken_chain(demo_store, tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    project = ref(demo_store)
    for verb in ("resolve", "retract", "restore"):
        log.record(project=project.slug, verb=verb, outcome="applied", item_ids=("o-1",))
    lines = log.path.read_text().splitlines()
    lines[0] = lines[0].replace('"resolve"', '"forget"')
    log.path.write_text("\n".join(lines) + "\n")

    async def go() -> tuple[str, int, str]:
        app = Host(lambda: LogScreen(project, log))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: any(t.row_count == 3 for t in app.screen.query("#log-table")))
            await app.workers.wait_for_complete()
            await pilot.pause()
            banner = str(app.screen.query_one("#log-chain").render())
            table = app.screen.query_one("#log-table")
            first = str(table.get_row_at(0)[1])
            return banner, table.row_count, first

    banner, rows, newest = asyncio.run(go())
    assert "CHAIN BROKEN" in banner and "line 2" in banner
    assert rows == 3 and newest == "restore"


def test_preview_refused_by_an_unwritable_log(snap_compare) -> None:
    problem = "the action log /state/daimon-tui/actions.jsonl cannot be written: Not a directory (errno 20)"
    assert snap_compare(Host(lambda: PlanPreviewModal(PLANS["resolve"](), log_problem=problem)), terminal_size=SIZE)


def test_retract_checks_daimons_evidence_rules_before_the_preview_and_keeps_the_typing() -> None:
    """Issue 15 point 6: untyped evidence is refused in the modal, with the reason and evidence kept."""
    async def go() -> list:
        got: list = []
        app = Host(lambda: Screen())
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(RetractModal(("o-1",), check=plans.retract_input_refusal), got.append)
            await pilot.pause()
            await pilot.press(*"wrong", "enter", *"see chat", "enter")
            await pilot.pause()
            modal = app.screen
            assert isinstance(modal, RetractModal)
            assert "invalid evidence source" in str(modal.query_one("#verb-error", Label).render())
            assert modal.query_one("#retract-reason", Input).value == "wrong"
            evidence = modal.query_one("#retract-evidence", Input)
            assert evidence.value == "see chat"
            evidence.value = "issue:7"
            await pilot.press("enter")
            await pilot.pause()
        return got

    assert asyncio.run(go()) == [verbs.RetractInput(reason="wrong", evidence=("issue:7",))]


def test_a_withheld_row_and_the_preview_show_the_chosen_status_and_the_note() -> None:
    """Issue 13/15: "merged", not only "resolved"; the note echoed exactly as it will be written (inert)."""
    from daimon_tui.models import Item
    from daimon_tui.ui.screens.verb_modals import plan_text
    from daimon_tui.ui.widgets.item_row import item_row

    item = Item(id="o-1", kind="question", section="open_loops", field="working_context.open_questions",
                text=RETRY_Q, mark="inferred", stored_mark="inferred", state="resolved",
                closing_status="merged", closing_source="ui")
    assert "(resolved: merged via ui)" in item_row(item).plain
    plan = verbs.plan_resolve("demo", [facts()], OK, verbs.ResolveInput(status="merged", note="in [b]1.2[/b]"))
    assert "note: in [b]1.2[/b]" in plan_text(plan).plain
    again = verbs.plan_restore("demo", [facts(lifecycle="resolved", latest=LatestEvent(
        status="merged", source="ui", ts="2026-12-02T10:00:00Z"))], OK)
    assert "[question · resolved: merged]" in plan_text(again).plain


def refused_in_preview(project: ProjectRef, log: ActionLog, item: str,
                       problem_id: str = "#verb-log-problem") -> list[str]:
    """`r`, Enter, then `y` in a preview whose log cannot take the intent: `y` is
    refused there (only close is offered). The app, and the preview's log problem as shown."""
    seen: list[str] = []

    async def script(pilot) -> None:
        await to_preview(pilot)
        # the preview is up before its parts are all mounted: wait for the problem line itself
        await until(pilot, lambda: bool(pilot.app.screen.query(problem_id)))
        seen.append(str(pilot.app.screen.query_one(problem_id).render()))
        await pilot.press("y")  # refused: the preview offers only close
        await pilot.pause(0.1)
        assert isinstance(pilot.app.screen, PlanPreviewModal)
        await pilot.press("n")
        await done(pilot, 1)

    app = drive(project, log, (item,), script)
    assert app.outcomes[0].status == "refused"
    return seen
