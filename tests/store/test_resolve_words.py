"""What the resolve preview says happens is what daimon does with a resolved
item: it leaves the briefing and carry, and `daimon recall` still lists it,
tagged `[resolved]` (issue 25, point 8)."""

from __future__ import annotations

import contextlib
import io

from daimon_briefing import cli as daimon_cli
from daimon_briefing import schema, store

from daimon_tui.domain import verbs
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader

RESOLVED_TEXT = "Does the upload API send Retry-After headers when throttling?"


def _recall(project: str, query: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert daimon_cli.main(["recall", query, "--project", project]) == 0
    return out.getvalue()


def test_the_resolve_preview_says_what_daimon_does_with_a_resolved_item(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    briefing = reader.load_briefing(ref)
    item = next(i for i in briefing.resolved if i.text == RESOLVED_TEXT)
    assert all(i.id != item.id for i in briefing.items())  # left the briefing
    line = next(line for line in _recall(str(demo_store.project), "Retry-After").splitlines() if item.id in line)
    assert line.endswith("[resolved]")  # recall still lists it
    demo.seed(demo_store.project, demo.session("S-day4", demo.DEMO_NOW, "Next"))
    latest = store.read_latest_body(project_dir=str(demo_store.project), route=store.Route.OWN,
                                    admit=store.Admit.ANY)
    assert all(i.get("id") != item.id for _f, i in schema.iter_items(latest) if isinstance(i, dict))  # not carried

    facts = verbs.ItemFacts(item_id="o-aaaaaa", kind="question", text=RESOLVED_TEXT, in_live=True, lifecycle="active")
    ok = verbs.StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"})
    effects = verbs.plan_resolve("p", [facts], ok, verbs.ResolveInput()).effects
    said = " ".join(effects)
    assert "`daimon recall` still lists it, tagged [resolved]" in said and "not carried" in said
    assert not any("recall until restored" in e and "withheld from" in e for e in effects)
