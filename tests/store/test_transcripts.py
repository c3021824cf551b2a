"""Transcript evidence read through daimon's own locator, on stores written by
daimon's `testing` helpers with host transcripts where daimon looks for them
(Claude Code JSONL under the sandbox's claude projects dir): the quoted turn
and its neighbours, each witness's words, and daimon's words for a transcript
that is missing, moved, edited, huge, binary, hostile or holds a withheld value."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from daimon_briefing import api

from daimon_tui.domain import excerpt
from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.demo import transcripts as demo_transcripts
from daimon_tui.store.read import transcript_source, transcripts
from daimon_tui.store.write import writer
from tests.transcript_store import transcript_store

RETRY = "Should uploads retry on HTTP 429 with exponential backoff?"
NIGHTLY = "Switch the nightly job to its own bucket prefix"
CDN = "Whether the CDN caches 429 responses from the upload API"


def ref(store: demo.DemoStore) -> ProjectRef:
    return ProjectRef(slug=api.project_slug(str(store.project)), path=str(store.project))


def ids(project: Path) -> dict[str, str]:
    from daimon_briefing import store

    body = store.read_latest_body(project_dir=str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    return {i["text"]: i["id"] for s in (body["working_context"], body["epistemic_snapshot"])
            for v in s.values() if isinstance(v, list) for i in v if isinstance(i, dict) and "id" in i}


@pytest.fixture
def store(sandbox_root: Path, request: pytest.FixtureRequest) -> Iterator[demo.DemoStore]:
    """The demo store with its sessions' host transcripts (and receipts binding them)."""
    with transcript_store(sandbox_root, getattr(request, "param", None)) as st:
        yield st


def axes(store: demo.DemoStore, item_id: str) -> dict:
    return api.why(str(store.project), item_id)["axes"]


def test_the_quoted_turn_with_speaker_time_and_neighbours(store: demo.DemoStore) -> None:
    item_id = ids(store.project)[RETRY]
    ev = transcripts.read_evidence(ref(store), item_id)
    main = ev.item
    assert main is not None and main.unavailable is None
    assert (main.session_id, main.host, main.locator, main.bytes) == ("S-day3", "claude-code", "resolved", "unchanged")
    assert main.support == "message-id-match" and main.quoted == 2 and main.total == 6
    quoted = next(t for t in main.turns if t.quoted)
    assert quoted.role == "user" and quoted.ts == "2026-12-01T08:52:00.000Z"
    assert [quoted.text[s:e] for s, e in quoted.spans] == ["Retry on 429 with exponential backoff"]
    assert [t.index for t in main.turns] == list(range(0, 6))  # FULL_AROUND each side, within the transcript
    assert main.turns[1].role == "assistant" and main.turns[1].ts


def test_daimon_agrees_on_locator_bytes_and_support(store: demo.DemoStore) -> None:
    """Our words are daimon's: `why`'s axes for the same item."""
    for text in (RETRY, "Ship the retry change behind the UPLOAD_RETRY flag"):
        item_id = ids(store.project)[text]
        main = transcripts.read_evidence(ref(store), item_id).item
        assert main is not None
        got = axes(store, item_id)
        assert (main.locator, main.bytes, main.support) == (got["locator"], got["bytes"], got["current_support"])


def test_each_witness_speaks_in_its_own_transcript(store: demo.DemoStore) -> None:
    ev = transcripts.read_evidence(ref(store), ids(store.project)[RETRY])
    assert [w.session_id for w in ev.witnesses] == ["S-day2", "S-day3"]
    for w in ev.witnesses:
        quoted = [t for t in w.excerpt.turns if t.quoted]
        assert w.excerpt.session_id == w.session_id and len(quoted) == 1
        assert "exponential backoff" in quoted[0].text.lower()
    day2 = next(t for t in ev.witnesses[0].excerpt.turns if t.quoted)
    assert day2.text.startswith("Still: retry on 429")


def test_a_missing_transcript_is_said_in_daimons_terms(store: demo.DemoStore) -> None:
    item_id = ids(store.project)[RETRY]
    demo_transcripts.transcript_path("S-day3").unlink()
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.locator == "absent-local" == axes(store, item_id)["locator"]
    assert main.turns == () and "not on this machine" in (main.unavailable or "")


def test_a_moved_transcript(store: demo.DemoStore) -> None:
    item_id = ids(store.project)[RETRY]
    path = demo_transcripts.transcript_path("S-day3")
    # Moved to another project folder under the host's root: daimon still finds it.
    other = path.parent.parent / "-elsewhere" / path.name
    other.parent.mkdir()
    shutil.move(path, other)
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.locator == "resolved" and main.quoted is not None
    # A copy in two folders: daimon will not guess.
    shutil.copy(other, path)
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.locator == "ambiguous" == axes(store, item_id)["locator"]
    assert "will not guess" in (main.unavailable or "")
    # Moved out of the host's root altogether.
    path.unlink()
    shutil.move(other, store.root / "moved.jsonl")
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.locator == "absent-local"


def test_a_transcript_edited_after_capture(store: demo.DemoStore) -> None:
    item_id = ids(store.project)[RETRY]
    path = demo_transcripts.transcript_path("S-day3")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "uuid": "late", "timestamp": "2026-12-02T00:00:00.000Z",
                                 "message": {"role": "user", "content": "an afterthought"}}) + "\n")
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.bytes == "changed" == axes(store, item_id)["bytes"]
    assert main.quoted is not None  # still shown, and said to have changed


HUGE = "word " * 30_000 + " Retry on 429 with exponential backoff, as agreed. " + "more " * 30_000


@pytest.mark.parametrize("store", [{"S-day3": (("user", "hello"), ("user", HUGE), ("assistant", "ok"))}],
                         indirect=True)
def test_a_huge_turn_is_cut_around_the_quote(store: demo.DemoStore) -> None:
    main = transcripts.read_evidence(ref(store), ids(store.project)[RETRY]).item
    assert main is not None
    quoted = next(t for t in main.turns if t.quoted)
    assert len(quoted.text) <= excerpt.FULL_TURN_CHARS
    assert quoted.hidden_before > 0 and quoted.hidden_after > 0
    assert [quoted.text[s:e] for s, e in quoted.spans] == ["Retry on 429 with exponential backoff"]


def test_a_binary_transcript(store: demo.DemoStore) -> None:
    item_id = ids(store.project)[RETRY]
    demo_transcripts.transcript_path("S-day3").write_bytes(b"\x00\xff\xfe binary \x00" * 100)
    main = transcripts.read_evidence(ref(store), item_id).item
    assert main is not None and main.turns == ()
    assert main.unavailable  # said, never shown


def test_a_transcript_too_large_is_named_not_read(store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcripts, "MAX_TRANSCRIPT_BYTES", 100)
    main = transcripts.read_evidence(ref(store), ids(store.project)[RETRY]).item
    assert main is not None and main.turns == () and "too large" in (main.unavailable or "")


SECRETS = {"S-day3": (
    ("user", "PR #42 is merged. What is left?"),
    ("assistant", f"Two things. {NIGHTLY}. Also: {CDN.lower()}."),
    ("user", "Retry on 429 with exponential backoff, as agreed."),
    ("assistant", f"Decided: {NIGHTLY.lower()}, and keep watching."),
    ("user", "Let's ship it behind the UPLOAD_RETRY flag and watch the dashboards."),
)}


@pytest.mark.parametrize("store", [SECRETS], indirect=True)
def test_forgotten_and_quarantined_values_are_masked(store: demo.DemoStore) -> None:
    table = ids(store.project)
    p = ref(store)
    assert writer.forget_item(table[NIGHTLY], table[NIGHTLY], "secret", project=p).outcome == "applied"
    ev = transcripts.read_evidence(p, table[RETRY])
    shown = "\n".join(t.text for t in ev.item.turns)  # type: ignore[union-attr]
    assert "nightly" not in shown.lower() and "cdn" not in shown.lower()
    assert "[withheld: forgotten]" in shown and "[withheld: quarantine]" in shown
    assert ev.item is not None and ev.item.masked >= 3
    assert "Retry on 429" in shown  # the rest stays
    brief = transcripts.read_evidence(p, table[RETRY], "item", True).item
    assert brief is not None and len(brief.turns) == 3
    assert "nightly" not in "".join(t.text for t in brief.turns).lower()
    full = transcripts.read_full_transcript(p, table[RETRY])
    assert "nightly" not in full.text.lower() and "cdn" not in full.text.lower()
    assert full.text.splitlines()[full.line - 1].endswith("◀ the quoted turn")


def test_a_withheld_item_gets_no_excerpt(store: demo.DemoStore) -> None:
    table = ids(store.project)
    ev = transcripts.read_evidence(ref(store), table[CDN])  # the demo's quarantined uncertainty
    assert ev.withheld and ev.item is None and ev.witnesses == ()
    assert transcripts.read_full_transcript(ref(store), table[CDN]).unavailable


def test_evidence_contract(store: demo.DemoStore) -> None:
    """The adapter's private daimon names (`daimon_api/evidence.py`) still hold."""
    from daimon_tui.store.daimon_api import contracts

    contracts.CHECKS["evidence.source"]()
    assert transcript_source.resolver().resolve(
        {"version": 1, "host": "claude-code", "session_id": "S-x", "locator": "managed"}).state == "absent-local"

def test_read_ahead_keeps_every_quoted_items_transcript(store: demo.DemoStore) -> None:
    transcript_source._kept.clear()
    steps = []
    while (warmed := transcripts.warm(ref(store), 1)).read:
        steps.append(warmed)
    assert steps and steps[-1].left == 0 and all(w.read == 1 for w in steps)
    paths = [demo_transcripts.transcript_path("S-day3")]
    assert all(transcript_source.kept(p) for p in paths)
    assert transcripts.warm(ref(store), 1) == transcripts.Warmed(read=0, left=0)
    # A transcript edited since is not kept any more: read again, never served stale.
    with paths[0].open("a", encoding="utf-8") as handle:
        handle.write("\n")
    assert not transcript_source.kept(paths[0])


def test_safe_mode_shows_the_items_excerpt_from_whys_public_answer(
        store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Safe mode (issue 30.3): the source and the `bytes` axis come from
    `api.why`, not from its private steps: the item's excerpt is the full
    mode's, edited transcript included; a witness's copy, which `why` does not
    answer for, says why its words are not shown."""
    from daimon_tui.store.daimon_api import mode

    item_id = ids(store.project)[RETRY]
    path = demo_transcripts.transcript_path("S-day3")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "uuid": "late", "timestamp": "2026-12-02T00:00:00.000Z",
                                 "message": {"role": "user", "content": "an afterthought"}}) + "\n")
    full = transcripts.read_evidence(ref(store), item_id)
    monkeypatch.setenv(mode.ENV_SAFE, "1")
    mode.set_current(None)
    try:
        safe = transcripts.read_evidence(ref(store), item_id)
    finally:
        monkeypatch.delenv(mode.ENV_SAFE)
        mode.set_current(None)
    assert safe.item == full.item and safe.item is not None and safe.item.turns and safe.item.bytes == "changed"
    assert [w.session_id for w in safe.witnesses] == [w.session_id for w in full.witnesses]
    assert all("off in safe mode" in (w.excerpt.unavailable or "") for w in safe.witnesses)


def test_read_ahead_reads_each_origin_sessions_file_once(
        demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # daimon names an old item's source from its origin session's file, parsed whole (~8 ms at
    # 5,000 items): a read-ahead over a session's quoted items reads that file once, not per item
    from daimon_briefing import view

    real, asked = view.source_ref, []
    monkeypatch.setattr(view, "source_ref", lambda session_id: asked.append(session_id) or real(session_id))
    transcripts.warm(ref(demo_store), 1)
    assert asked and len(asked) == len(set(asked)), asked


def test_a_pass_names_each_old_items_source_as_daimon_does(demo_store: demo.DemoStore) -> None:
    # the pass's shared answers are daimon's own, item by item, whatever the origin keys hold
    from daimon_briefing import schema, store

    from daimon_tui.store.daimon_api import evidence as daimon_evidence

    body = store.read_latest_body(project_dir=str(demo_store.project), route=store.Route.OWN,
                                  admit=store.Admit.ANY)
    items = [item for _field, item in schema.iter_items(body) if isinstance(item, dict)]
    odd = [{"origin_session": "S-day1", "origin_author": "someone else"}, {"origin_session": "S-day1"},
           {"origin_session": ["S-day1"]}, {"origin_session": "S-day1", "origin_author": 5},
           {"origin_session": "../outside"}, {}]
    source = daimon_evidence.legacy_sources()
    for item in [*items, *odd] * 2:
        assert source(item) == daimon_evidence.legacy_source(item), item
