"""A key pressed before the briefing's list box has mounted its rows (a fast
typist at start-up) asks for the cursor's row: the answer is "none", not a crash
(CI saw `NoMatches: '#items'` end the app)."""

from __future__ import annotations

from daimon_tui.ui.widgets.item_list import ItemList


def test_the_cursor_of_a_box_whose_rows_have_not_mounted_is_none() -> None:
    box = ItemList(id="items-box")
    assert box.current_row() is None
    box.show_position()  # the border's position line too
    assert box.border_subtitle == ""
