"""Generated agent transcripts in the shapes real sessions have, at any size.

Modelled on the formats as their tools document them, never on anyone's
sessions. Claude Code JSONL (one row per line): `user` / `assistant` rows with
`uuid`, `parentUuid`, `sessionId`, `timestamp`, `isSidechain` and a `message`
whose content is a string or a list of `text`, `thinking`, `tool_use`,
`tool_result` and `image` blocks; `system` rows (`compact_boundary`,
`api_error`), `isCompactSummary` user rows, `summary`, `file-history-snapshot`
and `queue-operation` rows. Codex rollouts: `session_meta`, `response_item`
(`message`, `reasoning`, `function_call`, `function_call_output`) and the
`event_msg` stream (`user_message`, `agent_message`) daimon reads.

`Claude` builds a session turn by turn; `grow` pads it with realistic filler
(thinking, tool calls with long ANSI output, 50 KB lines, noise rows) until the
file reaches a size, so the large sizes are the same shapes, only more.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
ANSI_RED, ANSI_GREEN, ANSI_OFF = "\x1b[31m", "\x1b[32m", "\x1b[0m"
PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


class Claude:
    """One Claude Code session, row by row (`rows()`), written with `write`."""

    def __init__(self, session_id: str, *, sidechain: bool = False, start: datetime = START) -> None:
        self.session_id = session_id
        self.sidechain = sidechain
        self.at = start
        self.parent: str | None = None
        self.count = 0
        self.rows: list[dict[str, Any]] = []

    def _uuid(self) -> str:
        self.count += 1
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.session_id}/{self.count}"))

    def _row(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.at += timedelta(seconds=7)
        uid = self._uuid()
        row = {"parentUuid": self.parent, "isSidechain": self.sidechain, "userType": "external",
               "cwd": "/home/dev/proj", "sessionId": self.session_id, "version": "2.0.14",
               "gitBranch": "main", "type": kind, "uuid": uid, "timestamp": _stamp(self.at), **fields}
        self.parent = uid
        self.rows.append(row)
        return row

    def user(self, text: str, *, image: bool = False) -> dict[str, Any]:
        """A person's turn; `image`: a pasted image before the text, as Claude Code stores one."""
        content: Any = text
        if image:
            content = [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
                       {"type": "text", "text": text}]
        return self._row("user", message={"role": "user", "content": content})

    def assistant(self, text: str | None = None, *, thinking: str | None = None,
                  tool: tuple[str, dict, str] | None = None) -> dict[str, Any]:
        """The model's turn: thinking, then text, then a tool call whose result
        (`tool`: name, input, output) arrives as the next user row."""
        blocks: list[dict[str, Any]] = []
        if thinking is not None:
            blocks.append({"type": "thinking", "thinking": thinking, "signature": "c2lnbmF0dXJl"})
        if text is not None:
            blocks.append({"type": "text", "text": text})
        use_id = f"toolu_{self.count:08d}"
        if tool is not None:
            blocks.append({"type": "tool_use", "id": use_id, "name": tool[0], "input": tool[1]})
        row = self._row("assistant", message={
            "id": f"msg_{self.count:08d}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": blocks, "stop_reason": "tool_use" if tool else "end_turn",
            "usage": {"input_tokens": 1200, "output_tokens": 80}})
        if tool is not None:
            self._row("user", message={"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": use_id, "content": tool[2], "is_error": False}]},
                toolUseResult={"stdout": tool[2][:200], "stderr": "", "interrupted": False})
        return row

    def compact(self, summary: str) -> None:
        """A compaction: the boundary system row, then the summary as a user row."""
        self._row("system", subtype="compact_boundary", content="Conversation compacted", isMeta=False,
                  level="info", compactMetadata={"trigger": "auto", "preTokens": 155_000})
        self._row("user", isCompactSummary=True, isVisibleInTranscriptOnly=True,
                  message={"role": "user", "content": summary})

    def noise(self, count: int = 1) -> None:
        """Rows no reader takes a turn from: file snapshots, queue operations,
        a title summary, an API error."""
        for i in range(count):
            self.at += timedelta(seconds=1)
            snapshot = {"messageId": f"m{i}", "trackedFileBackups": {}, "timestamp": _stamp(self.at)}
            self.rows.append({"type": "file-history-snapshot", "messageId": self._uuid(), "isSnapshotUpdate": False,
                              "snapshot": snapshot})
            self.rows.append({"type": "queue-operation", "operation": "enqueue", "timestamp": _stamp(self.at),
                              "sessionId": self.session_id, "content": "keep going"})
        self.rows.append({"type": "summary", "summary": "Upload retries and the nightly job", "leafUuid": self.parent})
        self._row("system", subtype="api_error", level="error", retryAttempt=1, maxRetries=10, retryInMs=600,
                  error={"type": "overloaded_error", "message": "Overloaded"})

    def lines(self) -> Iterator[str]:
        for row in self.rows:
            yield json.dumps(row, ensure_ascii=False) + "\n"

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(self.lines()), encoding="utf-8")
        return path


def tool_output(lines: int, seed: int = 0) -> str:
    """A test run's output: coloured PASS/FAIL lines, `lines` of them."""
    out = []
    for i in range(lines):
        colour, word = (ANSI_RED, "FAIL") if (i + seed) % 17 == 0 else (ANSI_GREEN, "PASS")
        out.append(f"{colour}{word}{ANSI_OFF} tests/test_upload.py::test_case_{seed}_{i} ({i % 9}.{i % 7}s)")
    return "\n".join(out)


def filler(session: Claude, step: int) -> None:
    """One round of an ordinary working session: a question, thinking, a tool
    call with long coloured output, a table with ✅ ❌ and box drawing, noise."""
    session.user(f"Step {step}: run the upload tests again and tell me what broke.")
    session.assistant("Running them.", thinking=f"Round {step}: the flaky case is probably timing. " * 40,
                      tool=("Bash", {"command": "pytest -q tests/test_upload.py"}, tool_output(400, step)))
    session.assistant(f"| case | before | after |\n|---|---|---|\n| {step} | ❌ | ✅ |\n"
                      "┌────────┐\n│ retry  │\n└────────┘")
    if step % 5 == 0:
        session.user("x" * 50_000)  # a pasted log: one line of 50 KB
    session.noise(3)


def grow(session: Claude, size: int) -> None:
    """Pad `session` with filler rounds until its rows are about `size` bytes."""
    total = sum(len(line.encode()) for line in session.lines())
    step = 0
    while total < size:
        before = len(session.rows)
        filler(session, step)
        total += sum(len(json.dumps(r, ensure_ascii=False).encode()) + 1 for r in session.rows[before:])
        step += 1


class Codex:
    """One Codex CLI rollout, row by row, as its tool documents the format:
    `session_meta`, then per turn a `response_item` (`message`, `reasoning`,
    `function_call`, `function_call_output`) and, for what the person sees,
    an `event_msg` (`user_message`, `agent_message`, `agent_reasoning`), the
    stream daimon reads. `events=False`: an older rollout with response items
    only. `path(home)` is where Codex files it: `sessions/YYYY/MM/DD/rollout-<stamp>-<id>.jsonl`."""

    def __init__(self, session_id: str, *, start: datetime = START, events: bool = True,
                 cwd: str = "/home/dev/proj") -> None:
        self.session_id = session_id
        self.start = self.at = start
        self.events = events
        self.calls = 0
        self.rows: list[dict[str, Any]] = []
        self._add("session_meta", {"id": session_id, "timestamp": _stamp(start), "cwd": cwd,
                                   "originator": "codex_cli_rs", "cli_version": "0.46.0", "instructions": None})
        self.item("message", role="user", content=[{"type": "input_text", "text":
                  f"<environment_context>\n  <cwd>{cwd}</cwd>\n</environment_context>"}])

    def _add(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        row = {"timestamp": _stamp(self.at), "type": kind, "payload": payload}
        self.rows.append(row)
        return row

    def item(self, ptype: str, **payload: Any) -> dict[str, Any]:
        return self._add("response_item", {"type": ptype, **payload})

    def event(self, ptype: str, **payload: Any) -> None:
        if self.events:
            self._add("event_msg", {"type": ptype, **payload})

    def user(self, text: str) -> None:
        self.at += timedelta(seconds=9)
        self.item("message", role="user", content=[{"type": "input_text", "text": text}])
        self.event("user_message", message=text, images=[])

    def assistant(self, text: str) -> None:
        self.at += timedelta(seconds=9)
        self.item("message", role="assistant", content=[{"type": "output_text", "text": text}])
        self.event("agent_message", message=text)

    def reasoning(self, text: str) -> None:
        self.at += timedelta(seconds=3)
        self.item("reasoning", summary=[{"type": "summary_text", "text": text}], content=None,
                  encrypted_content="gAAAAB" + "x" * 40)
        self.event("agent_reasoning", text=text)

    def call(self, command: str, output: str, *, wrapped: bool = False) -> None:
        """A shell call and its output; `wrapped`: the output as older rollouts
        store it, a JSON string of `{"output", "metadata"}`."""
        self.calls += 1
        self.at += timedelta(seconds=2)
        call_id = f"call_{self.calls:04d}"
        self.item("function_call", name="shell", call_id=call_id,
                  arguments=json.dumps({"command": ["bash", "-lc", command], "timeout_ms": 120000}))
        body = (json.dumps({"output": output, "metadata": {"exit_code": 0, "duration_seconds": 0.4}}) if wrapped
                else f"Exit code: 0\nWall time: 0.4 seconds\nOutput:\n{output}")
        self.item("function_call_output", call_id=call_id, output=body)

    def path(self, home: Path) -> Path:
        day = self.start.strftime("%Y/%m/%d")
        return home / "sessions" / day / f"rollout-{self.start.strftime('%Y-%m-%dT%H-%M-%S')}-{self.session_id}.jsonl"

    def write(self, home: Path) -> Path:
        return write_rows(self.path(home), self.rows)


def codex_rollout(session_id: str, turns: list[tuple[str, str]], *, reasoning: str = "",
                  call: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    """A Codex rollout's rows: `turns`, with `reasoning` and a `function_call`
    (command, output; the older JSON-wrapped output) after the first assistant turn."""
    session = Codex(session_id)
    for i, (role, text) in enumerate(turns):
        (session.user if role == "user" else session.assistant)(text)
        if role == "assistant" and i <= 1:
            if reasoning:
                session.reasoning(reasoning)
            if call is not None:
                session.call(*call, wrapped=True)
    return session.rows


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path
