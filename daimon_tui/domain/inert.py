"""Make untrusted text safe to show: no terminal control, no markup, no bidi.

Everything daimon stores was written by models, agents, teammates or hand
edits. Before any of it reaches a terminal, a JSON document or plain output,
control characters become visible escapes (`\\x1b`, `\\u202e`), so an escape
sequence, an OSC 8 link, a bidi override or a zero-width joiner is shown as
what it is and never acts. Rich/Textual markup is neutralised by building
`rich.text.Text` objects (never markup strings) in the UI.
"""

from __future__ import annotations

import unicodedata

DEFAULT_LIMIT = 4000

# Characters that change what a terminal or a reader sees without being
# visible themselves: bidi embeddings/overrides/isolates, zero-width
# characters, the BOM, line and paragraph separators.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u2028\u2029\u00ad\u180e"
)


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


def inert(value: object, *, limit: int | None = DEFAULT_LIMIT, keep_newlines: bool = False) -> str:
    """`value` as one safe string. Newlines are escaped unless `keep_newlines`;
    text past `limit` characters is cut with a marker saying how much is left."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    hidden = 0
    if limit is not None and len(text) > limit:
        hidden = len(text) - limit
        text = text[:limit]
    out: list[str] = []
    for ch in text:
        if keep_newlines and ch == "\n":
            out.append(ch)
        elif ch == "\t":
            out.append(" ")
        elif is_unsafe(ch):
            out.append(_escape(ch))
        else:
            out.append(ch)
    if hidden:
        out.append(f" … [+{hidden:,} chars]")
    return "".join(out)
