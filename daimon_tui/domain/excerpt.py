"""Shape a transcript excerpt: where the quote sits in a turn, which turns
surround it, where a huge turn is cut, and which spans must be masked.

Pure string work (no daimon, no Textual). Whether a turn holds the quote is
daimon's verdict (its matcher runs in the store); here we only find the span
to highlight, with a fold close to daimon's (case, whitespace, curly quotes
and dashes, markdown emphasis) that maps back to the original characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Brief (detail pane) and full (item view) sizes: turns on each side of the
# quoted one, and characters shown of one turn.
BRIEF_AROUND = 1
FULL_AROUND = 4
BRIEF_TURN_CHARS = 600
FULL_TURN_CHARS = 20_000

_FOLD = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})
_DROP = frozenset("*`_~")
_ELLIPSIS = re.compile(r"\.\.\.|…|\[redacted:[^\]]*\]")
_MIN_FRAGMENT = 8


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` folded for matching, with each folded character's index in `text`."""
    out: list[str] = []
    where: list[int] = []
    space = True  # collapse leading and repeated whitespace
    for i, ch in enumerate(text.translate(_FOLD)):
        if ch in _DROP:
            continue
        if ch.isspace():
            if not space:
                out.append(" ")
                where.append(i)
            space = True
            continue
        space = False
        for low in ch.casefold():
            out.append(low)
            where.append(i)
    return "".join(out), where


def quote_spans(text: str, quote: str | None) -> tuple[tuple[int, int], ...]:
    """The spans of `text` that hold `quote`'s fragments, in order (a quote may
    elide with an ellipsis or a redaction marker); () when not all are found."""
    if not quote or not text:
        return ()
    hay, where = _folded(text)
    needles = [n for piece in _ELLIPSIS.split(quote) if len(n := _folded(piece)[0].strip()) >= _MIN_FRAGMENT]
    if not needles:
        whole = _folded(quote)[0].strip()
        needles = [whole] if whole else []
    spans: list[tuple[int, int]] = []
    at = 0
    for needle in needles:
        found = hay.find(needle, at)
        if found < 0:
            return ()
        end = found + len(needle)
        spans.append((where[found], where[end - 1] + 1))
        at = end
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class Cut:
    """What is shown of one long text: `text[start:end]`, with how much is hidden."""

    start: int
    end: int
    before: int
    after: int


def cut_around(length: int, spans: Iterable[tuple[int, int]], limit: int) -> Cut:
    """A window of at most `limit` characters of a text `length` long, centred
    on the first highlighted span (or from the start)."""
    if length <= limit:
        return Cut(0, length, 0, 0)
    first = next(iter(spans), None)
    if first is None:
        start = 0
    else:
        centre = (first[0] + min(first[1], first[0] + limit)) // 2
        start = max(0, min(length - limit, centre - limit // 2))
    end = min(length, start + limit)
    return Cut(start, end, start, length - end)


def window(count: int, quoted: int | None, around: int) -> range:
    """Indices of the turns to show: `around` each side of the quoted turn
    (the first turns when none is quoted)."""
    if count <= 0:
        return range(0)
    if quoted is None:
        return range(min(count, 2 * around + 1))
    return range(max(0, quoted - around), min(count, quoted + around + 1))


# ---- masking ---------------------------------------------------------------

_LINE_END = re.compile(r"\n+")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")
_CLAUSE_END = re.compile(r"[,;:()\[\]\"“”]+\s*|\s+[-–—]+\s+")
_WORD = re.compile(r"\S+")
# Word windows are checked up to this many words (a withheld value inside a
# longer sentence); longer values are caught whole as a line or a sentence.
MAX_WINDOW_WORDS = 32
# Masking reads this far past each side of the part of a turn shown, so a
# value the cut runs through is masked, never shown in part.
MASK_MARGIN = 300
_TRIM = ".,;:!?\"'()[]{}“”‘’«»"


def _pieces(text: str, pattern: re.Pattern[str]) -> Iterable[tuple[int, int]]:
    start = 0
    for m in pattern.finditer(text):
        if m.start() > start:
            yield start, m.start()
        start = m.end()
    if start < len(text):
        yield start, len(text)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in _TRIM):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _TRIM):
        end -= 1
    return start, end


def candidate_spans(text: str) -> Iterable[tuple[int, int]]:
    """Every span a withheld value could be, taken whole: the text, each line,
    sentence and clause (as written and trimmed of punctuation), and every run
    of up to MAX_WINDOW_WORDS words that starts where a line, sentence or
    clause starts or ends where one ends (a quote is a span of a turn: it
    ends a sentence or begins a clause far more often than neither)."""
    yield 0, len(text)
    starts: set[int] = {0}
    ends: set[int] = {len(text)}
    for pattern in (_LINE_END, _SENTENCE_END, _CLAUSE_END):
        for s, e in _pieces(text, pattern):
            yield s, e
            ts, te = _trimmed(text, s, e)
            yield ts, te
            starts.update((s, ts))
            ends.update((e, te))
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    # Trimming a run only ever touches its first and last word.
    firsts = [_trimmed(text, s, e)[0] for s, e in words]
    lasts = [_trimmed(text, s, e)[1] for s, e in words]
    opens = [s in starts or firsts[i] in starts for i, (s, _e) in enumerate(words)]
    closes = [e in ends or lasts[j] in ends for j, (_s, e) in enumerate(words)]
    for i, (s, _e) in enumerate(words):
        for j in range(i, min(len(words), i + MAX_WINDOW_WORDS)):
            if opens[i] or closes[j]:
                yield s, words[j][1]
                yield firsts[i], lasts[j]


def masked_spans(text: str, withheld: Callable[[str], str | None]) -> tuple[tuple[int, int, str], ...]:
    """The spans of `text` that `withheld` judges a withheld value, with its
    reason, merged where they overlap."""
    found: list[tuple[int, int, str]] = []
    seen: set[tuple[int, int]] = set()
    for s, e in candidate_spans(text):
        if e <= s or (s, e) in seen:
            continue
        seen.add((s, e))
        reason = withheld(text[s:e])
        if reason:
            found.append((s, e, reason))
    found.sort()
    merged: list[tuple[int, int, str]] = []
    for s, e, reason in found:
        if merged and s <= merged[-1][1]:
            ps, pe, pr = merged[-1]
            merged[-1] = (ps, max(pe, e), pr)
        else:
            merged.append((s, e, reason))
    return tuple(merged)


def apply_masks(text: str, masks: Iterable[tuple[int, int, str]]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """`text` with each masked span replaced by a marker naming only its
    reason, and where the markers now sit (for styling)."""
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    at = 0
    length = 0
    for s, e, reason in masks:
        out.append(text[at:s])
        length += s - at
        marker = f"[withheld: {reason}]"
        marks.append((length, length + len(marker)))
        out.append(marker)
        length += len(marker)
        at = e
    out.append(text[at:])
    return "".join(out), tuple(marks)
