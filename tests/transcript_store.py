"""The demo store with its sessions' host transcripts, where daimon's locator
looks (Claude Code JSONL under the sandbox's claude projects dir), and the
receipts capture stamps binding them; `turns` replaces a session's turns."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.demo import transcripts as demo_transcripts
from tests.receipt_kit import shared_kit


@contextlib.contextmanager
def transcript_store(root: Path, turns: Mapping[str, tuple] | None = None) -> Iterator[demo.DemoStore]:
    saved = dict(demo_transcripts.DEMO_TURNS)
    demo_transcripts.DEMO_TURNS.update(turns or {})
    try:
        with demo.sandboxed(root, kit=shared_kit()) as st:
            demo.populate(st.project, transcripts=True)
            yield st
    finally:
        demo_transcripts.DEMO_TURNS.clear()
        demo_transcripts.DEMO_TURNS.update(saved)
