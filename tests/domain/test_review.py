"""Issue 27: fingerprints, what changed, and the review state file (pure)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from daimon_tui.domain.action_entries import ActionEntry, LoggedRecord
from daimon_tui.domain.review import ReviewState, Seen, header_words, seen_item, what_changed
from daimon_tui.domain.review_summary import summarize
from daimon_tui.models import Badge, Item
from daimon_tui.store import review_file


def item(**update) -> Item:
    base = Item(id="r-1", kind="decision", section="decisions", field="recent_decisions",
                text="Keep the worker single-threaded", mark="inferred", stored_mark="inferred")
    return base.model_copy(update=update)


def test_header_words_are_the_issues() -> None:
    assert header_words(0) == "nothing new since your last review"
    assert header_words(3) == "3 new since your last review"


def test_nothing_recorded_is_new_and_the_same_fingerprint_is_not() -> None:
    seen = seen_item(item(), "salt")
    assert what_changed(None, seen) == "new"
    assert what_changed(seen, seen_item(item(), "salt")) is None


@pytest.mark.parametrize(("after", "said"), [
    (item(mark="verbatim"), "was ~ inferred"),
    (item(badges=(Badge(kind="corroborated", count=2),)), "+2 witnesses"),
    (item(badges=(Badge(kind="world-contradicted"),)), "contradicted"),
    (item(badges=(Badge(kind="recorded-confirmed"),)), "world agrees"),
    (item(state="resolved"), "now resolved"),
    (item(text="Keep the worker multi-threaded"), "text changed"),
    (item(mark="unverified-verbatim"), "was ~ inferred"),
])
def test_what_changed_says_it(after: Item, said: str) -> None:
    assert what_changed(seen_item(item(), "s"), seen_item(after, "s")) == said


def test_one_more_witness() -> None:
    before = seen_item(item(badges=(Badge(kind="corroborated", count=2),)), "s")
    after = seen_item(item(badges=(Badge(kind="corroborated", count=3),)), "s")
    assert what_changed(before, after) == "+1 witness"


def test_a_restored_item_says_what_it_was() -> None:
    assert what_changed(seen_item(item(state="resolved"), "s"), seen_item(item(), "s")) == "was resolved"


def test_the_state_holds_no_text_and_a_salted_hash(tmp_path: Path) -> None:
    secret = "the deploy key lives in /srv/keys/prod"
    state = ReviewState().with_reviewed({"r-1": seen_item(item(text=secret), "x")}, "2026-12-01T00:00:00Z")
    path = tmp_path / "r.json"
    assert review_file.StateWriter(path).write(state, 1)
    raw = path.read_text()
    assert secret not in raw and "deploy" not in raw
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    loaded, problem = review_file.load(path)
    assert problem is None and loaded == state


def test_the_file_keeps_its_format_1_rows(tmp_path: Path) -> None:
    """A row is `[[text hash, mark, [badges], state], when]` on disk: a review
    written by an older app still reads, and a new one is written the same way."""
    path = tmp_path / "r.json"
    row = [["ab12", "inferred", ["corroborated:2"], "visible"], "2026-12-01T00:00:00Z"]
    path.write_text(json.dumps({"format": 1, "salt": "s", "rows": {"r-1": row}, "runs": ["t"]}), encoding="utf-8")
    loaded, problem = review_file.load(path)
    assert problem is None
    assert loaded.rows["r-1"].seen == Seen(text="ab12", mark="inferred", badges=("corroborated:2",), state="visible")
    assert loaded.rows["r-1"].at == "2026-12-01T00:00:00Z"
    assert review_file.StateWriter(path).write(loaded, 1)
    assert json.loads(path.read_text(encoding="utf-8"))["rows"] == {"r-1": row}


@pytest.mark.parametrize("content", [b"{torn", b"[]", b'{"format": 99}', b'{"format": 1, "rows": {"a": 3}}',
                                     b"\xff\xfe", json.dumps({"format": 1, "rows": [], "salt": 5}).encode()])
def test_an_unreadable_state_is_named_set_aside_and_a_fresh_review_starts(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    state, problem = review_file.load(path)
    assert state.rows == {} and problem is not None
    assert str(path) in problem and "set aside as" in problem
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("r.json.unreadable-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content  # nothing lost
    assert not path.exists()


def test_peek_never_sets_aside(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"{torn")
    state, problem = review_file.peek(path)
    assert state is None and problem and path.read_bytes() == b"{torn"


def test_a_fifo_in_the_states_place_does_not_hang(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    os.mkfifo(path)
    state, problem = review_file.load(path)
    assert state.rows == {} and problem is not None


def test_an_older_write_never_lands_over_a_newer_one(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    writer = review_file.StateWriter(path)
    newer = ReviewState().with_reviewed({"b": Seen(state="visible")}, "2026-12-02T00:00:00Z")
    assert writer.write(newer, 2)
    assert writer.write(ReviewState(), 1)  # late: skipped
    assert review_file.load(path)[0] == newer


def test_kept_only_drops_rows_daimon_no_longer_has() -> None:
    state = ReviewState().with_reviewed({"a": Seen(), "b": Seen()}, "t")
    assert set(state.kept_only(["a"]).rows) == {"a"}


def entry(verb: str, ids: tuple[str, ...], time: str = "2026-12-02T10:00:00Z", outcome: str = "applied"):
    return ActionEntry(action_id="act-1", time=time, user="me", project="p", verb=verb, item_ids=ids,
                       outcome=outcome,  # type: ignore[arg-type]
                       records=tuple(LoggedRecord(item_id=i, op="resolve", outcome="applied") for i in ids))


def test_summary_counts_verbs_since_and_keeps_the_rest() -> None:
    state = ReviewState().with_reviewed({"a": Seen(), "b": Seen(), "c": Seen()}, "2026-12-02T09:30:00Z")
    entries = [entry("resolve", ("a",)), entry("retract", ("b",)), entry("reverify", ("z",), outcome="refused"),
               entry("undo", ("q",), time="2026-12-01T00:00:00Z")]
    summary = summarize("p", entries, state, since="2026-12-02T09:00:00Z", live_keys=["a", "b", "c", "d"],
                        left=[("d", "new")])
    assert summary.resolved == ("a",) and summary.retracted == ("b",)
    assert summary.reverified == () and summary.restored == ()  # refused; before `since`
    assert summary.kept == ("c",) and summary.left == (("d", "new"),)
    assert (summary.reviewed, summary.total) == (3, 4)


def test_a_row_withheld_since_says_only_its_state() -> None:
    from daimon_tui.domain.review import seen_withheld
    from daimon_tui.models import WithheldItem

    after = seen_withheld(WithheldItem(id="r-1", kind="decision", state="forgotten"))
    assert what_changed(seen_item(item(), "s"), after) == "now forgotten"


def test_a_resolve_then_its_undo_is_one_act_undone() -> None:
    """Issue 40 point 9: a resolve that was undone read "resolved 1 … restored 1"."""
    resolve = entry("resolve", ("a",)).model_copy(update={"action_id": "act-r"})
    undo = entry("undo", ("a",), time="2026-12-02T10:01:00Z").model_copy(
        update={"action_id": "act-u", "undoes": "act-r"})
    summary = summarize("p", [resolve, undo], ReviewState(), since="2026-12-02T09:00:00Z", live_keys=["a"], left=[])
    assert summary.resolved == () and summary.restored == ()
    assert summary.undone == (("a", "resolved"),)
    assert summary.acted == 1
    assert any(line.split()[:2] == ["undone", "1"] and "a (resolved, then undone)" in line for line in summary.lines())


def test_a_row_counts_by_resting_only_once_a_person_pressed_a_key() -> None:
    """Issue 40 point 9: the first row counted as reviewed 1 s after opening, no key pressed."""
    from daimon_tui.domain.review import DWELL_S, rest_counts

    assert not rest_counts(DWELL_S * 5, person_here=False)
    assert not rest_counts(DWELL_S / 2, person_here=True)
    assert rest_counts(DWELL_S, person_here=True)
