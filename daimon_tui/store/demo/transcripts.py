"""Host transcripts for the demo sessions, where daimon's locator looks for
them: Claude Code JSONL (`<claude projects dir>/<project>/<session>.jsonl`,
one row per turn with `uuid`, `timestamp` and `message`), the shape daimon's
parser reads (`transcript.from_file`). The directory is the sandbox's own
(`config.claude_projects_dir`), never the person's.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from daimon_tui.store.daimon_api.public import config

Turn = tuple[str, str]  # (role, text)


def transcript_path(session_id: str, folder: str = "-demo-proj") -> Path:
    return config.claude_projects_dir() / folder / f"{session_id}.jsonl"


def write_transcript(session_id: str, turns: Sequence[Turn], start: datetime, *,
                     folder: str = "-demo-proj", step: timedelta = timedelta(minutes=2)) -> Path:
    """Write `turns` as a Claude Code session transcript; returns its path."""
    path = transcript_path(session_id, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, (role, text) in enumerate(turns):
        content: object = text if role == "user" else [{"type": "text", "text": text}]
        rows.append({
            "type": role,
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session_id}/{i}")),
            "sessionId": session_id,
            "timestamp": (start + i * step).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "message": {"role": role, "content": content},
        })
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# What was said in each demo session, around the quotes the demo's verbatim items carry.
DEMO_TURNS: dict[str, tuple[Turn, ...]] = {
    "S-day1": (
        ("user", "Uploads fail under load. The gateway returns 429 when we burst."),
        ("assistant", "The client gives up on the first 429. Options: fail fast, or back off and try again."),
        ("user", "We should retry on 429 with exponential backoff."),
        ("assistant", "Agreed. I'll cap the total wait at 30 seconds; the gateway times out at 60s."),
        ("user", "And keep it single-threaded for now, until we profile it."),
        ("assistant", "Noted: one upload worker, no pool, until there is a profile."),
    ),
    "S-day2": (
        ("user", "Where were we on the uploader?"),
        ("assistant", "Retries are designed but not merged. The worker is still single-threaded."),
        ("user", "Still: retry on 429 with exponential backoff. Keep it single-threaded for now."),
        ("assistant", "I'll log every retry attempt with its attempt number as well."),
    ),
    "S-day3": (
        ("user", "PR #42 is merged. What is left?"),
        ("assistant", "The flag, and whether the nightly job shares our bucket prefix."),
        ("user", "Retry on 429 with exponential backoff, as agreed."),
        ("assistant", "Then the change is complete. How do we roll it out?"),
        ("user", "Let's ship it behind the UPLOAD_RETRY flag and watch the dashboards."),
        ("assistant", "I'll switch the nightly job to its own bucket prefix first."),
    ),
}


def write_demo_transcripts(created: dict[str, datetime]) -> None:
    """One transcript per demo session, ending when the session did."""
    for session_id, turns in DEMO_TURNS.items():
        end = created[session_id]
        write_transcript(session_id, turns, end - timedelta(minutes=2 * len(turns)))


def receipt_for(session_id: str, quote: str | None, checked_at: str) -> dict | None:
    """The quote receipt capture would stamp on a verbatim item of this demo
    session: daimon's own source ref, raw-file digest and message binding
    (`provenance.quote_receipt`), or None when no single turn holds the quote."""
    from daimon_tui.store.daimon_api.public import provenance, serializer, transcript

    path = transcript_path(session_id)
    if not quote or not path.is_file():
        return None
    messages = transcript.from_file(path)
    bound = [m["id"] for m in messages if m.get("id") and serializer.quote_matches(quote, m.get("content", "")
                                                                                  if isinstance(m.get("content"), str)
                                                                                  else "")]
    if not bound:
        return None
    source = provenance.capture_source_ref(session_id, path, author="demo",
                                           claude_projects=config.claude_projects_dir())
    digest = provenance.source_digest(transcript.file_sha256(path), "")
    return provenance.quote_receipt(source, digest, outcome="verified", checked_at=checked_at,
                                    binding_mode="message-ids", message_ids=bound[:1])
