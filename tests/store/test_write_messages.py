"""A write daimon did not take names the file and the OS error."""

from __future__ import annotations

import os

from daimon_briefing import store

from daimon_tui.store.write import writer
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref

RETRY_Q = "Should uploads retry on HTTP 429 with exponential backoff?"


def test_a_full_disk_is_named_with_the_file_and_errno(demo_store, monkeypatch) -> None:
    p, item = ref(demo_store), ids(demo_store.project)[RETRY_Q]
    full = os.statvfs_result((4096, 4096, 100, 0, 0, 100, 0, 0, 0, 255))
    monkeypatch.setattr(writer.store, "append_event", lambda *a, **k: False)  # daimon swallows ENOSPC
    monkeypatch.setattr(writer.os, "statvfs", lambda _path: full)
    result = writer.resolve(item, "done", project=p)
    assert result.outcome == "refused" and result.code == "not-written"
    ledger = store.ledger_file(str(demo_store.project), "events.jsonl")
    assert str(ledger) in result.message and "No space left on device (errno 28)" in result.message
    assert "daimon disabled, project unknown" not in result.message
