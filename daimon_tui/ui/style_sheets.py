"""Where the .tcss sheets are, and each screen's sheet by name. The app reads
only the briefing's sheet at start; every other view names its own sheet in
its screen class's CSS_PATH, which Textual reads when that screen is first
opened, so a later open's first frame parses and matches only what it draws."""

from __future__ import annotations

from pathlib import Path


def styles_dir() -> Path:
    """The wheel's copy (`daimon_tui/styles`, made by setup.py), else the
    checkout's top-level `styles/`, which is their source."""
    shipped = Path(__file__).resolve().parents[1] / "styles"
    return shipped if shipped.is_dir() else Path(__file__).resolve().parents[2] / "styles"


STYLES = styles_dir()


def sheet(name: str) -> str:
    """The path of one sheet, e.g. `sheet("history")` for styles/history.tcss."""
    return str(STYLES / f"{name}.tcss")
