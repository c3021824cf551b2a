"""Issue 15: restore from every withheld state, then undo it, end to end
through `run_verb`, re-reading daimon's own verdict after the write and after
the undo; the action log's record shape per verb; undo that names what it
undoes and refuses over a newer record."""

from __future__ import annotations

import asyncio
from pathlib import Path

from daimon_briefing import api, store, trust, view
from daimon_briefing.surfaces import Writer

from daimon_tui.domain import verbs
from daimon_tui.store.action_log import ActionLog
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import plans, writer
from daimon_tui.ui.log.screen import LogScreen
from daimon_tui.ui.queue.screen import QueueScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal, ReverifyModal
from daimon_tui.ui.verb_flow import _resolve_input
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.ui.test_verb_modals import (
    NIGHTLY,
    QUARANTINED_U,
    RESOLVED_Q,
    RETRY_Q,
    SIZE,
    Host,
    done,
    drive,
    on_screen,
)

NOW = demo.DEMO_NOW.timestamp()


def lookup(demo_store, item_id: str):
    return api.lookup(str(demo_store.project), item_id)


def lifecycle(demo_store, item_id: str) -> str:
    return view.lineage(str(demo_store.project), item_id).lifecycle


def restore_then_undo(demo_store, log: ActionLog, item: str):
    async def script(pilot) -> None:
        await pilot.press("u")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)
        pilot.app.after_restore = lookup(demo_store, item)  # type: ignore[attr-defined]
        await pilot.press("z")
        await on_screen(pilot, PlanPreviewModal)
        pilot.app.undo_plan = pilot.app.screen.plan  # type: ignore[attr-defined]
        await pilot.press("y")
        await done(pilot, 2)

    return drive(ref(demo_store), log, (item,), script)


def assert_line_shape(entry, verb: str, items: tuple[str, ...], ops: list[tuple[str, str, str | None]]) -> None:
    """One log line: its verb, the items its records touched, and per record
    (op, ledger, status) from the closed vocabulary."""
    assert entry.verb == verb and entry.item_ids == items
    assert [(r.op, r.ledger, r.status) for r in entry.records] == ops
    for record in entry.records:
        if record.outcome == "applied":
            assert verbs.log_status_allowed(record.op, record.status), record


def test_restore_and_undo_a_person_resolution(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[RESOLVED_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    assert lifecycle(demo_store, item) == "resolved"
    app = restore_then_undo(demo_store, log, item)
    assert [o.status for o in app.outcomes] == ["applied", "applied"]
    assert isinstance(app.after_restore, view.Found)
    assert lifecycle(demo_store, item) == "resolved"
    assert isinstance(lookup(demo_store, item), view.Found) and api.why(str(demo_store.project), item)[
        "axes"]["lifecycle"] == "resolved"
    restore, undo = log.entries()
    assert_line_shape(restore, "restore", (item,), [("reopen", "events.jsonl", "reopened")])
    assert restore.records[0].undid == "resolved"
    assert_line_shape(undo, "undo", (item,), [("resolve", "events.jsonl", "resolved")])
    assert undo.undoes == restore.action_id


def test_restore_and_undo_a_quarantine_made_by_the_app(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[QUARANTINED_U]
    log = ActionLog(tmp_path / "actions.jsonl")
    looked = lookup(demo_store, item)
    assert isinstance(looked, view.Withheld) and looked.reason == "quarantine"
    qid = looked.quarantine_id
    app = restore_then_undo(demo_store, log, item)
    assert [o.status for o in app.outcomes] == ["applied", "applied"]
    assert isinstance(app.after_restore, view.Found)
    # the undo re-proposes the same value: daimon's quarantine id is keyed by value, so it is active again
    assert trust.get(qid, project_dir=str(demo_store.project))["state"] == "active"
    again = lookup(demo_store, item)
    assert isinstance(again, view.Withheld) and again.reason == "quarantine"
    restore, undo = log.entries()
    assert_line_shape(restore, "restore", (item,), [("release", "trust.jsonl", "released")])
    assert restore.records[0].ref == qid
    assert_line_shape(undo, "undo", (item,), [("quarantine", "trust.jsonl", "quarantined")])


def test_restore_and_undo_a_quarantine_made_by_daimon_trust(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[NIGHTLY]
    kind = plans.item_facts(ref(demo_store), item).kind
    qid = str(trust.propose(text=NIGHTLY, kind=kind, reason="never decided", evidence=["issue:7"],
                            channel="cli-tty", item_id=item, project_dir=str(demo_store.project)))
    looked = lookup(demo_store, item)
    assert isinstance(looked, view.Withheld) and looked.quarantine_id == qid
    log = ActionLog(tmp_path / "actions.jsonl")
    app = restore_then_undo(demo_store, log, item)
    assert [o.status for o in app.outcomes] == ["applied", "applied"]
    assert isinstance(app.after_restore, view.Found)
    record = trust.get(qid, project_dir=str(demo_store.project))
    assert record["state"] == "active" and record["activation_channel"] == "ui"
    again = lookup(demo_store, item)
    assert isinstance(again, view.Withheld) and again.reason == "quarantine"
    assert_line_shape(log.entries()[0], "restore", (item,), [("release", "trust.jsonl", "released")])


def test_restore_a_forgotten_item_lifts_it_and_undo_refuses_naming_the_lift(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[NIGHTLY]
    assert writer.forget_item(item, item, project=ref(demo_store)).outcome == "applied"
    assert item in store.project_standing(str(demo_store.project)).get(
        next(iter(store.project_standing(str(demo_store.project)))), store.Standing()).ids
    log = ActionLog(tmp_path / "actions.jsonl")

    async def script(pilot) -> None:
        await pilot.press("u")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)
        await pilot.press("z")
        await done(pilot, 2)

    app = drive(ref(demo_store), log, (item,), script)
    lifted, undo = app.outcomes
    assert lifted.status == "applied" and lifted.results[0].op == "unforget"
    assert store.project_standing(str(demo_store.project)) == {}
    assert isinstance(lookup(demo_store, item), view.Absent)  # the content does not come back
    assert undo.status == "refused" and "restore of " + item in undo.message
    restore, refused = log.entries()
    # one record per row daimon's lift wrote (the id and the key ref), in daimon's word
    assert_line_shape(restore, "restore", (item,), [("unforget", "events.jsonl", "reopened:unforget")] * 2)
    # a refused `z` is a refusal, not an undo row
    assert refused.verb == "undo" and refused.outcome == "refused" and refused.undoes is None


def test_restore_and_undo_a_superseded_item(demo_store, tmp_path: Path) -> None:
    item = ids(demo_store.project)[NIGHTLY]
    status = "superseded-by:o-0123456789ab"  # a substitute that is not live
    assert store.append_event(item, status, source="cli", project_dir=str(demo_store.project),
                              writer=Writer.HUMAN)
    assert lifecycle(demo_store, item) == "superseded"
    log = ActionLog(tmp_path / "actions.jsonl")
    app = restore_then_undo(demo_store, log, item)
    assert [o.status for o in app.outcomes] == ["applied", "applied"]
    assert isinstance(app.after_restore, view.Found)
    assert lifecycle(demo_store, item) == "superseded"
    assert [(r["status"], r["source"]) for r in events(demo_store) if r["item_ref"] == item] == [
        (status, "cli"), ("reopened", "ui"), (status, "ui")]
    restore, undo = log.entries()
    assert restore.records[0].undid == status
    assert_line_shape(undo, "undo", (item,), [("resolve", "events.jsonl", status)])


def test_log_lines_for_resolve_retract_reverify_and_forget(demo_store, tmp_path: Path) -> None:
    table = ids(demo_store.project)
    log = ActionLog(tmp_path / "actions.jsonl")
    p = ref(demo_store)

    async def script(pilot) -> None:
        await pilot.press("F")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press(*table[NIGHTLY], "enter")
        await done(pilot, 1)

    drive(p, log, (table[NIGHTLY],), script)
    forget = log.entries()[0]
    # a forget was logged as `status: resolved` before; now one record per row
    # daimon wrote (the id row, then the key row), each in daimon's word
    tomb = [r["status"] for r in events(demo_store) if r["status"].startswith("forgotten:")]
    assert len(tomb) == 2 and len(set(tomb)) == 1
    assert_line_shape(forget, "forget", (table[NIGHTLY],), [("forget", "events.jsonl", tomb[0])] * 2)

    async def reverify(pilot) -> None:
        await pilot.press("v")
        await on_screen(pilot, ReverifyModal)
        await pilot.press(*"checked the docs", "enter")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)

    drive(p, log, (table[RESOLVED_Q],), reverify)
    assert_line_shape(log.entries()[1], "reverify", (table[RESOLVED_Q],),
                      [("reverify", "events.jsonl", "reopened")])


def test_undo_after_a_reverify_names_the_older_resolve_it_undoes(demo_store, tmp_path: Path) -> None:
    """Issue 15 point 2: `z` after a reverify used to open a bare preview for an older resolve."""
    table = ids(demo_store.project)
    log = ActionLog(tmp_path / "actions.jsonl")
    p = ref(demo_store)
    first = writer.resolve(table[RETRY_Q], "merged", project=p)
    resolve = log.record(project=p.slug, verb="resolve", outcome="applied", item_ids=(table[RETRY_Q],),
                         records=verbs.logged_records(first))
    again = writer.reverify(table[RESOLVED_Q], "checked", project=p)
    reverify = log.record(project=p.slug, verb="reverify", outcome="applied", item_ids=(table[RESOLVED_Q],),
                          records=verbs.logged_records(again))

    async def script(pilot) -> None:
        await pilot.press("z")
        await on_screen(pilot, PlanPreviewModal)
        pilot.app.undo_plan = pilot.app.screen.plan  # type: ignore[attr-defined]
        pilot.app.undo_hint = str(pilot.app.screen.query_one("#verb-hint").render())  # type: ignore[attr-defined]
        await pilot.press("n")
        await done(pilot, 1)

    app = drive(p, log, (table[NIGHTLY],), script)  # the cursor is on a third, unrelated item
    plan = app.undo_plan
    assert plan.undoes == resolve.action_id
    assert plan.warnings[0] == f"undoes: resolve of {table[RETRY_Q]} at {resolve.time} ({resolve.action_id})"
    assert f"reverify of {table[RESOLVED_Q]} at {reverify.time} ({reverify.action_id})" in plan.warnings[1]
    assert [w.item_id for w in plan.writes] == [table[RETRY_Q]]
    assert plan.steps_over == (reverify.action_id,)
    assert app.undo_hint.startswith("y undo the OLDER action named above")


def test_undo_refuses_over_a_concurrent_verdict_by_daimons_own_writer(demo_store, tmp_path: Path) -> None:
    """#16 point 4: the undo names daimon's newer record instead of reopening over it."""
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "actions.jsonl")
    p = ref(demo_store)

    async def resolve(pilot) -> None:
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await on_screen(pilot, PlanPreviewModal)
        await pilot.press("y")
        await done(pilot, 1)

    drive(p, log, (item,), resolve)
    ours = [r for r in events(demo_store) if r["item_ref"] == item][-1]
    writer.DEFAULT_TIMING.wait_past(ours["ts"])
    assert store.append_event(item, "done", source="cli", project_dir=str(demo_store.project),
                              writer=Writer.HUMAN)
    before = len(events(demo_store))

    async def undo(pilot) -> None:
        await pilot.press("z")
        await done(pilot, 1)

    app = drive(p, log, (item,), undo)
    refused = app.outcomes[0]
    assert refused.status == "refused" and refused.refusals[0].code == "newer-record"
    assert "'done' from 'cli'" in refused.message
    assert len(events(demo_store)) == before
    assert lifecycle(demo_store, item) == "resolved"
    assert log.entries()[-1].item_ids == (item,) and log.entries()[-1].reason == "newer-record"


def _logged_resolve(demo_store, log: ActionLog, text: str, status: str = "merged"):
    p = ref(demo_store)
    item = ids(demo_store.project)[text]
    result = writer.resolve(item, status, project=p)
    return item, log.record(project=p.slug, verb="resolve", outcome="applied", item_ids=(item,),
                            records=verbs.logged_records(result))


async def _until(pilot, check, tries: int = 300) -> None:
    for _ in range(tries):
        await pilot.pause(0.02)
        if check():
            return
    raise AssertionError("condition not reached")


def test_z_on_a_log_row_undoes_that_action_through_its_preview(demo_store, tmp_path: Path) -> None:
    """The Log row under the cursor is undone, not the last action (here an older resolve)."""
    log = ActionLog(tmp_path / "actions.jsonl")
    older, first = _logged_resolve(demo_store, log, RETRY_Q)
    newer, _second = _logged_resolve(demo_store, log, NIGHTLY, "done")

    async def go():
        app = Host(lambda: LogScreen(ref(demo_store), log))
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: app.screen.query_one("#log-table").row_count == 2)
            await pilot.press("down", "z")  # the second row: the older resolve (Enter opens its item)
            await _until(pilot, lambda: isinstance(app.screen, PlanPreviewModal))
            plan = app.screen.plan
            await pilot.press("y")
            await _until(pilot, lambda: len(log.entries()) == 3 and not log.pending())  # written and settled
            await pilot.press("z")  # the same row again: already undone, refused with its name
            await _until(pilot, lambda: len(log.entries()) == 4)
            return plan

    plan = asyncio.run(go())
    assert plan.undoes == first.action_id and [w.item_id for w in plan.writes] == [older]
    assert plan.warnings[0].startswith(f"undoes: resolve of {older}")
    assert lifecycle(demo_store, older) == "active" and lifecycle(demo_store, newer) == "resolved"
    undo, again = log.entries()[2:]
    assert_line_shape(undo, "undo", (older,), [("reopen", "events.jsonl", "reopened")])
    assert again.outcome == "refused" and again.reason == "already-undone"


def test_z_in_the_queue_undoes_the_last_action(demo_store, tmp_path: Path) -> None:
    log = ActionLog(tmp_path / "actions.jsonl")
    item, _entry = _logged_resolve(demo_store, log, RETRY_Q)

    async def go() -> None:
        app = Host(lambda: QueueScreen(ref(demo_store), now=NOW, log=log, world_check=False))
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: app.screen.state.queue is not None)
            await pilot.press("z")
            await _until(pilot, lambda: isinstance(app.screen, PlanPreviewModal))
            await pilot.press("y")
            await _until(pilot, lambda: len(log.entries()) == 2 and not log.pending())

    asyncio.run(go())
    assert lifecycle(demo_store, item) == "active"
    assert_line_shape(log.entries()[1], "undo", (item,), [("reopen", "events.jsonl", "reopened")])


def test_batch_resolve_keeps_each_items_own_status_unless_another_is_chosen() -> None:
    """Issue 15 point 5: the cursor's prefilled `gone` is not applied to every marked item."""
    own = {"o-aaaaaa": "gone", "o-bbbbbb": "resolved"}
    kept = _resolve_input(verbs.ResolveInput(status="gone"), "gone", own, frozenset({"o-bbbbbb"}))
    assert kept.per_item == own and kept.world_confirmed == frozenset({"o-bbbbbb"})
    chosen = _resolve_input(verbs.ResolveInput(status="done"), "gone", own, frozenset())
    assert chosen.per_item == {} and chosen.status == "done"
