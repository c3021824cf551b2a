"""The detail pane states each fact from one source (issue 25, point 11): the
checkpoint's `quote_verified` stamp and `why`'s capture axis (the capture
receipt) are two records, named as such, and never contradict each other."""

from __future__ import annotations

import io

from rich.console import Console, Group

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import inspector, reader
from daimon_tui.ui.widgets.item_detail import inspection_table, item_fields


def _plain(*parts) -> str:
    console = Console(file=io.StringIO(), width=160, color_system=None, record=True)
    console.print(Group(*parts))
    return console.export_text()


def test_the_quote_check_is_said_once_from_each_record(demo_store: demo.DemoStore) -> None:
    ref = reader.resolve_project(str(demo_store.project))
    item = next(i for i in reader.load_briefing(ref).items() if i.text.startswith("Should uploads retry"))
    inspection = inspector.inspect(ref, item.id or "")
    capture = next(a for a in inspection.axes if a.name == "capture")
    assert item.quote_verified is True and capture.value == "unknown"  # the demo's case: a stamp, no receipt
    shown = _plain(item_fields(item), inspection_table(inspection, loading=False))
    assert "nobody checked" not in shown and "verified at capture" not in shown
    assert shown.count("quote_verified") == 1 and "found in the transcript when written" in shown
    assert "no capture receipt recorded" in shown
