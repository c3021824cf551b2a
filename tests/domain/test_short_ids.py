from daimon_tui.domain.short_ids import shortest_unique


def test_the_shortest_unique_prefix_as_git_does() -> None:
    ids = ["0b9f3c1e-aaaa-4d2b-9c11-1234567890ab", "0b9f3c1e-aaab-4d2b-9c11-1234567890ab",
           "7c2e9d00-1111-4a2b-8c33-abcdefabcdef", "S-day1"]
    short = shortest_unique(ids)
    assert short["7c2e9d00-1111-4a2b-8c33-abcdefabcdef"] == "7c2e9d0"
    assert short["0b9f3c1e-aaaa-4d2b-9c11-1234567890ab"] == "0b9f3c1e-aaaa"
    assert short["0b9f3c1e-aaab-4d2b-9c11-1234567890ab"] == "0b9f3c1e-aaab"
    assert short["S-day1"] == "S-day1"
    assert len(set(short.values())) == len(short)


def test_an_id_that_is_a_prefix_of_another_stays_whole() -> None:
    short = shortest_unique(["abcdefghijklm", "abcdefghijklmnop"])
    assert short == {"abcdefghijklm": "abcdefghijklm", "abcdefghijklmnop": "abcdefghijklmn"}


def test_a_short_id_is_shown_whole() -> None:
    """A 7-character cut of "S-alice-1" would read as another name; item ids (14) are cut."""
    from daimon_tui.domain.short_ids import short_id

    assert shortest_unique(["S-alice-1", "r-166ad919dbb3"]) == {"S-alice-1": "S-alice-1", "r-166ad919dbb3": "r-166ad"}
    assert short_id("S-alice-1") == "S-alice-1"
    assert short_id("7c2e9d00-2222-4a2b-8c33-abcdefabcdef") == "7c2e9d0"
