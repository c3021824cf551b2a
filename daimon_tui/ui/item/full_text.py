"""An item's whole text and quote, however long: rows and the detail pane
truncate, this view does not. Read-only, and inert like everything else."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from daimon_tui.domain.inert import inert
from daimon_tui.models import Item
from daimon_tui.ui.actions import bindings, everywhere_bindings
from daimon_tui.ui.navigation import GoesBack
from daimon_tui.ui.style_sheets import sheet

# Past this many characters the text is broken into lines here, once, instead of
# TextArea's soft wrap (which re-measures the whole document on every width):
# a megabyte item then opens at once, wraps, and Esc is taken at once.
PREWRAP_OVER = 100_000


def prewrapped(text: str, width: int) -> str:
    """Each line cut into pieces of `width` characters (a plain cut: cheap on megabytes)."""
    width = max(20, width)
    out: list[str] = []
    for line in text.split("\n"):
        out.extend(line[i : i + width] for i in range(0, max(len(line), 1), width))
    return "\n".join(out)


def full_text(item: Item) -> str:
    parts = [inert(item.text, limit=None, keep_newlines=True)]
    if item.quote:
        parts += ["", "quote:", inert(item.quote, limit=None, keep_newlines=True)]
    if item.because:
        parts += ["", "because:", inert(item.because, limit=None, keep_newlines=True)]
    return "\n".join(parts)


class FullTextScreen(GoesBack, ModalScreen[None]):
    CSS_PATH = sheet("overlays")  # read when first opened, not at the first frame
    BINDINGS: ClassVar[list[BindingType]] = [*bindings({"Full text"}), *everywhere_bindings()]

    def __init__(self, item: Item) -> None:
        super().__init__()
        self.item = item

    def compose(self) -> ComposeResult:
        with Vertical(id="full-text"):
            title = f"{inert(self.item.id or '(no id)', limit=60)} — full text ({len(self.item.text):,} chars)"
            yield Static(f"{title} · esc/q close", id="full-text-title", markup=False)
            # A read-only TextArea renders only what is on screen: megabytes stay responsive.
            text = full_text(self.item)
            if len(text) > PREWRAP_OVER:
                # the dialog is 90% of the screen; borders, gutter and cursor take the rest
                width = int(self.app.size.width * 0.9) - 6
                yield TextArea(prewrapped(text, width), read_only=True, soft_wrap=False, id="full-text-body")
            else:
                yield TextArea(text, read_only=True, soft_wrap=True, id="full-text-body")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While this view is open, the view below's `screen.…` keys (verbs, marks)
        # resolve to it: none runs here, so its footer must not offer them.
        return hasattr(self, f"action_{action}")
