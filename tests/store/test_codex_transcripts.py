"""Evidence from Codex rollouts (issue 41): an item captured in a Codex
session, its rollout filed where Codex files it (`$CODEX_HOME/sessions/...`)
and found only through daimon's own locator. What daimon says is daimon's
(`why` agrees); where the quote is in a part daimon's parser does not read
(reasoning, a function call or its output), the app says so as its own finding."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from daimon_briefing import api

from daimon_tui.domain.evidence_words import where_words
from daimon_tui.models import ProjectRef
from daimon_tui.store.daimon_api.public import provenance, transcript
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import transcripts
from tests.transcript_gen import ANSI_GREEN, ANSI_OFF, Codex, tool_output

QUOTE = "retry on 429 with exponential backoff"
ITEM = "Should uploads retry on HTTP 429 with exponential backoff?"
SID = "0199a0c2-7d1e-7c30-9a55-3b1f6f2e9d10"


@pytest.fixture
def codex_home(sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Codex's home inside the sandbox (daimon's locator reads `$CODEX_HOME`)."""
    home = sandbox_root / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


@pytest.fixture
def empty(sandbox_root: Path, codex_home: Path) -> Iterator[demo.DemoStore]:
    with demo.sandboxed(sandbox_root) as st:
        yield st


def captured(store: demo.DemoStore, session: Codex, codex_home: Path, *, receipt: bool = True) -> str:
    """`session`'s rollout written where Codex files it, and one verbatim item
    captured from it (seeded by daimon's own writer, with the receipt capture
    stamps: daimon's source ref for the rollout, its digest, a transcript
    scan: Codex turns carry no message id); returns the item's id."""
    path = session.write(codex_home)
    stem = path.stem
    checkpoint = demo.session(stem, demo.DEMO_NOW, "Upload retry policy")
    item = {"text": ITEM, "trust": "verbatim", "quote": QUOTE, "quote_verified": True}
    source = provenance.capture_source_ref(stem, path, author="demo")
    assert source is not None and source["host"] == "codex"
    if receipt:
        digest = provenance.source_digest(transcript.file_sha256(path), "")
        item["quote_provenance"] = provenance.quote_receipt(
            source, digest, outcome="verified", checked_at="2026-12-02T09:00:00Z", binding_mode="transcript-scan")
    else:
        checkpoint["source_ref"] = source
    checkpoint["working_context"]["open_questions"] = [item]
    demo.seed(store.project, checkpoint)
    from tests.store.test_transcripts import ids

    return ids(store.project)[ITEM]


def excerpt_of(store: demo.DemoStore, item_id: str) -> transcripts.Excerpt:
    project = ProjectRef(slug=api.project_slug(str(store.project)), path=str(store.project))
    evidence = transcripts.read_evidence(project, item_id)
    assert evidence.item is not None and evidence.error is None, evidence
    return evidence.item


def agrees_with_why(store: demo.DemoStore, item_id: str, main: transcripts.Excerpt) -> None:
    got = api.why(str(store.project), item_id)["axes"]
    assert (main.locator, main.bytes, main.support) == (got["locator"], got["bytes"], got["current_support"])


def opening(session: Codex) -> Codex:
    session.user("PR #42 is merged. What is left?")
    session.assistant("The flag, and whether the nightly job shares our bucket prefix.")
    return session


@pytest.mark.parametrize("receipt", [True, False], ids=["receipt", "legacy-source"])
def test_the_quoted_turn_of_a_codex_rollout(empty: demo.DemoStore, codex_home: Path, receipt: bool) -> None:
    session = opening(Codex(SID))
    session.reasoning("The person restates the policy.")
    session.call("pytest -q", tool_output(30))
    session.user(f"{QUOTE.capitalize()}, as agreed.")
    session.assistant("Then the change is complete.")
    item_id = captured(empty, session, codex_home, receipt=receipt)
    main = excerpt_of(empty, item_id)
    agrees_with_why(empty, item_id, main)
    assert (main.host, main.locator, main.support) == ("codex", "resolved", "transcript-scan-match")
    assert main.total == 4 and main.quoted == 2 and main.finding is None
    quoted = next(t for t in main.turns if t.quoted)
    assert quoted.role == "user" and [quoted.text[s:e].lower() for s, e in quoted.spans] == [QUOTE]
    # each turn has the time its event row was stamped (Codex turns carry no message id to look it up by)
    assert [t.ts for t in main.turns] == [row["timestamp"] for row in session.rows
                                          if row["type"] == "event_msg"
                                          and row["payload"]["type"] in ("user_message", "agent_message")]


PARTS: list[tuple[str, Callable[[Codex], None]]] = [
    ("reasoning", lambda s: s.reasoning(f"They said earlier: {QUOTE}. Keep it.")),
    ("function-call", lambda s: s.call(f"echo '{QUOTE}' >> NOTES", "")),
    ("function-call-output", lambda s: s.call("cat NOTES", f"{ANSI_GREEN}note{ANSI_OFF}: {QUOTE}")),
    ("function-call-output", lambda s: s.call("cat NOTES", f"note: {QUOTE}\n" + tool_output(5), wrapped=True)),
]


@pytest.mark.parametrize(("where", "write"), PARTS, ids=["reasoning", "call", "output", "wrapped-output"])
def test_a_quote_in_a_part_daimon_does_not_read_of_a_rollout(empty: demo.DemoStore, codex_home: Path, where: str,
                                                             write: Callable[[Codex], None]) -> None:
    session = opening(Codex(SID))
    write(session)
    session.user("Let's ship it behind the UPLOAD_RETRY flag.")
    item_id = captured(empty, session, codex_home)
    main = excerpt_of(empty, item_id)
    agrees_with_why(empty, item_id, main)
    assert main.support == "not-reproduced" and main.quoted is None
    found = main.finding
    assert found is not None and found.where == where and found.turn is not None
    shown = found.turn.text
    assert [shown[s:e].lower() for s, e in found.turn.spans] == [QUOTE]
    # labelled like thinking and tool output, and never "past the first 500 characters" (that is Claude Code's)
    words = where_words(where)
    assert "does not read" in words and "500" not in words
    if where == "function-call-output":
        # the output as the tool printed it: lines, not one JSON string of escapes
        assert "\\n" not in shown and '"metadata"' not in shown and "\n" in shown


def test_a_rollout_daimon_reads_no_turn_of_says_what_it_holds(empty: demo.DemoStore, codex_home: Path) -> None:
    """An older rollout (response items only, no event stream): daimon's parser
    reads no turn; the app says what the file holds, never "no conversation"."""
    session = opening(Codex(SID, events=False))
    session.user(f"{QUOTE.capitalize()}, as agreed.")
    item_id = captured(empty, session, codex_home)
    main = excerpt_of(empty, item_id)
    assert main.turns == () and main.unavailable is not None
    assert "holds no conversation turn" not in main.unavailable
    # the three said, and the environment context Codex adds
    assert "4 Codex messages" in main.unavailable and "event stream" in main.unavailable


def test_a_quote_in_another_rollout_of_the_project_is_found_there(empty: demo.DemoStore, codex_home: Path) -> None:
    """The project's other rollouts are those Codex started in the same
    working directory (`session_meta.cwd`), on any day: not the day's folder,
    which holds every project's."""
    from datetime import timedelta

    from tests.transcript_gen import START

    session = opening(Codex(SID))
    session.user("Let's ship it behind the UPLOAD_RETRY flag.")
    item_id = captured(empty, session, codex_home)
    stranger = Codex("0199a0c2-0000-7000-8000-00000000000a", cwd="/home/dev/other", start=START + timedelta(hours=1))
    stranger.user(f"Elsewhere: {QUOTE}.")
    stranger.write(codex_home)  # the same day's folder, another project
    assert excerpt_of(empty, item_id).finding == transcripts.Finding(where="absent")
    earlier = opening(Codex("0199a0c2-0000-7000-8000-00000000000b", start=START - timedelta(days=3)))
    earlier.user(f"Then: {QUOTE}, capped at 30 seconds.")
    earlier.assistant("Agreed.")
    path = earlier.write(codex_home)
    main = excerpt_of(empty, item_id)
    agrees_with_why(empty, item_id, main)
    found = main.finding
    assert found is not None and found.where == "other-session" and found.session_id == path.stem
    assert found.quoted == 2 and found.total == 4
