"""The last item view kept (issue 41: warm `o` at 1 MB, key to frame): `o`
again on the same item shows the view closed last, as a fresh open would
show it, while nothing it read has changed; anything changed, it is built
fresh. At most one is kept, let go when the store changes; it stays through the
app's rest."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.demo import transcripts as demo_transcripts
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.item.kept_view import kept_view
from daimon_tui.ui.item.screen import ItemScreen
from daimon_tui.ui.widgets.evidence import EvidencePanel
from tests.transcript_store import transcript_store
from tests.ui.settle import settle, wait_until
from tests.ui.test_evidence import RETRY, RETRY_FILE, shown, to_item

NOW = demo.DEMO_NOW.timestamp()
SIZE = (140, 40)


@pytest.fixture
def store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root) as st:
        yield st


def screen_text(app: DaimonTUI) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


async def open_item(app: DaimonTUI, pilot) -> ItemScreen:  # type: ignore[no-untyped-def]
    """`o`, and the view settled: its turns, the witnesses' words and the world's evidence painted."""
    await pilot.press("o")
    await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), what="the item view")
    view = app.screen
    assert isinstance(view, ItemScreen)
    panel = view.query_one(EvidencePanel)
    await wait_until(pilot, lambda: "▶ user" in shown(panel) and "Witnesses' own words" in shown(panel),
                     what="the turns and the witnesses")
    await settle(pilot, rounds=6)
    return view


async def close(app: DaimonTUI, pilot, briefing: BriefingScreen) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.screen is briefing, what="the briefing")
    await settle(pilot)


async def test_o_again_shows_the_kept_view_exactly_as_a_fresh_open(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        view = await open_item(app, pilot)
        fresh = screen_text(app)
        await pilot.press("j", "j", "j")  # the person scrolled before closing
        await settle(pilot)
        assert view.query_one("#item-full").scroll_y > 0
        await close(app, pilot, briefing)
        again = await open_item(app, pilot)
        assert again is view  # shown again, not built
        assert again.query_one("#item-full").scroll_y == 0  # where a fresh open starts
        assert screen_text(app) == fresh
        # Esc still closes it as before, and `q` too.
        await close(app, pilot, briefing)
        again = await open_item(app, pilot)
        await pilot.press("q")
        await wait_until(pilot, lambda: app.screen is briefing, what="the briefing after q")
        assert app.is_running


async def test_another_item_builds_its_own_view_and_at_most_one_is_kept(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        first = await open_item(app, pilot)
        await close(app, pilot, briefing)
        await pilot.press("j")
        await settle(pilot)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), what="the other item's view")
        other = app.screen
        assert other is not first and other.item.id != first.item.id  # type: ignore[attr-defined]
        await settle(pilot)
        await close(app, pilot, briefing)
        assert kept_view(app).view is other
        assert not first.is_attached  # the one before is let go
        assert [s for s in app._installed_screens.values() if isinstance(s, ItemScreen)] == [other]


async def test_an_answer_for_a_closed_showing_is_dropped(store: demo.DemoStore,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The world's evidence asked for the first showing lands after Esc: the hidden view
    does not paint it (a showing's answers carry its number)."""
    from daimon_tui.services import evidence as evidence_service

    release, armed = asyncio.Event(), asyncio.Event()
    real = evidence_service.world_evidence

    async def held(root, item):  # type: ignore[no-untyped-def]
        if armed.is_set():  # the item view's read, not the pane's
            await release.wait()
        return await real(root, item)

    monkeypatch.setattr(evidence_service, "world_evidence", held)
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        armed.set()
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), what="the item view")
        view = app.screen
        panel = view.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "▶ user" in shown(panel), what="the turns")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is briefing, what="the briefing")
        before = panel.content
        release.set()
        await settle(pilot, rounds=6)
        assert kept_view(app).view is view
        assert panel.content is before  # dropped: meant for the showing that closed


async def test_a_verb_while_hidden_builds_the_view_fresh(store: demo.DemoStore) -> None:
    """A real daimon write through our verbs (resolve, then undo: the item is listed again)
    while the view is hidden: `o` builds it fresh, never the kept text."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        view = await open_item(app, pilot)
        await close(app, pilot, briefing)
        assert await open_item(app, pilot) is view  # nothing changed: kept
        await close(app, pilot, briefing)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=6)
        await pilot.press("z")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, rounds=8)
        briefing = await to_item(pilot, RETRY)
        again = await open_item(app, pilot)
        assert again is not view and not view.is_attached  # a new briefing: built fresh, the old one let go


async def test_a_changed_checkpoint_or_transcript_builds_the_view_fresh(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        view = await open_item(app, pilot)
        await close(app, pilot, briefing)
        # The checkpoint rewritten as it was, a new mtime: the turns were masked against the old one.
        latest = sorted(store.checkpoint_dir.glob("*/latest.json"))[0]
        stat = latest.stat()
        latest.write_text(json.dumps(json.loads(latest.read_text(encoding="utf-8"))), encoding="utf-8")
        os.utime(latest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        again = await open_item(app, pilot)
        assert again is not view
        await close(app, pilot, briefing)
        # The item's transcript grown while hidden.
        path = demo_transcripts.transcript_path("S-day3")
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n")
        third = await open_item(app, pilot)
        assert third is not again


async def test_the_kept_view_stays_through_the_rest_when_memory_goes_back(store: demo.DemoStore) -> None:
    """Back to an item after reading the briefing past the rest (5 s) is a warm `o`: the view is shown
    again, not built (what it holds is bounded: nine turns of 20,000 characters at most)."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        view = await open_item(app, pilot)
        await close(app, pilot, briefing)
        app.heap.at_rest.active()
        app.heap.at_rest.last -= 60  # rested long enough
        assert app.heap.at_rest.tick()
        await settle(pilot)
        assert kept_view(app).view is view
        assert await open_item(app, pilot) is view


async def test_shown_again_it_paints_at_once_what_it_showed_when_all_of_it_stands(store: demo.DemoStore) -> None:
    """The turns, the witnesses' words (their transcripts as they were) and a world of nothing
    (the item names no file): on screen with the key, no new layout, no "reading…"."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY)
        view = await open_item(app, pilot)
        panel = view.query_one(EvidencePanel)
        content = panel.content
        await close(app, pilot, briefing)
        briefing.action_open_item()  # the key's action, no frame in between
        assert app.screen_stack[-1] is view
        assert panel.content is content and panel.painted_at is not None


async def test_a_named_file_changed_while_hidden_is_never_shown_as_it_was(store: demo.DemoStore) -> None:
    """The world's evidence is read again for each showing: the old lines of a file the
    item names are not painted again, the new ones are."""
    demo.init_repo(store.project)
    named = store.project / "src" / "upload" / "retry.py"
    named.write_text("RETRY_MAX = 7\n")
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        briefing = await to_item(pilot, RETRY_FILE)
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), what="the item view")
        view = app.screen
        panel = view.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "RETRY_MAX = 7" in shown(panel), what="the file")
        await settle(pilot, rounds=6)
        await close(app, pilot, briefing)
        named.write_text("RETRY_MAX = 9\n")
        briefing.action_open_item()
        assert app.screen_stack[-1] is view  # its turns still stand: shown again
        assert "RETRY_MAX = 7" not in shown(panel)
        await wait_until(pilot, lambda: "RETRY_MAX = 9" in shown(panel), what="the file as it is now")
