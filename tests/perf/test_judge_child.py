"""The confirming read in a child process: it reads the same sandbox store as
the app (daimon's sandbox is a ContextVar a child never inherits), answers
with the same briefing daimon judges in-process, and a failed child falls back
to the in-process read with a diagnostic."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from daimon_briefing import config, store
from daimon_briefing.surfaces import Writer

from daimon_tui.store import demo, first_paint, judge_child, reader, verdict_cache
from daimon_tui.store.models import ProjectRef

NOW = demo.DEMO_NOW.timestamp()


def ref(store_: demo.DemoStore) -> ProjectRef:
    return reader.resolve_project(str(store_.project))


def test_child_env_exports_the_sandbox_and_no_foreign_setting(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAIMON_CHECKPOINT_DIR", "/nowhere/real-home-store")
    monkeypatch.setenv("DAIMON_DISABLE", "1")
    env = judge_child.child_env()
    active = config.active_settings()
    assert active is not None
    for name, value in active.items():
        if name != "DAIMON_ENV_FILE":
            assert env[name] == str(value)
    assert env["DAIMON_CHECKPOINT_DIR"] == str(demo_store.checkpoint_dir)
    assert "DAIMON_DISABLE" not in env  # ours, not the sandbox's
    empty = Path(env["DAIMON_ENV_FILE"])
    assert empty.is_file() and empty.read_text() == ""
    assert env["DAIMON_TUI_CACHE"] == os.environ["DAIMON_TUI_CACHE"]


def test_child_reads_the_sandbox_store_and_agrees_with_daimon_in_process(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)
    # A real store elsewhere that the child would read if the sandbox were lost.
    monkeypatch.setenv("DAIMON_CHECKPOINT_DIR", str(demo_store.root.parent / "elsewhere"))
    here = reader.load_briefing(project, NOW)
    assert len(here.items()) > 3
    there = asyncio.run(judge_child.judge(project, NOW))
    assert there == here
    assert not there.provisional
    # A write in the sandbox is what the next child sees.
    target = here.items()[0].id
    assert store.append_event(target, "resolved", note="from a test", source="ui",
                              project_dir=project.target, writer=Writer.HUMAN)
    again = asyncio.run(judge_child.judge(project, NOW))
    assert target not in {i.id for i in again.items()}
    assert target in {i.id for i in again.resolved}
    # and the child saved the verdict cache where the app looks for it.
    assert verdict_cache.load(project.slug) is not None


def test_failed_child_falls_back_in_process_and_says_so(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)
    monkeypatch.setattr(judge_child.sys, "executable", "/bin/false")
    briefing = asyncio.run(first_paint.confirm_async(project, NOW))
    assert [i.id for i in briefing.items()] == [i.id for i in reader.load_briefing(project, NOW).items()]
    assert any("judging child failed" in n.message for n in briefing.notes)


def test_a_garbled_answer_is_a_failure_not_a_crash(
    demo_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = ref(demo_store)
    monkeypatch.setattr(judge_child, "__name__", "json.tool")  # echoes the request back, valid JSON, no briefing
    with pytest.raises(judge_child.JudgeFailed):
        asyncio.run(judge_child.judge(project, NOW))
