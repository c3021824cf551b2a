"""The table views' `/` filter: words anywhere in a row, any case; `-word` leaves rows out."""

from __future__ import annotations

from daimon_tui.domain.row_words import read


def test_every_word_must_be_somewhere_in_the_row() -> None:
    query = read("Day2 edited")
    assert query.matches(("S-day2", None, "topic", "edited"))
    assert not query.matches(("S-day2", "topic"))


def test_a_minus_word_leaves_rows_out_and_a_lone_minus_is_no_word() -> None:
    assert read("-refused").unwanted == ("refused",)
    assert not read("-refused").matches(("undo", "refused"))
    assert read("-").matches(("anything",)) and not read("-")


def test_an_empty_filter_keeps_every_row() -> None:
    assert not read("   ") and read("").matches(())
