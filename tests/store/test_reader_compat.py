"""Our briefing model agrees with daimon's own reading of the same store."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from daimon_briefing import api, config, marks
from daimon_briefing import briefing as daimon_briefing

from daimon_tui.headless.brief import briefing_json, run_brief
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import inspector, reader
from daimon_tui.store.read.asof import as_of

NOW = demo.DEMO_NOW.timestamp()
MARKS = {
    "✓ verbatim": "verbatim",
    "~ inferred": "inferred",
    "? untagged": "untagged",
    "⚠ unverified (verbatim)": "unverified-verbatim",
    "? unverified": "stale",
}
LINE = re.compile(r"^- \[(?P<mark>[^\]]+)\] (?P<rest>.*)$")
HEADERS = {header: key for key, header in daimon_briefing.SECTION_HEADERS.items()}
TOPIC = "Active topic: "


@dataclass(frozen=True)
class Block:
    """One item as daimon renders it: its section, its line, the flag lines under it."""

    section: str
    mark: str
    rest: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class DaimonRender:
    """daimon's own briefing text, split by daimon's own marks and headers."""

    items: list[Block]
    rulings: list[str]
    warnings: list[str]  # the VERIFY heading left out: it is a section, not a note
    topic: str | None


# Intended differences, with why: daimon's render is the agent's injected
# briefing, trimmed to a byte/token budget and to the newest N decisions (the
# checkpoint keeps them all). The app is where a person curates that memory,
# so it shows every live item. Compare with those render-time limits off.
UNBOUNDED = {"DAIMON_BRIEF_MAX_BYTES": "0", "DAIMON_BRIEF_MAX_TOKENS": "0", "DAIMON_MAX_BRIEFING_DECISIONS": "0"}


@contextlib.contextmanager
def unbudgeted() -> Iterator[None]:
    with config.settings_override(dict(config.active_settings() or {}) | UNBOUNDED):
        yield


def daimon_render(target: str, now: float) -> DaimonRender:
    # daimon's render orders sections by weight at the wall clock (`machine_brief`
    # calls `build` without its `now`): pin that clock to the same moment.
    with unbudgeted(), mock.patch.object(daimon_briefing.time, "time", lambda: now):
        rendered = api.render_briefing(target, now=now)
    assert rendered.state == "briefing", rendered
    items: list[Block] = []
    rulings: list[str] = []
    warnings: list[str] = []
    section, topic = None, None
    # Split on newlines only: an item's text may hold other line breaks (\r, \x1c),
    # which `api.parse_briefing` (splitlines) would cut an item at.
    for line in rendered.text.split("\n"):
        stripped = line.strip()
        m = LINE.match(line)
        if line.startswith("  ") and items and section:
            last = items[-1]
            items[-1] = Block(last.section, last.mark, last.rest, (*last.lines, line))  # a flag under the item
        elif line in HEADERS:
            section = HEADERS[line]
        elif line.startswith(TOPIC):
            topic = line.removeprefix(TOPIC)
        elif m and section:
            items.append(Block(section, MARKS[m["mark"]], m["rest"], (line,)))
        elif line.startswith(marks.RULING_MARK) or line == daimon_briefing._RULING_HEADER:
            rulings.append(line)  # daimon's block: its header, then each ruling
        elif any(marker in stripped for marker in marks.WARNING_MARKERS):
            warnings.append(stripped)
    return DaimonRender(items, rulings, warnings, topic)


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


def assert_agrees(project: str | ProjectRef, now: float = NOW, ours: Briefing | None = None) -> None:
    """Both ways: the same items in the same order and sections, with the same
    marks and printed badges; the same rulings, topic and warnings."""
    ref = project if isinstance(project, ProjectRef) else reader.resolve_project(project)
    ours = ours or reader.load_briefing(ref, now)
    theirs = daimon_render(ref.target, now)
    assert theirs.items, "daimon shows nothing: the fixture is wrong"
    mine = [(section.key, item) for section in ours.sections for item in section.items]
    assert len(mine) == len(theirs.items), ([i.text for _k, i in mine], [b.rest for b in theirs.items])
    for (key, item), block in zip(mine, theirs.items, strict=True):
        assert block.rest == item.text or block.rest.startswith(item.text + " "), (block.rest, item.text)
        assert (key, item.mark) == (block.section, block.mark), block.rest
        printed = [b.kind + (f":{b.count}" if b.kind == "corroborated" else "") for b in item.badges
                   if b.kind in {"carried", "corroborated", "world-checked"}]
        assert printed == badges_in(block.rest), block.rest
        # The flags under the line (agent claim, amendment, supersede candidate, world-check) are ours too.
        assert (item.line, *item.extra_lines) == block.lines
    assert list(ours.rulings) == theirs.rulings
    assert ours.topic == theirs.topic
    # Every warning daimon prints is ours too (the degrade note as our `degraded`), and back.
    assert ours.degraded == (daimon_briefing.DEGRADE_NOTE in theirs.warnings)
    daimon_notes = [n.message for n in ours.notes if n.message.startswith(marks.WARNING_MARK)]
    assert sorted(daimon_notes) == sorted(w for w in theirs.warnings if w != daimon_briefing.DEGRADE_NOTE)


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
        inspection = inspector.inspect(project, item.id or "", NOW)
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
        assert set(item) == {"id", "kind", "text", "quote", "mark", "badges", "state", "briefed", "daimon_line",
                             "daimon_world"}


# ---- every kind of store the suite builds -------------------------------------


def test_agrees_on_the_hostile_store(empty_store: demo.DemoStore) -> None:
    from tests.hostile.conftest import seed_hostile

    seed_hostile(empty_store.project)
    assert_agrees(str(empty_store.project))


def test_agrees_on_the_queue_store(empty_store: demo.DemoStore) -> None:
    from tests.store.test_queue import build_queue_store

    build_queue_store(empty_store.project)
    assert_agrees(str(empty_store.project))


@pytest.mark.parametrize("when", ["S-day2", "2026-11-29T12:00:00Z"])
def test_agrees_as_of(demo_store: demo.DemoStore, when: str) -> None:
    project = reader.resolve_project(str(demo_store.project))
    with as_of(project, when) as cut:
        assert_agrees(cut.project, cut.timestamp)


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@contextlib.contextmanager
def generated(root: Path, **shape: int) -> Iterator[tuple[ProjectRef, float]]:
    """The benchmarks' generated store (daimon's writers; many sessions, events), judged after its last row."""
    spec = importlib.util.spec_from_file_location("generate_store", BENCHMARKS / "generate_store.py")
    assert spec and spec.loader
    generator = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, generator)  # its dataclasses look their module up there
    spec.loader.exec_module(sys.modules[spec.name])
    generator = sys.modules[spec.name]
    made = generator.generate(root, log=False, **shape)
    with config.settings_override(made["settings"]):
        yield reader.resolve_project(made["main_project"]), generator.ANCHOR.timestamp() + 3600


def test_agrees_on_a_small_generated_store(sandbox_root: Path) -> None:
    with generated(sandbox_root, projects=2, sessions=4, items=30, events=400) as (project, now):
        assert_agrees(project, now)


@pytest.mark.slow
def test_agrees_on_a_heavy_generated_store(sandbox_root: Path) -> None:
    with generated(sandbox_root, projects=6, sessions=40, items=80, events=40_000) as (project, now):
        assert_agrees(project, now)


def _reversed(b: Briefing) -> Briefing:
    return b.model_copy(update={"sections": tuple(
        s.model_copy(update={"items": s.items[::-1]}) for s in b.sections)})


def _extra(b: Briefing) -> Briefing:
    first = b.sections[0]
    extra = first.items[0].model_copy(update={"id": "r-000000000000", "text": "An item daimon does not show"})
    return b.model_copy(update={"sections": (first.model_copy(update={"items": (*first.items, extra)}),
                                             *b.sections[1:])})


def _dropped(b: Briefing) -> Briefing:
    last = b.sections[-1]
    return b.model_copy(update={"sections": (*b.sections[:-1], last.model_copy(update={"items": last.items[:-1]}))})


def _moved(b: Briefing) -> Briefing:
    return b.model_copy(update={"sections": (b.sections[0].model_copy(update={"key": "beliefs"}), *b.sections[1:])})


def _remarked(b: Briefing) -> Briefing:
    item = b.sections[0].items[0]
    other = "verbatim" if item.mark != "verbatim" else "inferred"
    first = b.sections[0].model_copy(update={"items": (item.model_copy(update={"mark": other}),
                                                       *b.sections[0].items[1:])})
    return b.model_copy(update={"sections": (first, *b.sections[1:])})


MUTATIONS = {
    "reversed": _reversed,
    "extra-item": _extra,
    "dropped-item": _dropped,
    "wrong-section": _moved,
    "wrong-mark": _remarked,
    "no-degrade-warning": lambda b: b.model_copy(update={"degraded": False}),
    "no-rulings": lambda b: b.model_copy(update={"rulings": ()}),
    "no-topic": lambda b: b.model_copy(update={"topic": None}),
}


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_the_comparison_fails_on_a_broken_reader(demo_store: demo.DemoStore, mutation: str) -> None:
    """The compatibility check is only worth its name if a wrong model fails it."""
    demo.tamper(demo_store.checkpoint_dir, "S-day3")  # degraded, so the degrade warning is at stake
    project = reader.resolve_project(str(demo_store.project))
    good = reader.load_briefing(project, NOW)
    assert_agrees(project, NOW, good)
    with pytest.raises(AssertionError):
        assert_agrees(project, NOW, MUTATIONS[mutation](good))
