"""The demo store (`daimon-tui --demo`): where its temporary project lives, so
what the person reads names it masked, not as a temporary path. The store is
built by the composition root (`cli.py`, `store.demo.builder`)."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.store import paths
from daimon_tui.store.demo.builder import demo_root


def demo_place(project: Path | str) -> tuple[Path, str]:
    """The temporary directory the demo `project` lives in, and its daimon slug."""
    root = demo_root(project)
    return root, paths.slug_of(root)
