"""Verbs from the briefing screen, end to end through daimon's own records."""

from __future__ import annotations

from pathlib import Path

from daimon_briefing import api, store, view

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.write import writer
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from tests.daimon_records import events, project_ref
from tests.daimon_records import item_ids as ids
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()
QUARANTINED_U = "Whether the CDN caches 429 responses from the upload API"
NIGHTLY = "Switch the nightly job to its own bucket prefix"



async def test_resolve_from_the_briefing_then_undo(demo_store: demo.DemoStore, private_action_log: Path) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        target = screen.current_item()
        assert target is not None and target.id
        await pilot.press("r")
        await settle(pilot)
        # Resolve modal: accept the default status, then confirm the preview.
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)
        assert isinstance(app.screen, BriefingScreen)
        rows = [e for e in events(demo_store) if e.get("item_ref") == target.id]
        assert rows and rows[-1]["status"] == "resolved" and rows[-1]["source"] == "ui"
        assert target.text not in api.render_briefing(str(demo_store.project), now=NOW).text
        assert target.id not in {i.id for i in app.screen.briefing.items()}
        await pilot.press("z")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=8)
        rows = [e for e in events(demo_store) if e.get("item_ref") == target.id]
        assert [r["status"] for r in rows[-2:]] == ["resolved", "reopened"]
        assert target.text in api.render_briefing(str(demo_store.project), now=NOW).text
    log = private_action_log.read_text()
    # two actions, each an intent line before daimon's write and an outcome line after
    assert target.text not in log and len(log.splitlines()) == 4


async def _to_withheld(pilot, screen: BriefingScreen, item_id: str) -> None:
    for _ in range(80):
        row = screen.current_row()
        if row is not None and row.withheld is not None and row.withheld.id == item_id:
            return
        await pilot.press("j")
        await pilot.pause()
    raise AssertionError(f"no withheld row {item_id}")


async def test_u_on_a_quarantined_withheld_row_releases_it(demo_store: demo.DemoStore) -> None:
    """Issue 15 point 1: `u` on a withheld row said "restore: no item selected"."""
    item = ids(demo_store.project)[QUARANTINED_U]
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("h")
        await settle(pilot)
        await _to_withheld(pilot, screen, item)
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        await pilot.press("y")
        await settle(pilot, rounds=8)
    assert isinstance(api.lookup(str(demo_store.project), item), view.Found)
    assert QUARANTINED_U in api.render_briefing(str(demo_store.project), now=NOW).text


async def test_forgotten_rows_are_listed_and_marked_rows_restore_as_a_batch(demo_store: demo.DemoStore) -> None:
    """Forgotten items come from daimon's tombstones (no text); space marks withheld rows too."""
    table = ids(demo_store.project)
    gone, held = table[NIGHTLY], table[QUARANTINED_U]
    assert writer.forget_item(gone, gone, project=project_ref(demo_store)).outcome == "applied"
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await pilot.press("h")
        await settle(pilot)
        forgotten = [r.withheld for r in screen.rows if r.withheld and r.withheld.state == "forgotten"]
        assert [w.id for w in forgotten] == [gone] and forgotten[0].when
        assert forgotten[0].kind == "decision"  # from the id daimon minted; there is no text
        for target in (held, gone):  # daimon's withheld rows come first, then the tombstones
            await _to_withheld(pilot, screen, target)
            await pilot.press("space")
            await pilot.pause()
        assert set(screen.target_ids()) == {gone, held}
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, PlanPreviewModal)
        assert sorted(w.op for w in app.screen.plan.writes) == ["release", "unforget"]
        await pilot.press("y")
        await settle(pilot, rounds=8)
    assert store.project_standing(str(demo_store.project)) == {}
    assert isinstance(api.lookup(str(demo_store.project), held), view.Found)


async def test_after_a_verb_only_a_trust_write_repaints_before_daimon_confirms(
        demo_store: demo.DemoStore, monkeypatch) -> None:
    # a resolution's events rows are on screen as the live watch applies them: the screen waits
    # for daimon's confirmation, without reading the whole briefing provisionally again first
    loads: list[bool] = []
    load = BriefingScreen.load

    def recorded(self: BriefingScreen, repaint: bool = True, delay: float = 0.0, **kw: object) -> object:
        loads.append(repaint)
        return load(self, repaint, delay, **kw)

    monkeypatch.setattr(BriefingScreen, "load", recorded)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        target = screen.current_item()
        for keys in (("r", "enter"), ("x",)):  # resolve (events), then retract (trust)
            loads.clear()
            await pilot.press(*keys)
            await settle(pilot)
            if keys == ("x",):
                await pilot.press(*"wrong")
                await pilot.press("tab", *"issue:1", "enter")
                await settle(pilot)
            assert isinstance(app.screen, PlanPreviewModal)
            await pilot.press("y")
            await settle(pilot, rounds=6)
            assert loads and loads[0] is (keys == ("x",)), (keys, loads)
            assert not screen.provisional
        assert target is not None and target.id not in {i.id for i in screen.briefing.items()}


async def test_an_undo_toast_never_names_the_row_under_the_cursor_for_the_item_it_undid(
        demo_store: demo.DemoStore, monkeypatch) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    told: list[str] = []
    notify = app.notify
    monkeypatch.setattr(app, "notify", lambda message, *a, **kw: told.append(str(message)) or notify(message, *a, **kw))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        resolved = screen.current_item()
        assert resolved is not None and resolved.id
        await pilot.press("r", "enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)
        under_cursor = screen.current_item()
        assert under_cursor is not None and under_cursor.id != resolved.id
        told.clear()
        await pilot.press("z")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)
    said = next(m for m in told if "now says" in m)
    # the undone item, by its id and its own text (held among the resolved ones)
    assert resolved.id in said and resolved.text[:30] in said and under_cursor.text[:30] not in said, said
