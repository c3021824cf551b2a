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
  time from the key to the quoted turn first painted in the item view (the
  panel's first paint with a `▶` turn: `painted_at` is its latest paint, the
  world's evidence after it), and to the first frame Textual composed after
  that paint (headless: composed, not written out);
- `o` warm: back (Esc), `o` again on the same item, the same times (the
  view closed last is shown again when nothing it read changed:
  `ui.item.kept_view`; the base code builds it anew);
- `daimon why` on the item, after the app's run, two ways: `daimon why ID`
  as a person types it (daimon's own CLI, spawned in the project directory
  with the environment the app gives its judging child, timed to its exit),
  then `api.why` (what that CLI runs, in this process: the strict reference,
  no interpreter start or imports). The benchmark runs daimon's CLI; the app
  never does.

Medians of `--runs`, each `o` as a ratio to both references, labelled (targets:
cold ≤ 1.0×, warm ≤ 0.1×).
`--floor` adds Textual's own cost of the view: the same key pushing the item
view with nothing to read, and a bare ModalScreen, to their first frame.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

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

if TYPE_CHECKING:
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.briefing.screen import BriefingScreen

NOW = demo.DEMO_NOW.timestamp()
WAIT_S = 180


# When the item view's panel first painted the quoted turn after the key (`painted_at` is its latest paint).
first_paint: dict[object, float] = {}


def _note_first_paint() -> None:
    from daimon_tui.ui.widgets.evidence import EvidencePanel

    paint = EvidencePanel._paint

    def noted(panel: EvidencePanel, item: object, evidence: object, *args: object, **kw: object) -> None:
        paint(panel, item, evidence, *args, **kw)  # type: ignore[arg-type]
        quoted = getattr(getattr(evidence, "item", None), "quoted", None)
        if quoted is not None and not panel.brief:
            first_paint.setdefault(panel, time.perf_counter())

    EvidencePanel._paint = noted  # type: ignore[method-assign]


def _frames(app: object) -> list[tuple[float, object]]:
    """When each frame was composed, and of which screen (Textual's `_display`:
    headless, the frame is composed but not written out)."""
    frames: list[tuple[float, object]] = []
    display = app._display  # type: ignore[attr-defined]

    def noted(screen: object, renderable: object) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append((time.perf_counter(), screen))

    app._display = noted  # type: ignore[attr-defined]
    return frames



async def _on_the_retry_item(app: DaimonTUI, pilot: Any) -> BriefingScreen:
    """The briefing confirmed, settled, and its cursor on the quoted item."""
    from daimon_tui.ui.briefing.screen import BriefingScreen

    await wait_until(pilot, lambda: isinstance(app.screen, BriefingScreen), WAIT_S, "the briefing")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, BriefingScreen)
    await press_until(pilot, "j", lambda: getattr(screen.current_item(), "text", None) == RETRY)
    await settle(pilot)
    return screen

async def one_run(project: Path, sized: Path, path: Path) -> tuple[tuple[float, float], tuple[float, float]]:
    """(cold, warm), each (seconds from the `o` key to the quoted turn painted
    in the item view, to the first frame composed after it), in a fresh app;
    `sized` is copied over the item's transcript `path` just before."""
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.item.screen import ItemScreen
    from daimon_tui.ui.widgets.evidence import EvidencePanel

    app = DaimonTUI(project_path=str(project), now=NOW)
    times: list[float] = []
    frames = _frames(app)
    async with app.run_test(headless=True, size=(140, 40)) as pilot:
        screen = await _on_the_retry_item(app, pilot)
        shutil.copyfile(sized, path)
        for _ in range(2):
            first_paint.clear()  # a view shown again (`ui.item.kept_view`) keeps its panel
            started = time.perf_counter()
            await pilot.press("o")
            await wait_until(pilot, lambda: isinstance(app.screen, ItemScreen), WAIT_S, "the item view")
            panel = app.screen.query_one(EvidencePanel)

            def painted(panel: EvidencePanel = panel) -> bool:
                return panel.painted_at is not None and "▶ user" in shown(panel)

            await wait_until(pilot, painted, WAIT_S, "the quoted turn")
            turns_at = first_paint[panel]
            await wait_until(pilot, lambda at=turns_at: bool(frames) and frames[-1][0] > at, WAIT_S, "a frame after")
            times.append((turns_at - started, next(f for f, _s in frames if f > turns_at) - started))
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is screen, WAIT_S, "back")
            await settle(pilot)
    return times[0], times[1]


async def floor_run(project: Path) -> dict[str, float]:
    """Textual's own cost of `o`: from the key to the first frame of (a) the
    item view with the same widgets and nothing to read (no project: the
    evidence panel stays empty) and (b) a bare ModalScreen holding one line,
    each pushed by the same key over the same briefing."""
    from textual.binding import Binding
    from textual.screen import ModalScreen
    from textual.widgets import Static

    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.item.screen import ItemScreen

    class Bare(ModalScreen[None]):
        BINDINGS: ClassVar = [Binding("escape", "dismiss", "Close")]

        def compose(self):  # type: ignore[no-untyped-def]
            yield Static("one line")

    app = DaimonTUI(project_path=str(project), now=NOW)
    frames = _frames(app)
    out: dict[str, float] = {}
    async with app.run_test(headless=True, size=(140, 40)) as pilot:
        screen = await _on_the_retry_item(app, pilot)
        item = screen.current_item()
        assert item is not None
        variants = {
            "same widgets, no evidence": lambda: ItemScreen(item, None, lambda d: (), project=None),
            "bare ModalScreen": Bare,
        }
        for name, make in variants.items():
            screen.action_open_item = lambda make=make: app.push_screen(make())  # type: ignore[method-assign]
            started = time.perf_counter()
            await pilot.press("o")
            await wait_until(pilot, lambda at=started: any(t > at and s is not screen for t, s in frames), WAIT_S, name)
            out[name] = next(t for t, s in frames if t > started and s is not screen) - started
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is screen, WAIT_S, "back")
            await settle(pilot)
    return out


def floor(runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="dtui-bench-", dir="/tmp") as folder, transcript_store(Path(folder)) as st:
        got = [asyncio.run(floor_run(st.project)) for _ in range(runs)]
        return {name: statistics.median(g[name] for g in got) for name in got[0]}


def daimon_cli() -> str:
    """daimon's own CLI: the one beside this interpreter, else the one on PATH."""
    beside = Path(sys.executable).parent / "daimon"
    found = str(beside) if beside.exists() else shutil.which("daimon")
    if found is None:
        raise SystemExit("daimon's CLI (`daimon`) not found beside this Python or on PATH")
    return found


def cli_why(project: Path, item: str) -> float:
    """Seconds `daimon why ITEM` takes, typed in the project directory, to its exit."""
    from daimon_tui.store.child.judge_service import child_env

    started = time.perf_counter()
    done = subprocess.run([daimon_cli(), "why", item], cwd=project, env=child_env(), capture_output=True,
                          text=True, check=False)
    took = time.perf_counter() - started
    assert done.returncode == 0 and "transcript-scan-match" in done.stdout, (done.returncode, done.stdout,
                                                                           done.stderr)
    return took


def row(mb: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="dtui-bench-", dir="/tmp") as folder, transcript_store(Path(folder)) as st:
        item = ids(st.project)[RETRY]
        sized = session(mb, f"{QUOTE.capitalize()}, as agreed.").write(Path(folder) / "sized.jsonl")
        path = demo_transcripts.transcript_path("S-day3")
        why, cli, cold, warm, cold_frame, warm_frame = [], [], [], [], [], []
        for _ in range(runs):
            c, w = asyncio.run(one_run(st.project, sized, path))
            cli.append(cli_why(st.project, item))
            started = time.perf_counter()
            got = api.why(str(st.project), item)
            why.append(time.perf_counter() - started)
            assert got["axes"]["current_support"] == "transcript-scan-match", got["axes"]
            cold.append(c[0])
            warm.append(w[0])
            cold_frame.append(c[1])
            warm_frame.append(w[1])
        med = statistics.median
        return {"MB": sized.stat().st_size / 1e6, "why": med(why), "cli": med(cli), "cold": med(cold),
                "warm": med(warm), "cold_frame": med(cold_frame), "warm_frame": med(warm_frame)}


def _time(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 0.1 else f"{seconds * 1000:.0f} ms"


def _ratios(seconds: float, r: dict[str, float]) -> str:
    return f"{seconds / r['why']:.2f}× | {seconds / r['cli']:.2f}×"


def print_tables(rows: list[dict[str, float]]) -> None:
    print("\nKey to the quoted turn painted:\n")
    print("| size | `api.why` | `daimon why` (CLI) | o cold | cold / api.why | cold / CLI "
          "| o warm | warm / api.why | warm / CLI |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['MB']:.1f} MB | {_time(r['why'])} | {_time(r['cli'])} | {_time(r['cold'])} "
              f"| {_ratios(r['cold'], r)} | {_time(r['warm'])} | {_ratios(r['warm'], r)} |")
    print("\nKey to the first frame composed after that paint:\n")
    print("| size | o cold, to its frame | cold / api.why | cold / CLI "
          "| o warm, to its frame | warm / api.why | warm / CLI |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['MB']:.1f} MB | {_time(r['cold_frame'])} | {_ratios(r['cold_frame'], r)} "
              f"| {_time(r['warm_frame'])} | {_ratios(r['warm_frame'], r)} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1,5,25")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--floor", action="store_true", help="also Textual's own cost of pushing the view")
    args = parser.parse_args()
    _note_first_paint()
    rows = []
    for mb in (int(s) for s in args.sizes.split(",")):
        rows.append(row(mb, args.runs))
        print(f"{mb} MB: " + ", ".join(f"{k} {v:.3f}" for k, v in rows[-1].items()), flush=True)
    print_tables(rows)

    if args.floor:
        print("\n| the floor: key to first frame | median |\n|---|---|")
        for name, seconds in floor(args.runs).items():
            print(f"| {name} | {seconds * 1000:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
