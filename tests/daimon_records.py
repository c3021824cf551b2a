"""Reading a test store the way the tests check it: daimon's own records."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from daimon_briefing import api, schema, store, testing
from daimon_briefing.surfaces import Writer

from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo


def tree_hashes(root: Path) -> dict[str, str]:
    """Every file under `root` (git's own aside) and its sha256: to show a read wrote nothing."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


def item_ids(project: Path | str) -> dict[str, str]:
    """Text → id for every item of the latest checkpoint."""
    body = store.read_latest_body(project_dir=str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    return {item.get("text"): item.get("id") for _f, item in schema.iter_items(body) if item.get("id")}


def project_ref(d: demo.DemoStore) -> ProjectRef:
    return ProjectRef(slug=store.project_slug(str(d.project)), name="proj", path=str(d.project))


def events(d: demo.DemoStore) -> list[dict]:
    path = store.ledger_file(str(d.project), "events.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def brief_text(d: demo.DemoStore) -> str:
    rendered = api.render_briefing(str(d.project), now=demo.DEMO_NOW.timestamp())
    assert rendered.state == "briefing"
    return rendered.text


@contextlib.contextmanager
def events_stamped(when: datetime) -> Iterator[None]:
    """Event rows daimon's own writer appends meanwhile carry `when`: it stamps
    them with the wall clock, which a test of "a row written later" cannot wait for."""

    class Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
            return when if tz is None else when.astimezone(tz)

    with mock.patch.object(store, "datetime", Clock):
        yield


# A store daimon trims: a handoff, a ruling and 16 open loops over a small byte budget.
BATON = "Run the retry tests first\nthen ship behind the flag"
BUDGET_SETTINGS = {"DAIMON_BRIEF_MAX_BYTES": "1400"}
LOOPS = [f"Open question {n:02d}: does the uploader retry path {n} need its own ceiling?" for n in range(16)]


def seed_budgeted(project: Path) -> None:
    cp = demo.session("S-budget", demo.DEMO_NOW - timedelta(hours=2), "Budgeted topic")
    cp["working_context"]["open_questions"] = [{"text": t, "trust": "inferred"} for t in LOOPS]
    cp["working_context"]["recent_decisions"] = [{"text": "Keep the retry ceiling at 30s", "trust": "inferred"}]
    cp["epistemic_snapshot"]["contradictions_flagged"] = [{"text": "Docs say 3 retries, config 5", "trust": "inferred"}]
    testing.seed_checkpoint(project, cp, session_id="S-budget")
    testing.seed_ruling(project, subject="uploads", verdict="Never retry non-idempotent uploads")
    assert store.append_event("", "active", note=BATON, kind="handoff", project_dir=str(project),
                              writer=Writer.HUMAN)
