"""Issue 40 point 2: "withheld" was 0s in History, 2, 2, 2, 3, 1 in Health and
1 in the briefing header for the same sessions. One word, one definition
(`domain.withheld`): every item the briefing holds back from the agent
(resolved, quarantined, forgotten, closed). Health and `stats` count it as
the briefing stood at each session, and now; the header now; History, which
lists session files, names its column "withheld now": that session's items
the briefing withholds today."""

from __future__ import annotations

import io
import json

import pytest
from daimon_briefing import schema, view
from daimon_briefing import store as dstore

from daimon_tui import cli
from daimon_tui.domain.withheld import withheld_count, withheld_ids
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import history, reader
from daimon_tui.store.read.asof import as_of
from daimon_tui.store.read.health import NOW, health
from daimon_tui.ui.widgets.briefing_header import header_text
from tests.daimon_records import item_ids


def _session_items(project, session_id: str) -> set[str]:
    held = view.open_sessions(project.target, [session_id], live=False)[session_id]
    ids = {item.get("id") for fld, item in schema.iter_items(held.checkpoint) if not fld.singleton}
    return {i for i in ids | {getattr(w, "item_id", None) for w in held.withheld} if i}


@pytest.mark.parametrize("extra_resolve", [False, True], ids=["demo", "demo+resolve"])
def test_history_health_stats_and_header_hold_to_one_definition(demo_store: demo.DemoStore, capsys,
                                                                 extra_resolve: bool) -> None:
    if extra_resolve:
        nightly = item_ids(demo_store.project)["Switch the nightly job to its own bucket prefix"]
        dstore.append_event(nightly, "resolved", note="test", source="cli", project_dir=str(demo_store.project),
                            writer=dstore.Writer.HUMAN)
    project = reader.resolve_project(str(demo_store.project))
    briefing = reader.load_briefing(project)
    now_count = withheld_count(briefing)
    assert now_count >= 2  # the demo resolves one item and quarantines one value
    # the header
    assert f"{now_count} withheld (h)" in header_text(briefing).plain
    # Health: each session as the briefing stood then, and now
    report = health(project)
    for point in report.sessions:
        if point.session_id == NOW:
            assert point.counts["withheld"] == now_count
        else:
            with as_of(project, point.session_id) as cut:
                then = reader.load_briefing(cut.project, now=cut.timestamp)
            assert point.counts["withheld"] == withheld_count(then), point.session_id
    # stats prints Health's numbers
    assert cli.main(["stats", "--json", "--project", str(demo_store.project)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [s["withheld"] for s in printed["sessions"]] == report.series("withheld")
    # History: a session file's items the briefing withholds today, under its own name
    held_now = withheld_ids(briefing)
    listing = history.sessions(project)
    assert listing.rows
    for row in listing.rows:
        assert "withheld" not in row.counts
        assert row.counts["withheld now"] == len(_session_items(project, row.session_id) & held_now), row
    assert listing.rows[0].counts["withheld now"] == now_count  # the latest session holds every withheld item


def test_help_defines_each_word() -> None:
    from rich.console import Console

    from daimon_tui.ui.help.screen import words_table

    out = io.StringIO()
    Console(file=out, width=160).print(words_table())
    said = out.getvalue()
    assert "withheld now" in said and "History" in said and "Health" in said and "resolved" in said
