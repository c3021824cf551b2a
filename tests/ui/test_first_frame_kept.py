"""A later open's first frame, from the kept layout: drawn before daimon or
pydantic is imported, its texts the live checkpoint's (byte for byte the
confirmed briefing's), and never drawn over a store that moved since, nor
from a kept file of ours that was tampered with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from daimon_tui.models import Briefing
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle, wait_until

NOW = demo.DEMO_NOW.timestamp()


def small_store(project: Path, sessions: int, items: int) -> None:
    """`sessions` sessions of `items` decisions and questions each, carried forward
    (no handoff, no ruling: every word a frame draws is in the live checkpoint)."""
    for n in range(sessions):
        cp = demo.session(f"S-{n}", demo.DEMO_NOW - timedelta(days=sessions - n), f"Week {n} of the queue work")
        cp["working_context"]["recent_decisions"] = [
            {"text": f"Stream migration {n}.{k} through pkg/queue \u00e9t\u00e9, rollout {k * 7}", "trust": "inferred"}
            for k in range(items)]
        cp["working_context"]["open_questions"] = [
            {"text": f"Does job {k} of session {n} retry on 429?", "trust": "inferred"} for k in range(items // 2)]
        demo.seed(project, cp)


@pytest.fixture(params=[(1, 3), (2, 5), (4, 2)], ids=["one-session", "carried", "four-sessions"])
def kept_store(empty_store: demo.DemoStore, request: pytest.FixtureRequest) -> demo.DemoStore:
    small_store(empty_store.project, *request.param)
    return empty_store

# The app as `daimon-tui` runs it, headless, until the probe has written the first frame's modules.
PROBED = ("import sys\n"
          "from daimon_tui.ui.app import DaimonTUI\n"
          "DaimonTUI(project_path=sys.argv[1], now=float(sys.argv[2])).run(headless=True, size=(140, 40))\n")


# What the first frame does not use, imported when first used: the team's feed and models, the verbs'
# tables, the action log, the allocator's ctypes. And a ceiling on our modules by then (75 then, 83 before;
# +2: `store.daimon_api.installed` and its package, which name the installed daimon in place of importlib.metadata;
# +1: `ui.briefing.screen_reads`, split from the screen at its 600-line limit).
NOT_AT_FIRST_FRAME = ("daimon_tui.services.team_section", "daimon_tui.domain.verbs", "daimon_tui.models.team",
                      "daimon_tui.store.action_log", "daimon_tui.domain.action_entries",
                      "daimon_tui.services.action_log", "daimon_tui.store.process_memory")
OUR_MODULES_AT_FIRST_FRAME = 80


async def confirmed_open(project: Path) -> Briefing:
    """One open until daimon has confirmed: the child keeps the layout, the app the launch pointer."""
    app = DaimonTUI(project_path=str(project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen) and not app.screen.provisional
                         and app.screen.briefing is not None, timeout=60, what="confirmed")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen) and screen.briefing is not None
        return screen.briefing


def probe_first_frame(project: Path, tmp_path: Path) -> list[str]:
    out = tmp_path / "first-frame.txt"
    env = {**os.environ, "DAIMON_TUI_FIRST_FRAME_MODULES": str(out)}
    try:
        done = subprocess.run([sys.executable, "-c", PROBED, str(project), repr(NOW)], env=env, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the first frame was never reported: {exc.stderr!r:.3000}") from None
    assert done.returncode == 0, done.stderr[-3000:]
    assert out.exists(), "the first frame was never reported"
    return out.read_text(encoding="utf-8").splitlines()


def read_kept(project: Path) -> object:
    from daimon_tui.services import kept_open  # here: the open's test runs on a tree without it too

    return kept_open.read_kept(str(project), None)


def texts(briefing: Briefing) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """What a frame draws of each item: its section, id, text and badges, in order."""
    return [(s.key, i.id or "", i.text, tuple(b.token for b in i.badges)) for s in briefing.sections for i in s.items]


async def test_a_later_open_draws_its_first_frame_before_daimon_or_pydantic(kept_store: demo.DemoStore,
                                                                            tmp_path: Path) -> None:
    confirmed = await confirmed_open(kept_store.project)
    lines = probe_first_frame(kept_store.project, tmp_path)
    assert lines[0] == "provisional=True"
    drawn = sorted(line.removeprefix("item=") for line in lines if line.startswith("item="))
    assert drawn and drawn == sorted(i.text for i in confirmed.items())
    modules = set(lines)
    assert "daimon_briefing" not in modules and "pydantic" not in modules
    assert not {m for m in modules if m.startswith("daimon_tui.store.read")}
    assert not modules & set(NOT_AT_FIRST_FRAME)
    ours = sorted(m for m in modules if m.startswith("daimon_tui"))
    assert len(ours) <= OUR_MODULES_AT_FIRST_FRAME, ours


async def test_the_kept_frame_is_the_confirmed_briefing_byte_for_byte(kept_store: demo.DemoStore) -> None:
    confirmed = await confirmed_open(kept_store.project)
    kept = read_kept(kept_store.project)
    assert kept is not None and kept.briefing.provisional
    assert all(i.provisional for i in kept.briefing.items())
    assert texts(kept.briefing) == texts(confirmed)
    assert kept.briefing.model_copy(update={"provisional": False}).sections == tuple(
        s.model_copy(update={"items": tuple(i.model_copy(update={"provisional": True}) for i in s.items)})
        for s in confirmed.sections)
    assert (kept.briefing.topic, kept.briefing.greeting, kept.briefing.order, kept.briefing.withheld) == (
        confirmed.topic, confirmed.greeting, confirmed.order, confirmed.withheld)


def _layout(project: Path) -> Path:
    from daimon_tui.store.judging import kept_layout

    root = kept_layout.kept_root(kept_layout.launch_key(str(project), None))
    assert root is not None
    return kept_layout.layout_file(*root)


def _latest(store: demo.DemoStore) -> Path:
    found = sorted(store.checkpoint_dir.glob("*/latest.json"))
    assert len(found) == 1
    return found[0]


async def test_an_edited_checkpoint_draws_no_kept_text(kept_store: demo.DemoStore) -> None:
    confirmed = await confirmed_open(kept_store.project)
    latest = _latest(kept_store)
    first = confirmed.items()[0].text
    stat = latest.stat()

    def scrubbed(value: object) -> object:
        if isinstance(value, dict):
            return {k: scrubbed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [scrubbed(v) for v in value]
        return "scrubbed" if value == first else value

    body = json.loads(latest.read_text(encoding="utf-8"))
    assert scrubbed(body) != body
    latest.write_text(json.dumps(scrubbed(body)), encoding="utf-8")
    os.utime(latest, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even with its old time
    assert read_kept(kept_store.project) is None


async def test_a_changed_ledger_draws_no_kept_frame(kept_store: demo.DemoStore) -> None:
    await confirmed_open(kept_store.project)
    events = _latest(kept_store).parent / "events.jsonl"
    with events.open("a", encoding="utf-8") as handle:
        handle.write("\n")
    assert read_kept(kept_store.project) is None


async def test_a_forget_between_opens_draws_no_stale_text(kept_store: demo.DemoStore) -> None:
    """A forget scrubs the value from the live checkpoint: the kept frame is not drawn, and
    the layout never held the text in the first place."""
    confirmed = await confirmed_open(kept_store.project)
    gone = confirmed.items()[0]
    assert gone.text not in _layout(kept_store.project).read_text(encoding="utf-8")
    from daimon_tui.store.daimon_api.public import forget, normalize, store

    project = str(kept_store.project)
    key = normalize.content_key(gone.text)
    latest = store.read_latest_body(project_dir=project, route=store.Route.OWN, admit=store.Admit.ANY)
    forget.run(forget.Target(key, gone.id, forget.siblings(project, key, gone.id), project, gone.text, latest,
                             latest["session_id"], "test"), approve_rulings=lambda _r: "refused")
    assert read_kept(kept_store.project) is None


async def test_a_tampered_layout_falls_back_and_never_crashes(kept_store: demo.DemoStore) -> None:
    await confirmed_open(kept_store.project)
    path = _layout(kept_store.project)
    good = path.read_text(encoding="utf-8")
    record = json.loads(good)
    # a hash that does not match its text; a place naming another text; junk; a wrong type
    first_ref = json.dumps(record["briefing"]["sections"][0]["items"][0]["text"], separators=(",", ":"))
    other = dict(json.loads(first_ref), **{"$h": "0" * 64})
    tampered = [good.replace(first_ref, json.dumps(other, separators=(",", ":"))),
                good.replace('"$r":["', '"$r":["x', 1),
                good.replace(first_ref, json.dumps("words that were never in the checkpoint")),
                good[: len(good) // 2], "[]", good.replace('"state":"briefing"', '"state":"nonsense"'),
                good.replace('"provisional":false', '"provisional":"no"', 1)]
    for text in tampered:
        assert text != good
        path.write_text(text, encoding="utf-8")
        assert read_kept(kept_store.project) is None, text[:200]
    path.write_text(good, encoding="utf-8")
    assert read_kept(kept_store.project) is not None


async def test_a_tampered_layout_opens_as_today(kept_store: demo.DemoStore) -> None:
    confirmed = await confirmed_open(kept_store.project)
    _layout(kept_store.project).write_text('{"format": 1, "briefing": {"$r": [0]}}', encoding="utf-8")
    again = await confirmed_open(kept_store.project)
    assert texts(again) == texts(confirmed)
