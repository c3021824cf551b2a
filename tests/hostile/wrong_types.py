"""Wrong JSON types in daimon's files: the fields, the damage, and every read
the app makes, shared by the store-level sweep and the Pilot walk.

A store is written by daimon's own code (the demo, plus daimon's own
verification and world-outcome writers); one field of one file is then
replaced by a value of another JSON type, the way a hand edit, an old or a
newer daimon, or a bad merge would leave it.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daimon_briefing import store as dstore
from hypothesis import strategies as st

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from tests.receipt_kit import shared_kit

KINDS = ("number", "string", "list", "object", "null")
CLAIM_KEY = "ab" * 32


def values(kind: str) -> st.SearchStrategy[Any]:
    """A JSON value of `kind` (small: the point is the type, not the size)."""
    scalar = st.one_of(st.integers(-3, 10**12), st.text(max_size=8), st.booleans(), st.none())
    return {
        "number": st.one_of(st.integers(-(10**18), 10**18), st.floats(allow_nan=False, allow_infinity=False)),
        "string": st.text(max_size=12),
        "list": st.lists(scalar, max_size=3),
        "object": st.dictionaries(st.text(max_size=6), scalar, max_size=3),
        "null": st.none(),
    }[kind]


@dataclass(frozen=True)
class Field:
    """One field of one file: `path` is the file (relative to the checkpoint
    dir), `row` a JSONL line's index (None: a whole-JSON file), `keys` the
    path inside the document."""

    path: str
    row: int | None
    keys: tuple[str | int, ...]

    def __str__(self) -> str:
        where = self.path if self.row is None else f"{self.path}:{self.row + 1}"
        return f"{where} {'.'.join(map(str, self.keys))}"


def seed_ledgers(project: Path) -> None:
    """Rows the demo does not write: a recorded world-check contradiction and
    a receipt verdict (verification.jsonl), a first world outcome."""
    latest = dstore.read_latest_body(project_dir=str(project), route=dstore.Route.OWN, admit=dstore.Admit.ANY)
    first = latest["working_context"]["recent_decisions"][0]["id"]
    assert dstore.append_verification(first, "file-exists", "claim-contradicted", project_dir=str(project),
                                      claim_key=CLAIM_KEY)
    assert dstore.append_verification(first, "receipt", "receipt-invalid", project_dir=str(project))
    dstore.append_world_outcomes([(first, "file-exists", "contradicted", CLAIM_KEY)], project_dir=str(project))


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every key path in a JSON document, containers and leaves alike."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:1]):  # the first entry speaks for the rest
            yield (*prefix, index)
            yield from _paths(inner, (*prefix, index))


def fields(checkpoint_dir: Path, slug: str) -> tuple[Field, ...]:
    """Every field of every file of daimon's the app reads for this project."""
    out: list[Field] = []
    bucket = checkpoint_dir / slug
    # The pointer, an older pointer, the session file and the receipt behind
    # the latest pointer, an older session's file.
    latest = json.loads((bucket / "latest.json").read_text(encoding="utf-8"))
    sid = latest["session_id"]
    whole = [bucket / "latest.json", bucket / "prev-1.json", checkpoint_dir / f"{sid}.json",
             checkpoint_dir / f"{sid}.receipt", checkpoint_dir / "S-day1.json"]
    for file in whole:
        rel = str(file.relative_to(checkpoint_dir))
        out += [Field(rel, None, keys) for keys in _paths(json.loads(file.read_text(encoding="utf-8")))]
    for file in sorted(bucket.glob("*.jsonl")):
        rel = str(file.relative_to(checkpoint_dir))
        shapes: set[tuple[str, ...]] = set()
        for row, line in enumerate(file.read_text(encoding="utf-8").splitlines()):
            parsed = json.loads(line)
            shape = (str(parsed.get("kind") or parsed.get("event") or parsed.get("check")), *sorted(parsed))
            if shape not in shapes:  # one row of each kind
                shapes.add(shape)
                out += [Field(rel, row, keys) for keys in _paths(parsed)]
    return tuple(out)


def _set(document: Any, keys: tuple[str | int, ...], value: Any) -> None:
    for key in keys[:-1]:
        document = document[key]
    document[keys[-1]] = value


@contextlib.contextmanager
def damaged(base: Path, field: Field, value: Any) -> Iterator[None]:
    """`field` (a path under `base`) set to `value` for the block; the file's bytes are put back after."""
    file = base / field.path
    before = file.read_bytes()
    try:
        if field.row is None:
            document = json.loads(before)
            _set(document, field.keys, value)
            file.write_text(json.dumps(document), encoding="utf-8")
        else:
            lines = before.decode("utf-8").splitlines(keepends=True)
            row = json.loads(lines[field.row])
            _set(row, field.keys, value)
            lines[field.row] = json.dumps(row) + "\n"
            file.write_text("".join(lines), encoding="utf-8")
        yield
    finally:
        file.write_bytes(before)


@contextlib.contextmanager
def sweep_store(root: Path) -> Iterator[tuple[demo.DemoStore, tuple[Field, ...]]]:
    with demo.sandboxed(root, kit=shared_kit()) as store:
        demo.populate(store.project)
        demo.tamper(store.checkpoint_dir, "S-day2")
        seed_ledgers(store.project)
        slug = reader.resolve_project(str(store.project)).slug
        yield store, fields(store.checkpoint_dir, slug)


def every_read(project_dir: Path, now: float) -> list[str]:
    """Every read the app makes of the store, in this process; returns the
    headless `brief --json` output's notes. Raises if any read raises."""
    from daimon_tui.cli import main
    from daimon_tui.store.child import first_paint
    from daimon_tui.store.read import asof, audit, details, history, provisional_details, queue, search

    project = reader.resolve_project(str(project_dir))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["brief", "--json", "--project", str(project_dir)]) in (0, 1)
    document = json.loads(out.getvalue())
    first_paint.provisional_briefing(project, now)
    briefing = first_paint.confirm(project, now)
    for item in briefing.items():
        details.read_details(project, item.id or "", now)
        provisional_details.read_provisional(project, item.id or "", now)
    listing = history.sessions(project)
    ids = [row.session_id for row in listing.rows]
    if len(ids) >= 2:
        history.diff(project, ids[-1], ids[0])
    for sid in ids[:2]:
        reader.load_briefing(project, now, session_id=sid)
    with asof.as_of(project, "2026-11-28") as moment:
        reader.load_briefing(moment.project, now)
    audit.load_audit(project)
    queue.build_queue(project, now)
    search.prepare(project)
    search.search(project, "retry")
    return [str(n) for n in document.get("notes", ())]


# ---- the Pilot walk ----------------------------------------------------------------

HOSTILE_AS_OF = ("\x1b[2J\x1b]52;c;cm0K\x07", "[@click=app.quit]x[/]", "\u202e2026-11-28",
                 "0001-01-01T00:00:00+14:00", "9" * 300, "S-day1\x00")


async def walk(app: Any, pilot: Any, *, as_of: tuple[str, ...] = ("S-day1",)) -> list[str]:
    """Every view of the app, the way a person tours it: the cursor and the
    detail pane, `o`, the teammates' section, History and its as-of box (each
    of `as_of` typed and submitted), the Queue, Audit, Log and Search. After
    each step the app must still run. Returns the screens seen."""
    from textual.widgets import Input

    from tests.ui.settle import settle

    seen: list[str] = []

    async def step(*keys: str) -> None:
        if keys:
            await pilot.press(*keys)
        await settle(pilot)
        assert app.is_running, f"the app ended after {keys}"
        seen.append(type(app.screen).__name__)

    await step()
    await step("j", "j", "k")
    await pilot.pause(0.3)  # the detail pane fills once the cursor rests
    await step()
    await step("o")
    await step("escape")
    await step("t")
    await step("j", "j")
    await step("t")
    await step("2")
    await step("j")
    for text in as_of:
        await step("@")
        boxes = list(app.screen.query(Input))
        if boxes:
            boxes[0].value = text
            await step("enter")
        await step("escape")
        if type(app.screen).__name__ != "HistoryScreen":
            await step("escape")
    await step("3")
    await step("4")
    await step("5")
    await step("6")
    await pilot.press(*"retry")
    await step()
    await step("tab", "j")
    await step("1")
    return seen


# ---- the team's files ------------------------------------------------------------------


def team_fields(team_dir: Path) -> tuple[Field, ...]:
    """Every field of each author's checkpoint and quarantine ledger in the
    reader's team clone (`path` relative to `team_dir`)."""
    out: list[Field] = []
    for file in sorted(team_dir.rglob("authors/*/*")):
        rel = str(file.relative_to(team_dir))
        if file.suffix == ".json":
            out += [Field(rel, None, keys) for keys in _paths(json.loads(file.read_text(encoding="utf-8")))]
        elif file.suffix == ".jsonl":
            for row, line in enumerate(file.read_text(encoding="utf-8").splitlines()[:2]):
                out += [Field(rel, row, keys) for keys in _paths(json.loads(line))]
    return tuple(out)


def every_team_read(project_dir: Path) -> None:
    """Every read of the teammates' memory: the section (rows and detail),
    `brief --team` (plain and JSON) and search with teammates."""
    from rich.console import Console

    from daimon_tui.domain import filtering
    from daimon_tui.headless.team import run_brief_team, team_json
    from daimon_tui.store.read import search
    from daimon_tui.store.read.team import load_team
    from daimon_tui.ui.widgets.team_section import team_detail, team_rows

    project = reader.resolve_project(str(project_dir))
    team = load_team(project)
    json.dumps(team_json(team))
    console = Console(file=io.StringIO(), width=120, color_system=None)
    for text, row in team_rows(team, filtering.read("").terms, set()):
        console.print(text)
        if row is not None:
            console.print(team_detail(row, team))
    briefing = reader.load_briefing(project)
    for as_json in (True, False):
        assert run_brief_team(briefing, project, as_json=as_json, out=io.StringIO()) == 0
    search.search(project, "importer retries")


def sweep(fields: tuple[Field, ...], base: Path, examples: int, check: Callable[[], object]) -> None:
    """Hypothesis draws a field, a JSON type and a value of it; with the field
    so damaged, `check` (every read, or a Pilot tour) must not raise."""
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        field: Field = data.draw(st.sampled_from(fields), label="field")
        kind = data.draw(st.sampled_from(KINDS), label="kind")
        with damaged(base, field, data.draw(values(kind), label="value")):
            check()

    one()
