"""The evidence's words (issue 41): daimon's verdict said as daimon says it,
the app's own finding labelled as the app's, one rendering of a multi-line
quote. Rendered as the pane and `o` render them, without an app."""

from __future__ import annotations

from rich.console import Console, RenderableType

from daimon_tui.models.evidence import Excerpt, Finding, Turn
from daimon_tui.models.history import Witness, WitnessReport
from daimon_tui.ui.widgets.evidence import excerpt_renderable
from daimon_tui.ui.widgets.witnesses import witness_renderable

QUOTE = "retry on 429 with exponential backoff"


def text_of(renderable: RenderableType, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def not_reproduced(finding: Finding | None) -> Excerpt:
    turns = (Turn(index=0, role="user", text="PR #42 is merged. What is left?"),)
    return Excerpt(session_id="S-day3", host="claude-code", locator="resolved", bytes="changed",
                   support="not-reproduced", quote=QUOTE, turns=turns, total=1, finding=finding)


def test_never_no_longer_for_a_quote_daimon_does_not_reproduce() -> None:
    for brief in (True, False):
        shown = text_of(excerpt_renderable(not_reproduced(None), brief=brief))
        assert "no longer" not in shown
        assert "daimon's matcher does not reproduce the quote" in shown


def test_a_quote_in_a_thinking_block_is_the_apps_finding() -> None:
    part = Turn(index=-1, role="assistant", text=f"They said: {QUOTE}.", quoted=True, spans=((11, 11 + len(QUOTE)),))
    shown = text_of(excerpt_renderable(not_reproduced(Finding(where="thinking", turn=part)), brief=False))
    assert "found in a thinking block, which daimon's matcher does not read" in shown
    assert "the app's own finding, not daimon's" in shown
    assert f"They said: {QUOTE}." in shown and "thinking, not a turn daimon reads" in shown


def test_a_quote_nowhere_in_the_file_is_said_so() -> None:
    shown = text_of(excerpt_renderable(not_reproduced(Finding(where="absent")), brief=True))
    assert "not in this transcript at all (the app's own finding, not daimon's)" in shown


def test_a_multi_line_quote_reads_as_lines_in_the_corroboration_section() -> None:
    quote = "first line of the quote\nsecond line of the quote"
    report = WitnessReport(item_id="q-abc123", item_quote=quote, witnesses=(
        Witness(session_id="S-day2", ts="2026-12-01T08:00:00Z", source="brief", counts=True, quote=quote),))
    shown = text_of(witness_renderable(report))
    assert "x0a" not in shown
    assert "first line of the quote" in shown and "second line of the quote" in shown


def test_a_quote_in_another_session_names_both_as_the_apps_finding() -> None:
    turns = (Turn(index=0, role="user", text="before"),
             Turn(index=1, role="user", text=f"Then: {QUOTE}.", quoted=True, spans=((6, 6 + len(QUOTE)),)))
    finding = Finding(where="other-session", session_id="S-side", turns=turns, quoted=1, total=2)
    shown = text_of(excerpt_renderable(not_reproduced(finding), brief=False))
    assert "found verbatim in session S-side (daimon names S-day3) (the app's own finding, not daimon's)" in shown
    assert f"Then: {QUOTE}." in shown
    assert shown.index("found verbatim") < shown.index("PR #42")  # before the named session's start
