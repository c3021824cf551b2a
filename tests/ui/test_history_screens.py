"""History screens: snapshots at a fixed size with stable data only (no
wall-clock event time), and the keys that drive them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable

from daimon_tui.models import Briefing, Item, ProjectRef, Section
from daimon_tui.models.history import Demotion, SessionHold, Timeline, TimelineEvent, Witness, WitnessReport
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.ui.history.screen import DiffScreen, HistoricalScreen, HistoryScreen, SessionScreen
from daimon_tui.ui.widgets.timeline import TimelineView
from daimon_tui.ui.widgets.witnesses import WitnessList

SIZE = (120, 36)
STYLES = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "styles").glob("*.tcss"))

RESOLUTION = Demotion(
    kind="resolution", ts="2026-12-02T10:00:00Z", status="resolved", source="ui", note="done"
)
REPORT = WitnessReport(
    item_id="o-eab53c8845ea",
    witnesses=(
        Witness(
            session_id="S-day2",
            ts="2026-11-27T09:00:05Z",
            source="serializer",
            counts=False,
            reset_by=RESOLUTION,
            session_retained=True,
            quote="retry on 429 with exponential backoff",
        ),
        Witness(
            session_id="S-day3",
            ts="2026-12-01T09:00:05Z",
            source="serializer",
            counts=False,
            reset_by=RESOLUTION,
            session_retained=False,
        ),
    ),
    demotions=(RESOLUTION,),
    latest_demotion_ts="2026-12-02T10:00:00Z",
    counted=0,
    badge=1,
    item_quote="retry on 429 with \x1b[31mexponential\x1b[0m backoff",
)
TIMELINE = Timeline(
    item_id="o-eab53c8845ea",
    events=(
        TimelineEvent(
            ts="2026-12-02T10:00:00Z", kind="resolution", status="resolved", source="ui", note="done [b]x[/b]"
        ),
        TimelineEvent(
            ts="2026-12-02T10:00:01Z",
            kind="resolution",
            status="reopened",
            source="ui",
            note=None,
            decides=True,
        ),
    ),
    sessions=(
        SessionHold(
            ref="latest", session_id="S-day3", created="2026-12-01T09:00:00Z", stated=True, trust="verbatim"
        ),
        SessionHold(
            ref="prev-1",
            session_id="S-day2",
            created="2026-11-27T09:00:00Z",
            stated=False,
            carried_from="S-day1",
        ),
    ),
    lifecycle="active",
    decided_by="reopened at 2026-12-02T10:00:01Z via ui",
)


class Host(App[None]):
    CSS_PATH = STYLES

    def __init__(self, *, screen: Screen | None = None, widgets: tuple[Widget, ...] = ()) -> None:
        super().__init__()
        self._start = screen
        self._widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self._widgets

    def on_mount(self) -> None:
        if self._start is not None:
            self.push_screen(self._start)


async def _settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _ref(store: demo.DemoStore) -> ProjectRef:
    # A fixed display name: the temporary path differs per run.
    return reader.resolve_project(str(store.project)).model_copy(update={"name": "proj"})


def test_witness_list_snapshot(snap_compare) -> None:
    assert snap_compare(Host(widgets=(WitnessList(REPORT),)), terminal_size=SIZE)


def test_timeline_snapshot(snap_compare) -> None:
    assert snap_compare(Host(widgets=(TimelineView(TIMELINE),)), terminal_size=SIZE)


def test_history_list_snapshot(snap_compare, demo_store: demo.DemoStore) -> None:
    app = Host(screen=HistoryScreen(_ref(demo_store)))
    assert snap_compare(app, terminal_size=SIZE, run_before=_settle)


def test_diff_view_snapshot(snap_compare, demo_store: demo.DemoStore) -> None:
    app = Host(screen=DiffScreen(_ref(demo_store), "S-day1", "S-day2"))
    assert snap_compare(app, terminal_size=SIZE, run_before=_settle)


async def _fixed_briefing(project: ProjectRef, when: str) -> Briefing:
    item = Item(
        id="o-eab53c8845ea",
        kind="question",
        section="open_loops",
        field="open_questions",
        text="Should uploads retry on HTTP 429 with exponential backoff?",
        mark="verbatim",
        stored_mark="verbatim",
    )
    return Briefing(
        project=project,
        state="briefing",
        session_id="S-day2",
        created="2026-11-27T09:00:00Z",
        sections=(Section(key="open_loops", title="Open loops", items=(item,)),),
    )


def test_historical_banner_snapshot(snap_compare) -> None:
    screen = HistoricalScreen(
        ProjectRef(slug="proj", name="proj"), "2026-11-27T09:00:00Z", loader=_fixed_briefing
    )
    assert snap_compare(Host(screen=screen), terminal_size=SIZE, run_before=_settle)


def test_mark_and_diff_opens_daimons_rows(demo_store: demo.DemoStore) -> None:
    # no async pytest plugin here: run the pilot in this context (the sandbox follows)
    asyncio.run(_mark_and_diff_opens_daimons_rows(demo_store))


async def _mark_and_diff_opens_daimons_rows(demo_store: demo.DemoStore) -> None:
    app = Host(screen=HistoryScreen(_ref(demo_store)))
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert [r.session_id for r in screen.state.rows] == ["S-day3", "S-day2", "S-day1"]
        await pilot.press("space")  # mark S-day3
        assert screen.state.marked == "S-day3"
        await pilot.press("j", "j", "d")  # cursor on S-day1
        await _settle(pilot)
        diff = app.screen
        assert isinstance(diff, DiffScreen) and (diff.older, diff.newer) == ("S-day1", "S-day3")
        table = diff.query_one(DataTable)
        changes = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert changes.count("added") == 6 and "withheld" in changes
        # Issue 40 point 10: 7-character ids that `daimon resolve` would not take; each id can be pasted
        shown = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert shown == [i or "—" for i in diff.state.item_ids]
        assert all(re.fullmatch(r"[a-z]-[0-9a-f]{6,40}(?:-[0-9]+)?", i) for i in shown if i != "—"), shown


def test_as_of_picker_opens_the_historical_view_without_verbs(demo_store: demo.DemoStore) -> None:
    # no async pytest plugin here: run the pilot in this context (the sandbox follows)
    asyncio.run(_as_of_picker_opens_the_historical_view_without_verbs(demo_store))


async def _as_of_picker_opens_the_historical_view_without_verbs(demo_store: demo.DemoStore) -> None:
    app = Host(screen=HistoryScreen(_ref(demo_store)))
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("j", "@")  # cursor on S-day2, picker prefilled with it
        await pilot.pause()
        await pilot.press("enter")
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoricalScreen)
        assert screen.briefing is not None and screen.briefing.session_id == "S-day2"
        for action in ("verb", "mark", "world_check"):
            assert screen.check_action(action, ()) is False


def test_enter_opens_a_session_read_only(demo_store: demo.DemoStore) -> None:
    # no async pytest plugin here: run the pilot in this context (the sandbox follows)
    asyncio.run(_enter_opens_a_session_read_only(demo_store))


async def _enter_opens_a_session_read_only(demo_store: demo.DemoStore) -> None:
    app = Host(screen=HistoryScreen(_ref(demo_store)))
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        await pilot.press("j", "j", "enter")
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, SessionScreen) and screen.briefing is not None
        assert screen.briefing.session_id == "S-day1"
        texts = {r.item.text for r in screen.rows if r.item}
        assert "Whether gzip uploads count twice against quota" in texts
        assert screen.check_action("verb", ("resolve",)) is False
