"""Regenerate screenshots/ from the app itself, on the demo store (and, for
the teammates' section, on the test suite's two-home team store).

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

from daimon_tui.store.demo.builder import DEMO_NOW, demo_store
from daimon_tui.ui.app import DaimonTUI

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
SHOTS: dict[str, tuple[str, ...]] = {
    "briefing": ("j", "j", "j", "j", "j", "j"),
    # daimon's own line for every row, under the handoff the last session left.
    "as-daimon": ("d", "j", "j", "j"),
    "withheld": ("h",),
    "help": ("question_mark",),
    "history": ("2",),
    "audit": ("4",),
    "queue": ("3",),
    "search": ("6", "r", "e", "t", "r", "y"),
    "health": ("7",),
    # `o` on the corroborated question: the quoted turn in its transcript, each witness's words.
    "evidence": (*("j",) * 6, "o", "end"),
    # `o` on an uncertainty naming a file: its lines (Pygments) and its diff since the session.
    "evidence-world": (*("j",) * 9, "o", "end"),
}


async def take(app: DaimonTUI, name: str, keys: tuple[str, ...]) -> None:
    async with app.run_test(size=(150, 42)) as pilot:
        for key in ("", *keys):
            if key:
                await pilot.press(key)
            for _ in range(3):
                await pilot.pause()
                # The live watcher runs as long as the screen: never wait for it.
                busy = [w for w in app.workers if w.group not in {"briefing-live", "team-live", "verb"}]
                await asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)
        await pilot.pause(0.3)
        app.save_screenshot(str(OUT / f"{name}.svg"))


async def shoot(name: str, keys: tuple[str, ...]) -> None:
    with demo_store() as demo:
        await take(DaimonTUI(project_path=str(demo.project), now=DEMO_NOW.timestamp(), demo=True), name, keys)


async def shoot_log() -> None:
    """The action log after a resolve and its undo, each applied through the app's own keys."""
    from daimon_tui.ui.briefing.screen import BriefingScreen
    from daimon_tui.ui.screens.verb_modals import PlanPreviewModal

    PlanPreviewModal.CONFIRM_DELAY_S = 0.0  # the preview's guard against a stray key; keys here are deliberate

    async def settled(pilot, app: DaimonTUI) -> None:  # type: ignore[no-untyped-def]
        for _ in range(200):
            await pilot.pause(0.05)
            if isinstance(app.screen, BriefingScreen) and not [w for w in app.workers if w.group == "verb"
                                                                and w.is_running]:
                return

    with demo_store() as demo:
        app = DaimonTUI(project_path=str(demo.project), now=DEMO_NOW.timestamp(), demo=True)
        async with app.run_test(size=(150, 42)) as pilot:
            await settled(pilot, app)
            for keys in (("j", "r", "enter", "y"), ("z", "y")):
                for key in keys:
                    await pilot.press(key)
                    await pilot.pause(0.3)
                await settled(pilot, app)
        await take(DaimonTUI(project_path=str(demo.project), now=DEMO_NOW.timestamp(), demo=True), "log", ("5",))


async def shoot_safe_mode() -> None:
    """The app on a daimon it has not been tested with: the banner naming what is off."""
    from daimon_tui.store.daimon_api import mode

    with demo_store() as demo:  # built in full mode: the demo's fixed dates
        os.environ[mode.ENV_SAFE] = "1"
        mode.set_current(None)
        try:
            await take(DaimonTUI(project_path=str(demo.project), now=DEMO_NOW.timestamp(), demo=True), "safe-mode",
                       ())
        finally:
            os.environ.pop(mode.ENV_SAFE, None)
            mode.set_current(None)


async def shoot_team() -> None:
    """The teammates' section (`t`), cursor on the claim two authors state."""
    sys.path.insert(0, str(ROOT))  # the store is built by the test suite's fixture
    from tests.team_store import team_store

    root = Path(tempfile.gettempdir()).resolve() / "team"
    shutil.rmtree(root, ignore_errors=True)
    try:
        with team_store(root) as team:
            app = DaimonTUI(project_path=str(team.project), now=DEMO_NOW.timestamp())
            await take(app, "team", ("t", "j", "j"))
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def shoot_review() -> None:
    """The review after a day's changes: everything marked reviewed, then a new
    session and a resolution by daimon's own CLI; the next open shows what changed."""
    sys.path.insert(0, str(ROOT))  # the verb runs through the test suite's in-process daimon CLI
    from datetime import timedelta

    from daimon_tui.store.demo import builder as demo
    from tests.daimon_cli import daimon
    from tests.daimon_records import item_ids

    with demo_store() as store:
        app = DaimonTUI(project_path=str(store.project), now=DEMO_NOW.timestamp(), demo=True)
        async with app.run_test(size=(150, 42)) as pilot:
            for _ in range(40):
                await pilot.pause(0.1)
                if getattr(app.screen, "review", None) and app.screen.review.header() is not None:
                    break
            await pilot.press("h", "M")
            await pilot.pause(0.5)
        day4 = demo.session("S-day4", DEMO_NOW - timedelta(hours=1), "Retry policy rollout")
        day4["working_context"]["open_questions"] = [{"text": "Who owns the upload dashboards?", "trust": "inferred"}]
        demo.seed(store.project, day4)
        nightly = item_ids(store.project)["Switch the nightly job to its own bucket prefix"]
        daimon("resolve", nightly, "--project", str(store.project))
        await take(DaimonTUI(project_path=str(store.project), now=DEMO_NOW.timestamp(), demo=True), "review",
                   ("h", "n"))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    # The review state and the action log go to a temporary state directory,
    # never the person's own; the review's dwell clock stands still, so what
    # counts as read is the same on every machine however slow it is.
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="daimon-tui-shots-")
    os.environ.pop("DAIMON_TUI_LOG", None)
    from daimon_tui.ui.briefing import review as review_tracker

    review_tracker.monotonic = lambda: 0.0
    asyncio.run(shoot_review())
    print("screenshots/review.svg")
    for name, keys in SHOTS.items():
        asyncio.run(shoot(name, keys))
        print(f"screenshots/{name}.svg")
    asyncio.run(shoot_log())
    print("screenshots/log.svg")
    asyncio.run(shoot_team())
    print("screenshots/team.svg")
    asyncio.run(shoot_safe_mode())
    print("screenshots/safe-mode.svg")


if __name__ == "__main__":
    main()
