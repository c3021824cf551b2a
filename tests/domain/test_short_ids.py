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
    short = shortest_unique(["abcdefgh", "abcdefghij"])
    assert short == {"abcdefgh": "abcdefgh", "abcdefghij": "abcdefghi"}
