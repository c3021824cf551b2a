"""The project switcher counts a project's items the way its briefing does.

daimon's listing (`view.projects`, its `Peek`) counts every item that is not
withheld, loops a resolution closed included; daimon's own briefing
(`api.render_briefing`) leaves those loops out. The demo has one such loop."""

from __future__ import annotations

from daimon_briefing import api, store
from daimon_briefing.surfaces import Writer

from daimon_tui.store.child import first_paint
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import project_index, reader

NOW = demo.DEMO_NOW.timestamp()


def test_switcher_count_is_the_briefings_count(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    briefed = len(api.parse_briefing(api.render_briefing(demo_store.project, now=NOW).text).items)
    confirmed = first_paint.confirm(project, NOW)
    assert len(confirmed.items()) == briefed == 11
    listed, _notes = reader.list_projects()
    assert listed[0].visible_items == 12  # daimon's listing: the resolved loop counted
    rows = project_index.briefed_counts(listed)
    assert rows[0].visible_items == briefed


def test_a_stale_cache_leaves_daimons_listing_count(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    confirmed = first_paint.confirm(project, NOW)
    loop = next(i for i in confirmed.items() if i.section == "open_loops")
    assert store.append_event(loop.id, "resolved", note="from a test", source="ui",
                              project_dir=project.target, writer=Writer.HUMAN)
    listed, _notes = reader.list_projects()
    # The cached 11 was judged on other bytes: daimon's listing count stands.
    assert project_index.briefed_counts(listed)[0].visible_items == listed[0].visible_items == 12


def test_the_quick_listing_names_each_project_as_daimons_listing_does(demo_store: demo.DemoStore) -> None:
    """The switcher's first fill (no ledger folded) is what daimon's listing then confirms: its
    names, sessions and times. It raised on every `P` (a name left from a split), and the screen's
    fallback hid it: the switcher waited for daimon's full listing each time."""
    quick, _notes = project_index.quick_projects()
    listed, _notes = reader.list_projects()
    assert quick and [(r.slug, r.name, r.session_id, r.created) for r in quick] == \
        [(r.slug, r.name, r.session_id, r.created) for r in listed]
