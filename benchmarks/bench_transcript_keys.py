"""`o` in the app, end to end, against `daimon why` on the same item, at 1, 5 and 25 MB.

    python benchmarks/bench_transcript_keys.py [--sizes 1,5,25] [--runs 3]

The sibling of `bench_transcript_sizes.py` (which times the read alone): for
each size the demo store (daimon's own `testing` helpers, in a temporary
sandbox) gets the item's session transcript from `tests/transcript_gen.py`
in the shapes real Claude Code sessions have, the quote in its last turn.
Then, in one process and one run per row:

- `o` cold: a fresh app (Pilot, headless; its own judging child), the
  briefing confirmed, the cursor on the item and the app idle; then the
  sized transcript is copied over the item's (a new file identity: nothing
  of ours kept for it, as when a session has just grown) and `o` pressed: the
  time from the key to the quoted turn painted in the item view
  (`EvidencePanel.painted_at`, a `▶` turn shown);
- `o` warm: back (Esc), `o` again on the same item, the same time;
- `daimon why` on the item (`api.why`, what the CLI runs, in this process),
  between the two.

Medians of `--runs`, each `o` as a ratio to `why` (targets: cold ≤ 1.0×, warm ≤ 0.1×).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from daimon_briefing import api  # noqa: E402

from daimon_tui.store.demo import builder as demo  # noqa: E402
from daimon_tui.store.demo import transcripts as demo_transcripts  # noqa: E402
from tests.store.test_transcripts import RETRY, ids  # noqa: E402
from tests.transcript_store import transcript_store  # noqa: E402
from tests.ui.settle import press_until, settle, wait_until  # noqa: E402
from tests.ui.test_evidence import shown  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_transcript_sizes import QUOTE, session  # noqa: E402

NOW = demo.DEMO_NOW.timestamp()
WAIT_S = 180


async def one_run(project: Path, sized: Path, path: Path) -> tuple[float, float]:
    """(cold, warm) seconds from the `o` key to the quoted turn on screen, in
    a fresh app; `sized` is copied over the item's transcript `path` just before."""
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.briefing.screen import BriefingScreen
    from daimon_tui.ui.item.screen import ItemScreen
    from daimon_tui.ui.widgets.evidence import EvidencePanel

    app = DaimonTUI(project_path=str(project), now=NOW)
    times: list[float] = []
    async with app.run_test(headless=True, size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen), WAIT_S, "the briefing")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        await press_until(pilot, "j", lambda: getattr(screen.current_item(), "text", None) == RETRY)
        await settle(pilot)
        shutil.copyfile(sized, path)
        for _ in range(2):
            started = time.perf_counter()
            await pilot.press("o")
            await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), WAIT_S, "the item view")
            panel = app.screen.query_one(EvidencePanel)

            def painted(panel: EvidencePanel = panel) -> bool:
                return panel.painted_at is not None and "▶ user" in shown(panel)

            await wait_until(pilot, painted, WAIT_S, "the quoted turn")
            times.append(panel.painted_at - started)  # type: ignore[operator]
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is screen, WAIT_S, "back")
            await settle(pilot)
    return times[0], times[1]


def row(mb: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="dtui-bench-", dir="/tmp") as folder, transcript_store(Path(folder)) as st:
        item = ids(st.project)[RETRY]
        sized = session(mb, f"{QUOTE.capitalize()}, as agreed.").write(Path(folder) / "sized.jsonl")
        path = demo_transcripts.transcript_path("S-day3")
        why, cold, warm = [], [], []
        for _ in range(runs):
            c, w = asyncio.run(one_run(st.project, sized, path))
            started = time.perf_counter()
            got = api.why(str(st.project), item)
            why.append(time.perf_counter() - started)
            assert got["axes"]["current_support"] == "transcript-scan-match", got["axes"]
            cold.append(c)
            warm.append(w)
        med = statistics.median
        return {"MB": sized.stat().st_size / 1e6, "why": med(why), "cold": med(cold), "warm": med(warm)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1,5,25")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| size | daimon why | o cold (key to turns) | cold/why | o warm | warm/why |")
    print("|---|---|---|---|---|---|")
    for mb in (int(s) for s in args.sizes.split(",")):
        r = row(mb, args.runs)
        print(f"| {r['MB']:.1f} MB | {r['why']:.2f} s | {r['cold']:.2f} s | {r['cold'] / r['why']:.2f}× "
              f"| {r['warm'] * 1000:.0f} ms | {r['warm'] / r['why']:.3f}× |", flush=True)


if __name__ == "__main__":
    main()
