"""The full-text view never truncates and never lets control characters through."""

from __future__ import annotations

from daimon_tui.models import Item
from daimon_tui.ui.item.full_text import full_text


def test_megabytes_are_kept_whole_and_inert() -> None:
    text = ("retry \x1b[31mred\x1b[0m \u202eevil " * 40_000) + "END"
    item = Item(id="o-abcdef", kind="question", section="open_loops", field="f", text=text,
                mark="inferred", stored_mark="inferred", quote="q\x07uote")
    shown = full_text(item)
    assert shown.count("retry") == 40_000 and "END" in shown
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown
    assert "[+" not in shown and "quote:" in shown
