"""A Codex item on screen (issue 41): `o` lands ▶ on the quoted turn of its
rollout, each turn with its time; a quote in a tool's output is labelled as a
part daimon's matcher does not read, as the app's own finding."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.item.screen import ItemScreen
from daimon_tui.ui.widgets.evidence import EvidencePanel
from tests.store.test_codex_transcripts import ITEM, QUOTE, SID, captured, opening
from tests.transcript_gen import Codex, tool_output
from tests.ui.settle import settle, wait_until
from tests.ui.test_evidence import NOW, shown, to_item


@pytest.fixture
def codex_store(sandbox_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[demo.DemoStore, Path]]:
    home = sandbox_root / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    with demo.sandboxed(sandbox_root) as st:
        yield st, home


async def opened(store: demo.DemoStore) -> str:
    app = DaimonTUI(project_path=str(store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await to_item(pilot, ITEM)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, ItemScreen)
        panel = app.screen.query_one(EvidencePanel)
        await wait_until(pilot, lambda: "session rollout-" in shown(panel), what="the excerpt")
        return shown(panel)


async def test_o_lands_on_the_quoted_turn_of_a_codex_rollout(codex_store: tuple[demo.DemoStore, Path]) -> None:
    store, home = codex_store
    session = opening(Codex(SID))
    session.reasoning("The person restates the policy.")
    session.call("pytest -q", tool_output(30))
    session.user(f"{QUOTE.capitalize()}, as agreed.")
    session.assistant("Then the change is complete.")
    captured(store, session, home)
    text = await opened(store)
    assert "(codex) · locator resolved" in text
    head = next(line for line in text.splitlines() if line.lstrip().startswith("▶"))
    assert "▶ user · 2026-11-20 09:00:32 · turn 3" in head
    assert "Retry on 429 with exponential backoff, as agreed." in text
    assert "time not recorded" not in text


async def test_a_quote_in_a_codex_tools_output_is_the_apps_finding(
        codex_store: tuple[demo.DemoStore, Path]) -> None:
    store, home = codex_store
    session = opening(Codex(SID))
    session.call("cat NOTES", f"note: {QUOTE}\n" + tool_output(5), wrapped=True)
    session.user("Let's ship it behind the UPLOAD_RETRY flag.")
    captured(store, session, home)
    text = await opened(store)
    assert "found in a tool's output (Codex), which daimon's matcher does not read" in text
    assert "the app's own finding, not daimon's" in text
    assert "function-call-output, not a turn daimon reads" in text
    assert '\\"metadata\\"' not in text and '"metadata"' not in text
