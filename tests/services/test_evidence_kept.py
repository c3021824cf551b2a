"""`o` again on an item: the excerpt and the witnesses' words the app was
shown are kept in its memory with the identity of what they were read from,
and shown again without a request to the judging child while none of it
changed (issue 41: warm `o` ≤ 0.1× `daimon why`). A transcript that grew, or
a ledger written (a forget: the masks change), is read again."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from daimon_tui.services import evidence
from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.demo import transcripts as demo_transcripts
from daimon_tui.store.write import writer
from tests.store.test_transcripts import NIGHTLY, RETRY, SECRETS, ids, ref
from tests.transcript_store import transcript_store


@pytest.fixture
def store(sandbox_root: Path, request: pytest.FixtureRequest) -> Iterator[demo.DemoStore]:
    with transcript_store(sandbox_root, getattr(request, "param", None)) as st:
        yield st


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Every request the app sends the judging child, as (what, args)."""
    sent: list[tuple] = []
    service = judge_service.service()
    call = judge_service.JudgeService.call

    async def counting(what: str, *args: Any, **options: Any) -> Any:
        sent.append((what, args[1:]))
        return await call(service, what, *args, **options)

    # on the instance: a test that patched the instance's `call` leaves the method bound there
    monkeypatch.setattr(service, "call", counting)
    return sent


def _turns(ev: evidence.Evidence) -> str:
    assert ev.item is not None
    return "\n".join(t.text for t in ev.item.turns)


async def test_warm_o_makes_no_request_to_the_child(store: demo.DemoStore, asked: list[tuple]) -> None:
    p, item = ref(store), ids(store.project)[RETRY]
    first = await evidence.transcript_excerpt(p, item, False)
    assert "Retry on 429" in _turns(first) and len(asked) == 1
    again = await evidence.transcript_excerpt(p, item, False)
    assert again == first
    words = await evidence.witness_words(p, item, False)
    assert [w.session_id for w in words.witnesses] == ["S-day2", "S-day3"]
    assert await evidence.witness_words(p, item, False) == words
    assert [what for what, _args in asked] == ["evidence", "evidence"]  # one each, never again
    # the pane's shorter excerpt is its own
    assert len((await evidence.transcript_excerpt(p, item, True)).item.turns) == 3  # type: ignore[union-attr]
    assert len(asked) == 3


async def test_a_transcript_that_grew_is_read_again(store: demo.DemoStore, asked: list[tuple]) -> None:
    p, item = ref(store), ids(store.project)[RETRY]
    await evidence.transcript_excerpt(p, item, False)
    path = demo_transcripts.transcript_path("S-day3")
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "uuid": "u-late", "sessionId": "S-day3",
                                 "timestamp": "2026-12-01T09:30:00.000Z",
                                 "message": {"role": "user", "content": "One more thing, later."}}) + "\n")
    grown = await evidence.transcript_excerpt(p, item, False)
    assert len(asked) == 2 and "One more thing, later." in _turns(grown)


@pytest.mark.parametrize("store", [SECRETS], indirect=True)
async def test_a_forget_is_never_shown_from_what_was_kept(store: demo.DemoStore, asked: list[tuple]) -> None:
    table = ids(store.project)
    p = ref(store)
    before = await evidence.transcript_excerpt(p, table[RETRY], False)
    assert "nightly" in _turns(before).lower()
    assert writer.forget_item(table[NIGHTLY], table[NIGHTLY], "secret", project=p).outcome == "applied"
    after = await evidence.transcript_excerpt(p, table[RETRY], False)
    assert len(asked) == 2
    assert "nightly" not in _turns(after).lower() and "[withheld: forgotten]" in _turns(after)


async def test_an_excerpt_not_read_is_never_kept(store: demo.DemoStore, asked: list[tuple]) -> None:
    """A missing transcript is said each time: its coming back is not a change of any file read."""
    p, item = ref(store), ids(store.project)[RETRY]
    path = demo_transcripts.transcript_path("S-day3")
    held = path.read_bytes()
    path.unlink()
    gone = await evidence.transcript_excerpt(p, item, False)
    assert gone.item is not None and gone.item.unavailable and gone.identity is None
    path.write_bytes(held)
    back = await evidence.transcript_excerpt(p, item, False)
    assert len(asked) == 2 and back.item is not None and back.item.unavailable is None


def test_the_check_costs_a_few_stats(store: demo.DemoStore) -> None:
    from daimon_tui.store.read import transcript_identity, transcripts

    p, item = ref(store), ids(store.project)[RETRY]
    read = transcripts.read_evidence(p, item, "item")
    assert read.sources == (str(demo_transcripts.transcript_path("S-day3")),)
    assert transcript_identity.unchanged(p, read)
    started = time.perf_counter()
    for _ in range(100):
        transcript_identity.unchanged(p, read)
    assert (time.perf_counter() - started) / 100 < 0.005  # well under a frame
