"""Make untrusted text safe to show: no terminal control, no markup, no bidi.

Everything daimon stores was written by models, agents, teammates or hand
edits. Before any of it reaches a terminal, a JSON document or plain output,
control characters become visible escapes (`\\x1b`, `\\u202e`), so an escape
sequence, an OSC 8 link, a bidi override or a zero-width joiner is shown as
what it is and never acts. Rich/Textual markup is neutralised by building
`rich.text.Text` objects (never markup strings) in the UI.
"""

from __future__ import annotations

import re
import unicodedata

DEFAULT_LIMIT = 4000

# Characters that change what a terminal or a reader sees without being
# visible themselves: bidi embeddings/overrides/isolates and marks, zero-width
# characters, the BOM, line and paragraph separators, the soft hyphen, and
# the "blank" letters and marks (Hangul fillers, the combining grapheme
# joiner, Khmer inherent vowels) that render as nothing in most terminals.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u2028\u2029\u00ad\u180e"
    "\u061c\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"
)

# Stacked combining marks ("Zalgo" text) can paint over the lines above and
# below; a run longer than this is escaped past the cap.
MAX_COMBINING = 4

def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def is_unsafe(ch: str) -> bool:
    if ch in _INVISIBLE:
        return True
    category = unicodedata.category(ch)
    # Cc: C0/C1 controls (ESC, BEL, CR, backspace, 0x80-0x9f); Cf: format
    # characters; Cs: lone surrogates; Co/Cn: private/unassigned.
    return category in {"Cc", "Cf", "Cs", "Co", "Cn"}


# The combining blocks stacking generators draw from; a longer run than the
# cap sends a printable run down the slow path.
_STACKED = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
    f"{{{MAX_COMBINING + 1},}}"
)


_INVISIBLE_RE = re.compile("[" + re.escape("".join(sorted(_INVISIBLE))) + "]")
_CHUNK = 4096


def _clean(run: str) -> bool:
    # All in C: most non-ASCII text (accents, CJK, emoji) is printable,
    # holds no invisible character and no stacked marks.
    return run.isprintable() and not _INVISIBLE_RE.search(run) and not _STACKED.search(run)


def _neutralise(run: str, keep_newlines: bool) -> str:
    if _clean(run.replace("\n", "") if keep_newlines else run):
        return run
    if len(run) > 64:
        # Halve until the unsafe characters are cornered: a few escapes in a
        # long text cost a few short walks, not a walk over all of it.
        half = len(run) // 2
        return _neutralise(run[:half], keep_newlines) + _neutralise(run[half:], keep_newlines)
    out: list[str] = []
    marks = 0
    for ch in run:
        if ch == "\n" and keep_newlines:
            out.append(ch)
            marks = 0
        elif ch == "\t":
            out.append(" ")
            marks = 0
        elif is_unsafe(ch):
            out.append(_escape(ch))
            marks = 0
        elif unicodedata.combining(ch) or unicodedata.category(ch) in {"Mn", "Me"}:
            marks += 1
            out.append(ch if marks <= MAX_COMBINING else _escape(ch))
        else:
            out.append(ch)
            marks = 0
    return "".join(out)


def inert(value: object, *, limit: int | None = DEFAULT_LIMIT, keep_newlines: bool = False) -> str:
    """`value` as one safe string. Newlines are escaped unless `keep_newlines`;
    text past `limit` characters is cut with a marker saying how much is left."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    hidden = 0
    # A marker never costs more than it hides: an overflow no longer than the
    # marker is shown whole (the width stays within limit + marker either way).
    if limit is not None and len(text) - limit > len(_marker(len(text) - limit)):
        hidden = len(text) - limit
        text = text[:limit]
    # Megabyte texts stay fast: only the pieces holding something unsafe pay
    # the per-character walk. (A mark stack split by a piece edge may show
    # more than the cap: cosmetic, never a control character.)
    text = "".join(_neutralise(text[i : i + _CHUNK], keep_newlines) for i in range(0, len(text), _CHUNK))
    if hidden:
        text += _marker(hidden)
    return text


def _marker(hidden: int) -> str:
    return f" … [+{hidden:,} chars]"
