"""The world-checks' progress bar, made when a check first starts (`WorldChecks.progress_bar`):
hidden until then, Textual's ProgressBar (its bar, its percentage, their stylesheets) was
composed and styled with every first frame."""

from __future__ import annotations

from textual.widgets import ProgressBar


class WorldProgress(ProgressBar):
    """A run's progress (shown for more than one item): it only draws."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, show_eta=False)
