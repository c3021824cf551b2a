"""A cheap, sound no before daimon's matcher normalizes a whole transcript:
a word of the quote that is nowhere in the haystack cannot match there."""

from __future__ import annotations

import re

SPLITS = re.compile(r"\.\.\.|…|\[redacted:")


def light(text: str) -> str:
    """`text` without the characters daimon's matcher deletes (`*`, `` ` ``, `_`, `~`), case-folded."""
    return text.replace("*", "").replace("`", "").replace("_", "").replace("~", "").casefold()


def a_word_missing(quote: str, haystack: str) -> bool:
    """Whether a word of the quote is nowhere in `haystack`, so daimon's matcher
    cannot find it there (a cheap no before normalizing megabytes). Sound:
    daimon's normalization deletes `*`, `` ` ``, `_`, `~`, folds punctuation and
    whitespace (never into a letter), drops list markers and case-folds, so a
    word of the quote (digits alone aside: a list marker's number goes) is in the
    normalized haystack only if it is in `light(haystack)`. A quote daimon cuts
    into fragments (an ellipsis, a redaction) is left to daimon."""
    if SPLITS.search(quote):
        return False
    words = {w for w in re.findall(r"\w+", light(quote)) if not w.isdigit()}
    if not words:
        return False
    folded = light(haystack)
    return any(w not in folded for w in words)
