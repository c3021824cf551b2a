"""The words for daimon's evidence axes, and for the app's own findings about
a quote daimon's matcher does not reproduce (said as the app's, never as
daimon's verdict)."""

from __future__ import annotations

LOCATOR_WORDS = {
    "resolved": "found on this machine",
    "absent-local": "not on this machine (missing, or moved out of the host's transcript folder)",
    "remote-author": "a teammate's session: the transcript is on their machine",
    "ambiguous": "more than one transcript could be the source: daimon will not guess",
    "unreadable": "exists but cannot be read",
    "unsupported": "this host's transcripts cannot be located",
}
BYTES_WORDS = {
    "unchanged": "unchanged since capture",
    "changed": "CHANGED since capture: the turns below may not be what was quoted",
    "unknown": "not comparable (no capture receipt, or no transcript)",
}
# daimon's `current_support` axis, in daimon's terms: `not-reproduced` says
# what daimon says, not why (a quote may never have been findable).
SUPPORT_WORDS = {
    "message-id-match": "the quote is in the message its receipt binds",
    "transcript-scan-match": "the quote is in this turn (daimon's matcher, turn by turn)",
    "not-reproduced": "daimon's matcher does not reproduce the quote in this transcript",
    "not-checked": "no quote to look for",
}
# Where the app found a quote daimon does not reproduce (`transcript_rows.Part.where`).
WHERE_WORDS = {
    "thinking": "found in a thinking block, which daimon's matcher does not read",
    "tool-output": "found in a tool's output past the first 500 characters, the part daimon's matcher reads",
    "tool-input": "found in a tool call's input, which daimon's matcher does not read",
    "compact-summary": "found in a compaction summary, which daimon's matcher does not read",
    "sidechain": "found in a sub-agent (sidechain) turn, which daimon's matcher does not read",
    "meta": "found in a host-written (meta or attachment) row, which daimon's matcher does not read",
    "summary": "found in a session summary row, which daimon's matcher does not read",
    "system": "found in a system row, which daimon's matcher does not read",
    "reasoning": "found in the model's reasoning, which daimon's matcher does not read",
    "function-call": "found in a tool call's arguments (Codex), which daimon's matcher does not read",
    "function-call-output": "found in a tool's output (Codex), which daimon's matcher does not read",
    "response-item": "found in a Codex response item, which daimon's matcher does not read (it reads the events)",
    "absent": "not in this transcript at all",
}
APP_FINDING = "the app's own finding, not daimon's"


def where_words(where: str) -> str:
    return WHERE_WORDS.get(where, f"found in a part daimon's matcher does not read ({where})")
