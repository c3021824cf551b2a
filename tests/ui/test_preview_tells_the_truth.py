"""Issue 40 point 7: the preview tells the truth about what `y` will do.
A full disk under the action log is found before `y` (as a read-only log is),
and an undo that brings an item back with a higher trust label names it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from daimon_tui.store.action_log import ActionLog
from daimon_tui.ui.screens.verb_modals import PlanPreviewModal
from tests.daimon_records import brief_text as brief
from tests.daimon_records import events
from tests.daimon_records import item_ids as ids
from tests.daimon_records import project_ref as ref
from tests.ui.test_verb_modals import RETRY_Q, done, drive, on_screen, refused_in_preview, to_preview


def a_full_disk_under(monkeypatch: pytest.MonkeyPatch, full_dir: Path) -> None:
    """`os.statvfs` says no block is free on the filesystem holding `full_dir`; elsewhere the truth."""
    real = os.statvfs

    def statvfs(path: os.PathLike | str) -> os.statvfs_result:
        found = real(path)
        if Path(path).resolve() != full_dir.resolve():
            return found
        fields = list(found)
        fields[3] = fields[4] = 0  # f_bfree, f_bavail
        return os.statvfs_result(fields)

    monkeypatch.setattr(os, "statvfs", statvfs)


def test_a_full_disk_under_the_log_refuses_the_verb_in_its_preview(demo_store, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "state" / "actions.jsonl")
    log.path.parent.mkdir(parents=True)
    a_full_disk_under(monkeypatch, log.path.parent)
    before = len(events(demo_store))
    seen = refused_in_preview(ref(demo_store), log, item)
    assert str(log.path) in seen[0] and "No space left on device" in seen[0]
    assert len(events(demo_store)) == before
    assert RETRY_Q in brief(demo_store)


def test_a_full_disk_under_daimons_store_refuses_the_verb_in_its_preview(demo_store, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The log has room, daimon's store has none (another disk): the preview says so and
    offers only close; the refusal is logged, and nothing reaches daimon."""
    from daimon_tui.store import paths

    item = ids(demo_store.project)[RETRY_Q]
    log = ActionLog(tmp_path / "state" / "actions.jsonl")
    bucket = paths.bucket_dir(ref(demo_store).slug)
    assert bucket is not None
    a_full_disk_under(monkeypatch, bucket)
    before = len(events(demo_store))
    seen = refused_in_preview(ref(demo_store), log, item, problem_id="#verb-store-problem")
    assert "daimon's store" in seen[0] and str(bucket) in seen[0] and "No space left on device" in seen[0]
    assert len(events(demo_store)) == before
    [refused] = log.entries()
    assert (refused.verb, refused.outcome, refused.item_ids) == ("resolve", "refused", (item,))


def test_an_undo_that_brings_an_item_back_more_trusted_names_it_in_a_warning_colour(
        sandbox_root: Path, tmp_path: Path) -> None:
    """daimon's rule: a reopen is the item's newest verification, so undoing the
    resolve of a carried verbatim item past the staleness budget (`[? unverified]`)
    brings it back `[✓ verbatim]`. The undo's preview says so before `y`."""
    from daimon_tui.store.demo import builder as demo
    from tests.store.test_differential import WORLD_MOVES, build

    question = "Should uploads retry on HTTP 429 with backoff?"
    with demo.sandboxed(sandbox_root, receipts=False) as store:
        build(store, WORLD_MOVES)
        assert f"- [? unverified] {question} [carried]" in brief(store)  # stale, stored verbatim
        item = ids(store.project)[question]
        log = ActionLog(tmp_path / "actions.jsonl")
        seen: list = []
        rows: list[tuple[int, int, bool]] = []

        async def script(pilot) -> None:
            await to_preview(pilot)
            await pilot.press("y")
            await done(pilot, 1)
            await pilot.press("z")
            await on_screen(pilot, PlanPreviewModal)
            raised = pilot.app.screen.query_one("#verb-trust-raised", Static)
            seen.append(raised.content)
            # on an 80x24 terminal the warning is shown whole: as many rows as its words wrap
            # to, none of them under the confirm line (docked at the dialog's foot)
            hint = pilot.app.screen.query_one("#verb-hint")
            rows.append((raised.region.height, len(raised.content.wrap(pilot.app.console, raised.size.width)),
                         raised.region.bottom <= hint.region.y))
            await pilot.press("y")
            await done(pilot, 2)

        app = drive(ref(store), log, (item,), script, size=(80, 24))
        assert [o.status for o in app.outcomes] == ["applied", "applied"]
        assert f"- [✓ verbatim] {question} [carried]" in brief(store)  # as the preview said
    [said] = seen
    [(shown, needed, above_the_hint)] = rows
    assert shown >= needed > 1 and above_the_hint, rows
    assert isinstance(said, Text)
    words = " ".join(said.plain.split())
    assert item in words and "[✓ verbatim]" in words and "[? unverified]" in words
    assert any("yellow" in str(span.style) for span in said.spans)  # the warning colour
