"""Regenerate screenshots/ from the app itself, on the demo store.

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from daimon_tui.store.demo.builder import DEMO_NOW, demo_store
from daimon_tui.ui.app import DaimonTUI

OUT = Path(__file__).resolve().parents[1] / "screenshots"
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
}


async def shoot(name: str, keys: tuple[str, ...]) -> None:
    with demo_store() as demo:
        app = DaimonTUI(project_path=str(demo.project), now=DEMO_NOW.timestamp(), demo=True)
        async with app.run_test(size=(150, 42)) as pilot:
            for key in ("", *keys):
                if key:
                    await pilot.press(key)
                for _ in range(3):
                    await pilot.pause()
                    # The live watcher runs as long as the screen: never wait for it.
                    busy = [w for w in app.workers if w.group not in {"briefing-live", "verb"}]
                    await asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)
            await pilot.pause(0.3)
            app.save_screenshot(str(OUT / f"{name}.svg"))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, keys in SHOTS.items():
        asyncio.run(shoot(name, keys))
        print(f"screenshots/{name}.svg")


if __name__ == "__main__":
    main()
