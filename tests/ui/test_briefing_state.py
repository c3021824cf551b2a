"""The briefing view's one state, without a screen: a ticket holds until what
the pane shows changes, and the cursor wants back a row a rebuild took."""

from __future__ import annotations

from daimon_tui.models import Item, WithheldItem
from daimon_tui.ui.briefing.state import BriefingState
from daimon_tui.ui.widgets.briefing_rows import Row


def item_row(item_id: str) -> Row:
    return Row(item=Item(id=item_id, kind="decision", section="decisions", field="working_context.recent_decisions",
                         text=f"text of {item_id}", mark="inferred", stored_mark="inferred"))


def test_a_ticket_is_dropped_once_the_row_under_the_cursor_changes() -> None:
    state = BriefingState()
    state.landed(item_row("a"), by_person=False)
    asked = state.ticket()
    assert asked.item_id == "a" and state.holds(asked)
    state.landed(item_row("a"), by_person=False)  # a rebuild, the same item under the cursor
    assert state.holds(asked)
    state.landed(None, by_person=False)  # a filter to nothing
    assert not state.holds(asked)
    again = state.ticket()
    state.landed(item_row("b"), by_person=True)
    assert not state.holds(again)


def test_the_cursor_wants_back_a_row_a_rebuild_took_but_not_one_a_filter_hid() -> None:
    state = BriefingState()
    state.landed(item_row("a"), by_person=True)
    state.landed(item_row("b"), by_person=False, keep_lost=False)  # a filter left "a" out
    assert state.wanted is None
    state.landed(None, by_person=False)  # "b" retracted: gone from the filtered list
    assert state.wanted == ("item", "b")
    withheld = Row(withheld=WithheldItem(id="b", kind="decision", state="retracted"))
    state.landed(withheld, by_person=False)  # `h`: listed again, as a withheld row of the same item
    assert state.wanted is None and state.under == ("item", "b")
    state.landed(None, by_person=False)
    state.landed(item_row("c"), by_person=True)  # the person moved: nothing is wanted back
    assert state.wanted is None
