"""Regenerate screenshots/ from the app itself, on the demo store (and, for
the teammates' section, on the test suite's two-home team store).

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import asyncio
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
    "log": ("5",),
    "search": ("6", "r", "e", "t", "r", "y"),
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


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, keys in SHOTS.items():
        asyncio.run(shoot(name, keys))
        print(f"screenshots/{name}.svg")
    asyncio.run(shoot_team())
    print("screenshots/team.svg")


if __name__ == "__main__":
    main()
