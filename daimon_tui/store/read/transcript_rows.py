"""The rows of a host transcript as the host wrote them, for what daimon's
parser leaves out: the app's own reading, never daimon's verdict.

daimon's parser (`transcript.from_file`) keeps the `text` blocks of user and
assistant rows and the first 500 characters of a tool's output; it skips
thinking blocks, tool inputs, images, sub-agent (`isSidechain`) rows, compaction
summaries (`isCompactSummary`), meta and attachment rows, and every other row
type; of a Codex rollout it reads the `event_msg` stream only. This module
reads those parts so the view can say where a quote daimon does not reproduce
really is, mark where an image was, and count a sub-agent file's turns.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# daimon reads this much of a tool's output (`transcript._TOOL_RESULT_MAX_CHARS`).
TOOL_READ_CHARS = 500
IMAGE_MARK = "[image]"
# Up to this many turns are found by their bytes; more (the pager's whole copy) in one pass.
BY_BYTES = 64


@dataclass(frozen=True, slots=True)
class Part:
    """One piece of a row daimon's matcher does not read."""

    where: str  # thinking | tool-output | compact-summary | sidechain | reasoning | function-call | ... (WHERE_WORDS)
    text: str
    role: str
    uid: str | None = None
    ts: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Facts:
    """Of the turns on screen: each row's timestamp, and the layout of those holding an image."""

    stamps: dict[str, str] = field(default_factory=dict)
    images: dict[str, tuple[str | None, ...]] = field(default_factory=dict)  # uuid -> text blocks, None: an image
    looked: frozenset[str] = frozenset()  # the ids looked up


def _rows(path: Path, word: str | None = None) -> Iterator[tuple[int, dict]]:
    """(line number, row) for each JSON object row; `word` (lower case ASCII):
    only the lines holding it are parsed."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if word is not None and word not in raw.lower():
                continue
            try:
                row = json.loads(raw)
            except ValueError:
                continue
            if isinstance(row, dict):
                yield number, row


def _row_at(data: bytes, uid: str) -> dict | None:
    """The row whose `uuid` is `uid`, found by its bytes: the lines that hold
    the id (its own, and those naming it as a parent) are parsed, no other."""
    needle = json.dumps(uid).encode()
    at = data.find(needle)
    while at >= 0:
        start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        try:
            row = json.loads(data[start:end])
        except ValueError:
            row = None
        if isinstance(row, dict) and isinstance(row.get("uuid"), str) and row["uuid"].strip() == uid:
            return row
        at = data.find(needle, end)
    return None


def facts(path: Path, ids: set[str]) -> Facts:
    """The timestamps and image layouts of the rows with these host message
    ids (the turns on screen): a whole transcript is never parsed for them."""
    stamps: dict[str, str] = {}
    images: dict[str, tuple[str | None, ...]] = {}
    if not ids:
        return Facts()
    if len(ids) > BY_BYTES:
        rows: Iterator[tuple[str, dict | None]] = (
            (row["uuid"].strip(), row) for _line, row in _rows(path)
            if isinstance(row.get("uuid"), str) and row["uuid"].strip() in ids)
    else:
        data = path.read_bytes()
        rows = ((uid, _row_at(data, uid)) for uid in ids)
    for uid, row in rows:
        if row is None:
            continue
        ts = row.get("timestamp")
        if isinstance(ts, str):
            stamps[uid] = ts[:40]
        message = row.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "image" for b in content):
            images[uid] = tuple(None if b.get("type") == "image" else str(b.get("text", ""))
                                for b in content if isinstance(b, dict) and b.get("type") in ("image", "text"))
    return Facts(stamps=stamps, images=images, looked=frozenset(ids))


def sidechain_turns(path: Path) -> int:
    """How many user and assistant rows are a sub-agent's (`isSidechain`)."""
    return sum(1 for _line, row in _rows(path, b"sidechain")
               if row.get("isSidechain") and row.get("type") in ("user", "assistant"))


def with_images(layout: tuple[str | None, ...]) -> str:
    """A turn's text with `[image]` where each image was (daimon joins text blocks by newlines)."""
    return "\n".join(IMAGE_MARK if p is None else p for p in layout if p is None or p.strip()).strip()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(b.get("text", b.get("content", ""))) for b in content if isinstance(b, dict))
    return ""


def _row_parts(row: dict) -> Iterator[tuple[str, str, str]]:
    """(where, text, role) of each part of `row` daimon's matcher does not read."""
    kind = str(row.get("type") or "")
    message = row.get("message")
    content = message.get("content") if isinstance(message, dict) else row.get("content")
    role = str(message.get("role") if isinstance(message, dict) else kind)
    skipped = ("sidechain" if row.get("isSidechain") else "compact-summary" if row.get("isCompactSummary")
               else "meta" if row.get("isMeta") or kind == "attachment" else None)
    if skipped is not None:
        yield skipped, _text(content), role
        return
    if kind == "summary":
        yield "summary", str(row.get("summary") or ""), "summary"
        return
    if kind in ("response_item", "event_msg"):
        yield from _codex_parts(row)
        return
    if kind == "system":
        yield "system", _text(content), "system"
        return
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        btype = block.get("type")
        if btype == "thinking":
            yield "thinking", str(block.get("thinking") or ""), role
        elif btype == "tool_use":
            yield "tool-input", json.dumps(block.get("input"), ensure_ascii=False), role
        elif btype == "tool_result":
            out = _text(block.get("content"))
            if len(out.strip()) > TOOL_READ_CHARS:
                yield "tool-output", out, "tool"


def _call_output(output: Any) -> str:
    """A Codex tool's output as the tool printed it: older rollouts store a
    JSON string of `{"output", "metadata"}`, newer ones the text itself."""
    text = output if isinstance(output, str) else _text(output)
    if text.startswith("{"):
        try:
            wrapped = json.loads(text)
        except ValueError:
            return text
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            return wrapped["output"]
    return text


def _codex_parts(row: dict) -> Iterator[tuple[str, str, str]]:
    payload = row.get("payload")
    if not isinstance(payload, dict):
        return
    ptype = payload.get("type")
    if ptype == "reasoning":
        yield "reasoning", _text(payload.get("summary")) + "\n" + _text(payload.get("content")), "assistant"
    elif ptype == "agent_reasoning":
        yield "reasoning", str(payload.get("text") or ""), "assistant"
    elif ptype in ("function_call", "custom_tool_call"):
        yield "function-call", str(payload.get("arguments") or payload.get("input") or ""), "assistant"
    elif ptype in ("function_call_output", "custom_tool_call_output"):
        yield "function-call-output", _call_output(payload.get("output")), "tool"
    elif ptype == "message" and row.get("type") == "response_item":
        yield "response-item", _text(payload.get("content")), str(payload.get("role") or "unknown")


def _event_turn(payload: dict) -> bool:
    """Whether daimon's parser takes a turn from this Codex event (`transcript._from_jsonl`'s rule)."""
    if payload.get("type") in ("user_message", "agent_message"):
        message = payload.get("message")
        return isinstance(message, str) and bool(message.strip())
    item = payload.get("item")
    if payload.get("type") != "item_completed" or not isinstance(item, dict):
        return False
    blocks = item.get("content")
    return item.get("type") in ("UserMessage", "AgentMessage") and isinstance(blocks, list) and any(
        isinstance(b, dict) and str(b.get("type") or "").lower() == "text"
        and isinstance(b.get("text"), str) and b["text"].strip() for b in blocks)


def codex_stamps(path: Path) -> tuple[str | None, ...]:
    """The timestamps of the Codex events daimon takes a turn from, in order:
    the n-th is the n-th turn's (Codex turns carry no id to look it up by)."""
    stamps: list[str | None] = []
    for _line, row in _rows(path, b"event_msg"):
        payload = row.get("payload")
        if row.get("type") == "event_msg" and isinstance(payload, dict) and _event_turn(payload):
            ts = row.get("timestamp")
            stamps.append(ts[:40] if isinstance(ts, str) else None)
    return tuple(stamps)


def rollout_cwd(path: Path) -> str | None:
    """The working directory a Codex rollout was started in (its first row,
    `session_meta`); None for any other file."""
    with path.open("rb") as handle:
        first = handle.readline(1 << 20)
    try:
        row = json.loads(first)
    except ValueError:
        return None
    payload = row.get("payload") if isinstance(row, dict) and row.get("type") == "session_meta" else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) else None


def codex_messages(path: Path) -> int:
    """How many person and model messages a Codex rollout holds as response items."""
    return sum(1 for _line, row in _rows(path, b"response_item")
               if row.get("type") == "response_item" and isinstance(p := row.get("payload"), dict)
               and p.get("type") == "message" and p.get("role") in ("user", "assistant"))


def unread_parts(path: Path, word: str | None = None) -> Iterator[Part]:
    """Each part of the transcript daimon's matcher does not read, in file
    order; `word`: only rows holding it (a quote's longest word)."""
    probe = word.lower().encode() if word and word.isascii() else None
    for line, row in _rows(path, probe):
        uid, ts = row.get("uuid"), row.get("timestamp")
        for where, text, role in _row_parts(row):
            if text.strip():
                yield Part(where=where, text=text, role=role[:40], uid=uid if isinstance(uid, str) else None,
                           ts=ts[:40] if isinstance(ts, str) else None, line=line)
