"""A forged kept fold (issue 24, point 4), through the real judging child: our
cache file's size and digest still match the ledger, one resolved item's
winner offset is gone. The child's check finds it, the fold is discarded, the
briefing is confirmed again from daimon's full read, and the note says so:
the resolved item never shows as live under "confirmed by daimon"."""

from __future__ import annotations

import asyncio
import json
import os

from daimon_briefing import store, view
from daimon_briefing.surfaces import Writer

from daimon_tui.store.child import first_paint, judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import kept_fold, kept_fold_file
from daimon_tui.store.read import reader
from tests.daimon_records import item_ids as ids

NOW = demo.DEMO_NOW.timestamp()
RESOLVED_Q = "Does the upload API send Retry-After headers when throttling?"


def _confirm(project, shown=None):
    async def go():
        try:
            return await first_paint.confirm_async(project, NOW, shown=shown)
        finally:
            judge_service.service().close()

    return asyncio.run(go())


def test_a_forged_kept_fold_never_changes_the_briefing(demo_store: demo.DemoStore) -> None:
    project = reader.resolve_project(str(demo_store.project))
    item = ids(demo_store.project)[RESOLVED_Q]
    # a ledger large enough that the child keeps its fold
    pad = [{"item_ref": f"o-pad{n:05d}", "status": "resolved", "note": "p" * 120, "source": "cli"} for n in range(2500)]
    assert store.append_events(pad, project_dir=project.target, writer=Writer.HUMAN)
    ledger = view._bucket(project.target) / "events.jsonl"
    assert ledger.stat().st_size > kept_fold.KEEP_MIN_BYTES
    cache = kept_fold_file.cache_file(os.path.abspath(ledger))

    async def first_run():
        try:
            await first_paint.confirm_async(project, NOW)
            for _ in range(600):  # the child keeps the fold once idle
                if cache.exists():
                    return
                await asyncio.sleep(0.1)
        finally:
            judge_service.service().close()

    asyncio.run(first_run())
    assert cache.exists()
    record = json.loads(cache.read_text())
    data = ledger.read_bytes()
    assert record["size"] == len(data)
    winner = next(at for at in record["winners"]
                  if json.loads(data[at:data.index(b"\n", at)]).get("item_ref") == item)
    record["winners"].remove(winner)
    cache.write_text(json.dumps(record))

    meanwhile = []
    confirmed = _confirm(project, meanwhile.append)
    # read over the unchecked fold: shown, but never as confirmed
    assert [b.provisional for b in meanwhile] == [True]
    assert not confirmed.provisional and not confirmed.kept_unchecked
    assert item not in {i.id for i in confirmed.items()}
    assert item not in {i.id for i in reader.load_briefing(project, NOW).items()}
    [note] = [n.message for n in confirmed.notes if "kept fold" in n.message]
    assert "did not match daimon's full fold" in note and "confirmed again" in note
    # the next run: a genuine fold (rebuilt from daimon's read), checked once, no note
    again = _confirm(project)
    assert item not in {i.id for i in again.items()}
    assert not [n for n in again.notes if "kept fold" in n.message]
