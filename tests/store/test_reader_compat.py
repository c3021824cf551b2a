"""Our briefing model agrees with daimon's own reading of the same store."""

from __future__ import annotations

import io
import json
import re

import pytest
from daimon_briefing import api

from daimon_tui.headless.brief import briefing_json, run_brief
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader

NOW = demo.DEMO_NOW.timestamp()
MARKS = {
    "✓ verbatim": "verbatim",
    "~ inferred": "inferred",
    "? untagged": "untagged",
    "⚠ unverified (verbatim)": "unverified-verbatim",
    "? unverified": "stale",
}
LINE = re.compile(r"^- \[(?P<mark>[^\]]+)\] (?P<rest>.*)$")


def daimon_lines(project: str) -> list[tuple[str, str]]:
    """(mark word, rest of line) for every item daimon's own render shows."""
    rendered = api.render_briefing(project, now=NOW)
    assert rendered.state == "briefing"
    out = []
    for line in api.parse_briefing(rendered.text).items:
        m = LINE.match(line)
        assert m, line
        out.append((MARKS[m["mark"]], m["rest"]))
    return out


def badges_in(rest: str) -> list[str]:
    found = []
    if " [carried]" in rest:
        found.append("carried")
    corroborated = re.search(r"\[≈ corroborated ×(\d+)\]", rest)
    if corroborated:
        found.append(f"corroborated:{corroborated[1]}")
    if "[✓ world-checked]" in rest:
        found.append("world-checked")
    return found


def our_items(project: str) -> list[dict]:
    model = briefing_json(reader.load_briefing(reader.resolve_project(project), NOW))
    return [item for section in model["sections"] for item in section["items"]]


def assert_agrees(project: str) -> None:
    ours = our_items(project)
    theirs = daimon_lines(project)
    assert theirs, "daimon shows nothing: the fixture is wrong"
    for mark, rest in theirs:
        match = [i for i in ours if rest.startswith(i["text"])]
        assert len(match) == 1, f"daimon's line has no single match in ours: {rest!r}"
        item = match[0]
        assert item["mark"] == mark, rest
        printed = [b for b in item["badges"] if b.split(":")[0] in {"carried", "corroborated", "world-checked"}]
        assert printed == badges_in(rest), rest


def test_every_line_daimon_shows_has_our_mark_and_badges(demo_store: demo.DemoStore) -> None:
    assert_agrees(str(demo_store.project))


def test_degraded_receipt_degrades_every_verbatim_label(demo_store: demo.DemoStore) -> None:
    demo.tamper(demo_store.checkpoint_dir, "S-day3")
    assert_agrees(str(demo_store.project))
    model = reader.load_briefing(reader.resolve_project(str(demo_store.project)), NOW)
    assert model.degraded
    marks = {i.mark for i in model.items()}
    assert "verbatim" not in marks and "unverified-verbatim" in marks


def test_withheld_states_agree_with_daimon_lookup(demo_store: demo.DemoStore) -> None:
    project = str(demo_store.project)
    model = briefing_json(reader.load_briefing(reader.resolve_project(project), NOW))
    states = {w["state"] for w in model["withheld"]}
    assert states == {"resolved", "quarantined"}
    for entry in model["withheld"]:
        found = api.lookup(project, entry["id"])
        why = api.why(project, entry["id"], now=NOW)
        if entry["state"] == "quarantined":
            assert type(found).__name__ == "Withheld" and found.reason == "quarantine"
        else:
            assert why["axes"]["lifecycle"] == "resolved"
        # A withheld item never appears among the visible ones.
        assert entry["id"] not in {i["id"] for i in our_items(project)}


def test_forgotten_item_is_withheld_as_forgotten(demo_store: demo.DemoStore) -> None:
    from daimon_briefing import forget, normalize, store

    project = str(demo_store.project)
    latest = store.read_latest_body(project_dir=project, route=store.Route.OWN, admit=store.Admit.ANY)
    item = latest["epistemic_snapshot"]["contradictions_flagged"][0]
    key = normalize.content_key(item["text"])
    target = forget.Target(key, item["id"], forget.siblings(project, key, item["id"]), project, item["text"],
                           latest, latest["session_id"], "test")
    forget.run(target, approve_rulings=lambda r: "refused")
    model = briefing_json(reader.load_briefing(reader.resolve_project(project), NOW))
    assert item["id"] not in {i["id"] for i in our_items(project)}
    assert item["text"] not in json.dumps(model)
    assert type(api.lookup(project, item["id"])).__name__ == "Withheld"


def test_corroboration_count_matches_why(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    model = reader.load_briefing(project, NOW)
    corroborated = [i for i in model.items() if i.corroboration]
    assert {i.corroboration for i in corroborated} == {2, 3}
    for item in corroborated:
        inspection = reader.inspect(project, item.id or "", NOW)
        # daimon's badge is 1 + the witnesses `why` counts.
        assert inspection.corroboration_count + 1 == item.corroboration


def test_no_checkpoint_is_reported(empty_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(empty_store.project))
    assert not reader.project_exists(project)
    assert reader.load_briefing(project, NOW).state == "no-checkpoint"


@pytest.mark.parametrize("as_json", [True, False])
def test_brief_output_is_read_only_and_complete(demo_store: demo.DemoStore, as_json: bool) -> None:
    before = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    out = io.StringIO()
    model = reader.load_briefing(reader.resolve_project(str(demo_store.project)), NOW)
    assert run_brief(model, as_json=as_json, out=out) == 0
    after = {p: p.read_bytes() for p in demo_store.root.rglob("*") if p.is_file()}
    assert before == after
    text = out.getvalue()
    assert "Should uploads retry on HTTP 429" in text
    if as_json:
        data = json.loads(text)
        assert set(data) >= {"project", "session_id", "created", "state", "sections", "withheld", "notes"}
        item = data["sections"][0]["items"][0]
        assert set(item) == {"id", "kind", "text", "quote", "mark", "badges", "state"}
