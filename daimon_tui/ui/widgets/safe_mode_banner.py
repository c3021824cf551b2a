"""The safe-mode banner: which daimon this is and what is off (hidden in full mode)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class SafeModeBanner(Static):
    DEFAULT_CSS = """
    SafeModeBanner {
        display: none;
        height: auto;
        padding: 0 1;
        background: $warning 20%;
    }
    SafeModeBanner.safe {
        display: block;
    }
    """

    def __init__(self, *, deferred: bool = False) -> None:
        super().__init__()
        self.deferred = deferred  # a kept first frame: checked once it is drawn (daimon is imported then)

    def on_mount(self) -> None:
        if not self.deferred:
            self.check()

    def check(self) -> None:
        from daimon_tui.services.health import daimon_check  # imports daimon

        banner = daimon_check().banner
        if banner:
            self.update(Text(banner))  # plain text: a version string is never markup
            self.add_class("safe")
