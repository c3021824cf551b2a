"""Words that must say what is true: a legacy format is older, a retained
session's receipt is not "the latest", an audit time is a file's, and a
world-check over nothing checkable says so."""

from __future__ import annotations

from daimon_briefing import testing

from daimon_tui import cli
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.ui.briefing.screen import header_text, world_summary
from tests.daimon_records import project_ref


def test_a_legacy_format_is_called_older(empty_store: demo.DemoStore) -> None:
    cp = demo.session("S-old", demo.DEMO_NOW, "Old topic")
    cp["working_context"]["recent_decisions"] = [{"text": "Keep it", "trust": "inferred"}]
    cp["format_version"] = "D-012"
    testing.seed_checkpoint(empty_store.project, cp, session_id="S-old")
    notes = [n.message for n in reader.load_briefing(project_ref(empty_store)).notes]
    assert any("format D-012 is older than the formats this app knows" in n for n in notes), notes
    assert not any("newer" in n for n in notes)


def test_a_retained_sessions_receipt_warning_is_not_the_latest() -> None:
    briefing = Briefing(project=ProjectRef(slug="p"), state="briefing", degraded=True)
    assert "the latest checkpoint no longer matches" in header_text(briefing).plain
    past = header_text(briefing, latest=False).plain
    assert "this checkpoint no longer matches" in past and "latest" not in past


def test_audit_names_the_file_time(demo_store: demo.DemoStore, capsys) -> None:
    assert cli.main(["audit", "--project", str(demo_store.project)]) in (0, 1)
    out = capsys.readouterr().out
    assert "file changed at 20" in out and " since " not in out


def test_world_check_over_nothing_checkable_says_so() -> None:
    assert world_summary(3, 0, 0) == ("World-check: nothing checkable in 3 item(s) "
                                      "(no file, branch, PR or dependency claim found).")
    assert world_summary(3, 2, 1) == "World-checked 2 of 3 item(s) with a checkable claim: 1 contradicted."


def test_o_is_called_what_it_opens() -> None:
    """Issue 40 point 10: help called `o` full-screen; it opens a window over the briefing (a modal)."""
    from textual.screen import ModalScreen

    from daimon_tui.action_specs import spec
    from daimon_tui.ui.item.screen import ItemScreen

    assert issubclass(ItemScreen, ModalScreen)
    words = spec("item").description.lower()
    assert "full-screen" not in words and "full screen" not in words and "window" in words
    # nor does the detail pane's border, the first place a newcomer reads it
    import inspect

    from daimon_tui.ui.briefing import detail_pane

    pane = inspect.getsource(detail_pane)
    assert "o full screen" not in pane and "o open" in pane


def test_the_review_summary_names_rows_whole() -> None:
    """Issue 40 point 10: the review summary cut ids (at 60) and texts (at 70)."""
    from daimon_tui.domain.review_summary import ReviewSummary
    from daimon_tui.ui.briefing.review_summary import summary_text

    key = "team:" + "alice@example.org/" + "f" * 60
    said = "Whether src/upload/retry.py still reads the old RETRY_MAX setting after the rollout of the flag"
    summary = ReviewSummary(project="p", resolved=(key,), left=((key, "new"),))
    shown = summary_text(summary, quitting=False, text_of=lambda _k: said).plain
    assert f"{key}  {said}" in shown and "chars]" not in shown
