"""Issue 27: the review remembers where the person stopped, under Pilot."""

from __future__ import annotations

from datetime import timedelta

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.review_place import review_path
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.review import DWELL_S
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.daimon_cli import daimon
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


class FakeClock:
    """The dwell's clock, moved by the test instead of sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def header(screen: BriefingScreen) -> str:
    return str(screen.query_one("#briefing-header").render())


async def open_app(pilot_app: DaimonTUI, pilot) -> BriefingScreen:
    await settle(pilot, rounds=4)
    screen = pilot_app.screen
    assert isinstance(screen, BriefingScreen)
    await wait_until(pilot, lambda: screen.review.header() is not None, what="the review's header")
    return screen


async def read_every_row(pilot, screen: BriefingScreen, clock: FakeClock) -> None:
    """Rest on each row long enough (the clock moves, nobody sleeps), then move on."""
    for seen in range(1, len(screen.rows) + 1):
        await settle(pilot, rounds=1)
        await wait_until(pilot, lambda: screen.review._resting is not None, what="the detail at rest")
        clock.now += DWELL_S + 0.1
        if seen == len(screen.rows):
            screen.review.leave()  # the last row: the cursor leaves the list (the app quits)
            break
        await pilot.press("j")


def new_keys(screen: BriefingScreen) -> dict[str, str]:
    return dict(screen.review.left())


async def test_first_open_everything_new_then_nothing_after_reading(demo_store: demo.DemoStore) -> None:
    clock = FakeClock()
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = clock  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        total = len(screen.briefing.items())
        assert f"{total} new since your last review" in header(screen)
        assert set(new_keys(screen).values()) == {"new"}
        assert screen.query_one("#items-box").border_title == f"0 of {total} reviewed"
        await read_every_row(pilot, screen, clock)
        await settle(pilot)
        assert "nothing new since your last review" in header(screen)
        assert screen.query_one("#items-box").border_title == f"{total} of {total} reviewed"
    path = review_path(app.project.slug)
    assert path.is_file()
    text = path.read_text()
    assert all(i.text not in text for i in screen.briefing.items())  # ids and hashes only
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        assert "nothing new since your last review" in header(screen)


async def reopen(store: demo.DemoStore, clock: FakeClock | None = None) -> tuple[dict[str, str], str, int]:
    """Open the app on the store and return what is new, the header and the rows."""
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    app.review_clock = clock or FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        await pilot.press("h")
        await settle(pilot)
        return new_keys(screen), header(screen), len(screen.rows)


async def mark_all(store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        await pilot.press("h")  # the withheld rows too
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        assert "nothing new since your last review" in header(screen)


async def test_a_daimon_cli_verb_and_a_new_session_are_new_with_what_changed(demo_store: demo.DemoStore) -> None:
    from tests.daimon_records import item_ids

    await mark_all(demo_store)
    day4 = demo.session("S-day4", demo.DEMO_NOW - timedelta(hours=1), "Retry policy rollout")
    day4["working_context"]["open_questions"] = [{"text": "Who owns the upload dashboards?", "trust": "inferred"}]
    demo.seed(demo_store.project, day4)  # a new session, by daimon's own testing helpers
    ids = item_ids(demo_store.project)
    nightly = ids["Switch the nightly job to its own bucket prefix"]
    assert daimon("resolve", nightly, "--project", str(demo_store.project)) == 0
    new, head, _rows = await reopen(demo_store)
    assert new[nightly].startswith("now resolved")
    assert new[ids["Who owns the upload dashboards?"]] == "new"
    # carried on: S-day4 did not restate it
    assert "+⟳ carried" in new[ids["Ship the retry change behind the UPLOAD_RETRY flag"]]
    assert f"{len(new)} new since your last review" in head


async def test_forget_rewrites_the_ledgers_and_only_its_row_changes(demo_store: demo.DemoStore) -> None:
    """daimon's forget scrubs ledgers and session files: the review, keyed by
    id, survives it; only the forgotten row is new, and its text hash is dropped."""
    from tests.daimon_records import item_ids

    await mark_all(demo_store)
    gone = item_ids(demo_store.project)["Use a 30 second ceiling for upload retries"]
    assert daimon("forget", gone, "--reason", "test", "--project", str(demo_store.project)) == 0
    new, head, _rows = await reopen(demo_store)
    assert new == {gone: "now forgotten"}, new
    assert "new since your last review" in head


async def test_n_jumps_to_unreviewed_rows_m_marks_and_the_new_facet_filters(demo_store: demo.DemoStore) -> None:
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]  # frozen: nothing counts by resting
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        total = len(screen.rows)
        first = screen.current_item()
        await pilot.press("m")  # mark reviewed
        await settle(pilot)
        assert screen.review.change(first.id) is None
        assert f"{total - 1} new since your last review" in header(screen)
        assert screen.query_one("#items-box").border_title == f"1 of {total} reviewed"
        await pilot.press("k")  # back on the reviewed row; `n` skips it
        await pilot.press("n")
        await settle(pilot)
        assert screen.current_item().id != first.id and screen.review.change(screen.current_item().id) == "new"
        await pilot.press("N")  # wraps to the last unreviewed row
        await settle(pilot)
        assert screen.review.change(screen.current_item().id) == "new"
        await pilot.press("slash")
        await pilot.press(*"new")
        await pilot.press("enter")
        await settle(pilot)
        shown = {r.item.id for r in screen.rows if r.item}
        assert first.id not in shown and len(shown) == total - 1
        await pilot.press("escape")
        await pilot.press("M")
        await settle(pilot)
        assert "nothing new since your last review" in header(screen)
        await pilot.press("n")
        await settle(pilot)
        assert "Nothing left to review" in " ".join(str(n.message) for n in app._notifications)


async def resolve_here(pilot, screen: BriefingScreen):
    """`r` on the row under the cursor, its default status, `y`; then daimon's confirmation."""
    target = screen.current_item()
    for key in ("r", "enter", "y"):
        await pilot.press(key)
        await settle(pilot)
    await wait_until(pilot, lambda: target.id not in screen.review.pending and not screen.provisional,
                     what="the verb's row reviewed at daimon's confirmation")
    return target


async def test_a_verb_marks_reviewed_and_quitting_after_it_shows_the_summary(demo_store: demo.DemoStore) -> None:
    from daimon_tui.ui.briefing.review_summary import ReviewSummaryScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        target = await resolve_here(pilot, screen)
        assert screen.review.state.rows[target.id].seen.state == "resolved"
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ReviewSummaryScreen)
        assert app.screen.summary.resolved == (target.id,)
        shown = str(app.screen.query_one("Static").render())
        assert "resolved" in shown
        # the person reads what they did and what is left, not ids alone; the project by its name
        assert target.text[:30] in shown
        still_new = app.screen.summary.left[0][0]
        assert screen.review.confirmed.find(still_new).text[:30] in shown
        assert f"Review of {screen.project.name}" in shown and screen.project.slug not in shown
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


async def test_an_unreadable_state_file_is_named_set_aside_and_the_app_opens_fresh(
        demo_store: demo.DemoStore) -> None:
    from daimon_tui.store.read import reader

    path = review_path(reader.resolve_project(str(demo_store.project)).slug)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": 1, "rows": "not a mapping"')
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        total = len(screen.briefing.items())
        assert f"{total} new since your last review" in header(screen)
        said = " ".join(str(n.message) for n in app._notifications)
        assert str(path) in said and "set aside as" in said
    aside = list(path.parent.glob(path.name + ".unreadable-*"))
    assert len(aside) == 1 and aside[0].read_text().startswith('{"format": 1')


async def test_headless_review_reads_the_state_and_the_log_and_writes_nothing(
        demo_store: demo.DemoStore, capsys) -> None:
    import json

    from daimon_tui import cli

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        kept = screen.current_item()
        await pilot.press("m")
        await pilot.press("j")
        target = await resolve_here(pilot, screen)
        await pilot.press("S")
        await settle(pilot)
        assert app.screen.summary.resolved == (target.id,) and app.screen.summary.kept == (kept.id,)
    path = review_path(app.project.slug)
    files = [*demo_store.root.rglob("*"), *path.parent.rglob("*")]
    before = {p: p.read_bytes() for p in files if p.is_file()}
    capsys.readouterr()
    assert cli.main(["review", "--json", "--project", str(demo_store.project)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["resolved"] == [target.id] and printed["kept"] == [kept.id]
    assert {n["id"] for n in printed["new"]} == {i.id for i in screen.briefing.items()} - {kept.id, target.id}
    assert cli.main(["review", "--markdown", "--since", "2000-01-01T00:00:00Z",
                     "--project", str(demo_store.project)]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("## Review of") and f"`{target.id}`" in markdown and "*new*" in markdown
    assert cli.main(["review", "--since", "yesterday", "--project", str(demo_store.project)]) == 2
    after = {p: p.read_bytes() for p in files if p.is_file()}
    assert before == after


async def test_a_teammates_new_claim_after_a_sync_is_new(team_store) -> None:
    from tests.team_store import reader_syncs, teammate_pushes

    carol = "Move the importer behind a feature flag"

    async def open_team(app: DaimonTUI, pilot) -> BriefingScreen:
        screen = await open_app(app, pilot)
        await pilot.press("t")
        await settle(pilot, rounds=5)
        await wait_until(pilot, lambda: screen.team is not None, what="the team section")
        await settle(pilot)
        return screen

    app = DaimonTUI(project_path=str(team_store.project))
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await open_team(app, pilot)
        assert any(k.startswith("team:") for k, _ in screen.review.left())
        await pilot.press("M")
        await settle(pilot)
        assert screen.review.left() == []
    teammate_pushes(team_store, "carol", carol)
    reader_syncs()
    app = DaimonTUI(project_path=str(team_store.project))
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await open_team(app, pilot)
        left = dict(screen.review.left())
        carols = [r.team.entry.item.id for r in screen.rows
                  if r.team and r.team.entry and r.team.entry.item.text == carol]
        assert carols and left == {f"team:{carols[0]}": "new"}
        assert "1 new since your last review" in header(screen)


async def test_the_project_switcher_draws_a_sparkline_per_project(demo_store: demo.DemoStore) -> None:
    from textual.renderables.sparkline import Sparkline
    from textual.widgets import DataTable

    from daimon_tui.ui.projects.screen import ProjectsScreen

    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_app(app, pilot)
        await pilot.press("P")
        await settle(pilot, rounds=5)
        screen = app.screen
        assert isinstance(screen, ProjectsScreen)
        await wait_until(pilot, lambda: app.project.slug in screen.state.trends, what="the trend")
        assert screen.state.trends[app.project.slug] == (7, 7, 12)  # items per retained session, oldest first
        table = screen.query_one(DataTable)
        assert isinstance(table.get_cell(app.project.slug, screen.trend_column), Sparkline)


async def test_the_first_row_does_not_count_with_no_key_pressed(demo_store: demo.DemoStore) -> None:
    """Issue 40 point 9: the first row counted as reviewed about 1 s after
    opening, with nobody at the keyboard."""
    clock = FakeClock()
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = clock  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        first = screen.current_item()
        await wait_until(pilot, lambda: screen.review._resting is not None, what="the detail at rest")
        clock.now += DWELL_S * 5
        await pilot.pause(DWELL_S + 0.3)  # the dwell's timer fires
        await settle(pilot)
        assert screen.review.change(first.id) == "new"
        await pilot.press("j")  # a person: the rest they ended on the first row counts
        await settle(pilot)
        assert screen.review.change(first.id) is None


async def test_rows_passed_too_fast_say_the_rule_where_it_applies(demo_store: demo.DemoStore) -> None:
    """Issue 40 point 9: fast `j` over rows counted none of them, with no hint why."""
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]  # frozen: every rest is too short
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        total = len(screen.rows)
        assert screen.query_one("#items-box").border_title == f"0 of {total} reviewed"
        for _ in range(3):
            await wait_until(pilot, lambda: screen.review._resting is not None, what="the detail at rest")
            await pilot.press("j")
        await settle(pilot)
        said = screen.query_one("#items-box").border_title
        assert said.startswith(f"0 of {total} reviewed") and f"{DWELL_S:g} s" in said and "m" in said, said


async def test_a_verbs_toast_names_the_item_by_its_whole_text(demo_store: demo.DemoStore) -> None:
    """Issue 40 point 10: toasts cut the item's text at 60 characters."""
    said = "Who owns the upload dashboards once the retry rollout reaches every region and the flag is removed?"
    day4 = demo.session("S-day4", demo.DEMO_NOW - timedelta(hours=1), "Retry policy rollout")
    day4["working_context"]["open_questions"] = [{"text": said, "trust": "inferred"}]
    demo.seed(demo_store.project, day4)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    app.review_clock = FakeClock()  # type: ignore[attr-defined]
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_app(app, pilot)
        index = next(n for n, r in enumerate(screen.rows) if r.item and r.item.text == said)
        await pilot.press(*["j"] * index)
        await settle(pilot)
        assert screen.current_item().text == said
        await resolve_here(pilot, screen)
        toasts = " ".join(str(n.message) for n in app._notifications)
        assert said in toasts, toasts
