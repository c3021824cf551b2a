"""The transcript behind an item: the quoted turn and the turns around it, and
each corroboration witness's own words, found through daimon's own locator.

daimon decides where the transcript is (`SourceResolver`: its `locator`
state), whether it changed since capture (`bytes`), how to parse it
(`transcript.from_file`) and which turn holds the quote (its matcher,
`serializer.quote_matches`, over the bound message ids, else each turn).

The transcript still holds what daimon forgot or quarantined: every turn shown
is masked first, each line, sentence, clause and run of words judged by
daimon's own `view.prose_verdict` against the snapshot's forgotten and
quarantined keys; a closed trust ledger (nothing can be proven not
quarantined) shows no transcript text at all, as daimon shows no prose then.
A withheld item gets no excerpt, and no witness words.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from daimon_tui.domain import excerpt, verbs
from daimon_tui.models import Frozen, ProjectRef
from daimon_tui.store.daimon_api import evidence as daimon_evidence
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import provenance, schema, serializer, store, view
from daimon_tui.store.read import transcript_source

# A transcript larger than this is not parsed for the pane (daimon's parser
# reads it whole); the pager still cannot show it either: it is named.
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
# Witnesses read, at most (a corroboration count is small in practice).
MAX_WITNESSES = 12

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


class Turn(Frozen):
    """One turn of a transcript, masked and cut for display."""

    index: int
    role: str
    speaker: str | None = None
    ts: str | None = None
    text: str
    hidden_before: int = 0
    hidden_after: int = 0
    quoted: bool = False
    spans: tuple[tuple[int, int], ...] = ()  # the quote, in `text`
    masks: tuple[tuple[int, int], ...] = ()  # withheld markers, in `text`
    daimon_output: bool = False


class Excerpt(Frozen):
    """The turns around a quote in one session's transcript, or why not."""

    session_id: str | None = None
    host: str | None = None
    locator: str = "unsupported"
    bytes: str = "unknown"
    support: str = "not-checked"
    quote: str | None = None
    turns: tuple[Turn, ...] = ()
    quoted: int | None = None
    total: int = 0
    unavailable: str | None = None
    masked: int = 0
    multi_turn: bool = False


class WitnessWords(Frozen):
    session_id: str
    excerpt: Excerpt


class Evidence(Frozen):
    """Everything `o` and the pane show of an item's transcripts."""

    item_id: str
    withheld: bool = False
    item: Excerpt | None = None
    witnesses: tuple[WitnessWords, ...] = ()
    error: str | None = None


def _find(checkpoint: Mapping | None, item_id: str) -> dict | None:
    for _field, item in schema.iter_items(checkpoint or {}):
        if isinstance(item, dict) and item.get("id") == item_id:
            return item
    return None


_stamps: dict[tuple[str, tuple[int, int, int]], dict[str, str]] = {}
_matches: dict[tuple[str, tuple[int, int, int], str, str], tuple[int | None, str, bool]] = {}


def _timestamps(path: Path | None, stamp: tuple[int, int, int]) -> dict[str, str]:
    """Host message id -> the row's timestamp (Claude Code rows carry both),
    kept per file stat."""
    if path is None or path.suffix != ".jsonl":
        return {}
    key = (str(path), stamp)
    if key in _stamps:
        return _stamps[key]
    out: dict[str, str] = {}
    try:
        with path.open("rb") as handle:
            for raw in handle:
                if b'"timestamp"' not in raw:
                    continue
                try:
                    row = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(row, dict):
                    uid, ts = row.get("uuid"), row.get("timestamp")
                    if isinstance(uid, str) and isinstance(ts, str):
                        out[uid.strip()] = ts[:40]
    except OSError:
        return {}
    if len(_stamps) > transcript_source.KEPT:
        _stamps.clear()
    _stamps[key] = out
    return out


def _masker(snap: Any) -> Callable[[str], str | None] | None:
    """daimon's verdict on a piece of text taken whole, or None when this
    snapshot withholds nothing (a quiet store pays no hashing)."""
    if not (snap.forgotten or snap.quarantined):
        return None

    def withheld(text: str) -> str | None:
        verdict = view.prose_verdict(text, snap, closed_masks=False)
        return None if verdict is None else str(verdict.reason)

    return withheld


def _flat(message: Any) -> str:
    """A message's text as daimon's matcher reads it (daimon's own output blanked)."""
    if not isinstance(message, dict) or message.get("daimon_output"):
        return ""
    content = message.get("content")
    if isinstance(content, list):
        content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def _quoted_turn(messages: list[dict], quote: str | None, receipt: dict | None) -> tuple[int | None, str, bool]:
    """(index of the turn holding the quote, daimon's support word, whether the
    quote only matches across turns). daimon's matcher decides, over each
    turn's text minus daimon's injected spans; the turns holding the quote's
    longest word are asked first, so a long transcript is normalized whole
    only when no single turn holds the quote."""
    if not quote or not quote.strip():
        return None, "not-checked", False

    def holds(i: int) -> bool:
        return serializer.quote_matches(quote, serializer.strip_injected(_flat(messages[i])))

    bound = set(provenance.binding_message_ids(receipt) if receipt else [])
    if bound:
        for i, message in enumerate(messages):
            if isinstance(message, dict) and message.get("id") in bound and holds(i):
                return i, "message-id-match", False
    words = sorted(re.findall(r"\w+", quote), key=len, reverse=True)
    pattern = re.compile(re.escape(words[0]), re.IGNORECASE) if words else None
    tried: set[int] = set()
    if pattern is not None:
        for i, message in enumerate(messages):
            if pattern.search(_flat(message)):
                tried.add(i)
                if holds(i):
                    return i, "transcript-scan-match", False
    if not serializer.quote_matches(quote, serializer.stripped_transcript(messages)):
        return None, "not-reproduced", False
    for i in range(len(messages)):
        if i not in tried and holds(i):
            return i, "transcript-scan-match", False
    return None, "transcript-scan-match", True


def _turn(index: int, message: dict, ts: str | None, quote: str | None, quoted: bool,
          withheld: Callable[[str], str | None] | None, limit: int) -> tuple[Turn, int]:
    own = bool(message.get("daimon_output"))
    text = _flat(message)
    spans = excerpt.quote_spans(text, quote) if quoted else ()
    cut = excerpt.cut_around(len(text), spans, limit)
    masks: tuple[tuple[int, int], ...] = ()
    count = 0
    if withheld is not None and text:
        # Mask a margin past the cut, then cut the masked text: a value the
        # cut runs through is masked whole, never shown in part.
        lo, hi = max(0, cut.start - excerpt.MASK_MARGIN), min(len(text), cut.end + excerpt.MASK_MARGIN)
        region = text[lo:hi]
        found = excerpt.masked_spans(region, withheld)
        count = len(found)
        if found:
            region, marks = excerpt.apply_masks(region, found)
            spans = excerpt.quote_spans(region, quote) if quoted else ()
            inner = excerpt.cut_around(len(region), spans or marks, limit)
            shown = region[inner.start:inner.end]
            hidden_before, hidden_after = lo + inner.before, (len(text) - hi) + inner.after
            spans = _within(spans, inner.start, inner.end)
            masks = _within(marks, inner.start, inner.end)
            return _made(index, message, ts, shown, hidden_before, hidden_after, quoted, spans, masks, own), count
    shown = text[cut.start:cut.end]
    return _made(index, message, ts, shown, cut.before, cut.after, quoted, _within(spans, cut.start, cut.end),
                 masks, own), count


def _within(spans: tuple[tuple[int, int], ...], start: int, end: int) -> tuple[tuple[int, int], ...]:
    return tuple((max(s, start) - start, min(e, end) - start) for s, e in spans if e > start and s < end)


def _made(index: int, message: dict, ts: str | None, shown: str, before: int, after: int, quoted: bool,
          spans: tuple[tuple[int, int], ...], masks: tuple[tuple[int, int], ...], own: bool) -> Turn:
    role = str(message.get("role") or "unknown")[:40]
    said = message.get("said_by")
    return Turn(index=index, role=role, speaker=said[:80] if isinstance(said, str) else None, ts=ts, text=shown,
                hidden_before=before, hidden_after=after, quoted=quoted, spans=spans, masks=masks,
                daimon_output=own)


def excerpt_for(copy: dict[str, Any], quote: str | None, snap: Any, *, around: int = excerpt.FULL_AROUND,
                limit: int = excerpt.FULL_TURN_CHARS, told: transcript_source.Told | None = None) -> Excerpt:
    """The excerpt of the transcript daimon locates for `copy` (an item as
    stored, or the textless projection of a witness's session; `told`: the
    source and bytes axis `why` gave, in safe mode)."""
    source, resolution = transcript_source.locate(copy, told=told)
    base = {
        "session_id": source.get("session_id") if source else None,
        "host": source.get("host") if source else None,
        "quote": quote,
    }
    if snap.closed:
        return Excerpt(**base, locator=resolution.state,
                       unavailable="daimon's trust ledger cannot be read: no transcript text is shown")
    if resolution.state == "resolved" and resolution.path is not None:
        try:
            size = os.stat(resolution.path).st_size
        except OSError:
            size = 0
        if size > MAX_TRANSCRIPT_BYTES:
            return Excerpt(**base, locator="resolved",
                           unavailable=f"the transcript is {size / 1e6:.0f} MB: too large to read here")
    if resolution.state != "resolved" or resolution.path is None:
        return Excerpt(**base, locator=resolution.state,
                       unavailable=f"transcript {LOCATOR_WORDS.get(resolution.state, resolution.state)}")
    parsed = transcript_source.parse(resolution.path)
    receipt = transcript_source.receipt_of(copy)
    base.update(locator="resolved", bytes=transcript_source.bytes_state(receipt, resolution, parsed, told))
    if parsed is None:
        return Excerpt(**{**base, "locator": "unreadable"}, unavailable=f"transcript {LOCATOR_WORDS['unreadable']}")
    messages = parsed.messages
    if messages is None:
        return Excerpt(**base, unavailable="daimon cannot parse this transcript (binary or not UTF-8)")
    if not messages:
        return Excerpt(**base, unavailable="the transcript holds no conversation turn")
    key = (str(resolution.path), parsed.stamp, quote or "", json.dumps(receipt, sort_keys=True) if receipt else "")
    if key not in _matches:
        if len(_matches) > 16 * transcript_source.KEPT:
            _matches.clear()
        _matches[key] = _quoted_turn(messages, quote, receipt)
    quoted, support, multi = _matches[key]
    stamps = _timestamps(resolution.path, parsed.stamp)
    withheld = _masker(snap)
    turns = []
    masked = 0
    for i in excerpt.window(len(messages), quoted, around):
        message = messages[i] if isinstance(messages[i], dict) else {}
        mid = message.get("id")
        turn, count = _turn(i, message, stamps.get(mid) if isinstance(mid, str) else None, quote, i == quoted,
                            withheld, limit)
        turns.append(turn)
        masked += count
    return Excerpt(**base, support=support, turns=tuple(turns), quoted=quoted, total=len(messages), masked=masked,
                   multi_turn=multi)


def _witness_copy(sid: str, held: dict | None) -> dict[str, Any]:
    """What locates a witness's transcript: its own copy's receipt when bound,
    else the witness session itself (never the item's origin)."""
    copy: dict[str, Any] = {"origin_session": sid}
    if held is not None:
        receipt = held.get("quote_provenance")
        if provenance.valid_quote_receipt(receipt) and receipt["source"].get("session_id") == sid:
            copy["quote_provenance"] = receipt
        author = held.get("origin_author")
        if isinstance(author, str) and held.get("origin_session") == sid:
            copy["origin_author"] = author
    return copy


def _told(project_dir: Any, item_id: str) -> transcript_source.Told:
    told = transcript_source.told_by_why(project_dir, item_id)
    if told is None:
        raise Unavailable("daimon's `why` names no transcript for this item")
    return told


def read_evidence(project: ProjectRef, item_id: str, part: str = "all", brief: bool = False) -> Evidence:
    """The item's transcript excerpt (`part` "item"), its witnesses' words
    ("witnesses"), or both ("all"); `brief`: as much as the detail pane shows
    (one turn each side, turns cut shorter), else as much as `o` shows.
    Never raises."""
    try:
        return _read(project, item_id, part, brief)
    except Unavailable as off:
        return Evidence(item_id=item_id, error=str(off))
    except Exception as exc:  # a hostile transcript or store never ends the app
        return Evidence(item_id=item_id, error=f"transcript could not be read ({type(exc).__name__})")


def _read(project: ProjectRef, item_id: str, part: str, brief: bool) -> Evidence:
    around = excerpt.BRIEF_AROUND if brief else excerpt.FULL_AROUND
    limit = excerpt.BRIEF_TURN_CHARS if brief else excerpt.FULL_TURN_CHARS
    p = project.target
    snap = view.snapshot(p)
    opened = view.open(p, live=False)
    item = _find(opened.checkpoint, item_id)
    if item is None:
        return Evidence(item_id=item_id, withheld=any(getattr(w, "item_id", None) == item_id
                                                         for w in opened.withheld))
    quote = item.get("quote") if isinstance(item.get("quote"), str) else None
    # safe mode: the item's source and bytes axis are daimon's public `why`'s; a witness's copy has no such answer
    off = daimon_evidence.refusal()
    told = _told(p, item_id) if off and part in ("all", "item") else None
    main = excerpt_for(item, quote, snap, around=around, limit=limit, told=told) if part in ("all", "item") else None
    if part not in ("all", "witnesses"):
        return Evidence(item_id=item_id, item=main)
    rows = view.item_events(p, store.corroboration_ref(item_id), snap=snap)
    prefix = verbs.WITNESS_PREFIX
    sids = list(dict.fromkeys(
        (e.status or "")[len(prefix):].strip() for e in rows if (e.status or "").lower().startswith(prefix)
    ))[:MAX_WITNESSES]
    sessions = view.open_sessions(p, sids, live=False, snap=snap) if sids else {}
    words = []
    for sid in sids:
        held_open = sessions.get(sid)
        held = _find(held_open.checkpoint if held_open else None, item_id)
        if held_open is not None and held is None and any(
                getattr(w, "item_id", None) == item_id for w in held_open.withheld):
            words.append(WitnessWords(session_id=sid, excerpt=Excerpt(
                session_id=sid, unavailable="daimon withholds this session's copy")))
            continue
        if off:
            words.append(WitnessWords(session_id=sid, excerpt=Excerpt(session_id=sid, unavailable=off)))
            continue
        own_quote = held.get("quote") if held and isinstance(held.get("quote"), str) else quote
        words.append(WitnessWords(session_id=sid, excerpt=excerpt_for(
            _witness_copy(sid, held), own_quote, snap, around=0, limit=limit)))
    return Evidence(item_id=item_id, item=main, witnesses=tuple(words))


class FullTranscript(Frozen):
    """The whole transcript as plain, masked text for the person's pager,
    with the line the quoted turn starts on."""

    text: str = ""
    line: int = 1
    unavailable: str | None = None


# The pager copy: each turn cut at this, the whole at MAX_PAGER_CHARS.
PAGER_TURN_CHARS = 50_000
MAX_PAGER_CHARS = 8_000_000


def read_full_transcript(project: ProjectRef, item_id: str) -> FullTranscript:
    """Every turn of the item's transcript, masked like the pane (the pager
    gets this copy, never the transcript file itself). Never raises."""
    from daimon_tui.domain.inert import inert

    try:
        p = project.target
        snap = view.snapshot(p)
        item = _find(view.open(p, live=False).checkpoint, item_id)
        if item is None:
            return FullTranscript(unavailable="daimon shows no transcript for a withheld or absent item")
        quote = item.get("quote") if isinstance(item.get("quote"), str) else None
        told = _told(p, item_id) if daimon_evidence.refusal() else None
        whole = excerpt_for(item, quote, snap, around=10**9, limit=PAGER_TURN_CHARS, told=told)
    except Exception as exc:
        return FullTranscript(unavailable=f"transcript could not be read ({type(exc).__name__})")
    if whole.unavailable:
        return FullTranscript(unavailable=whole.unavailable)
    lines: list[str] = [f"# transcript of session {inert(whole.session_id, limit=80)} ({inert(whole.host, limit=20)})",
                        f"# locator: {whole.locator}; bytes: {whole.bytes}; quote: {whole.support}",
                        "# values daimon withholds are masked; control characters are shown escaped", ""]
    at = 1
    size = 0
    for turn in whole.turns:
        if turn.quoted:
            at = len(lines) + 1
        head = f"── {turn.index + 1}. {turn.speaker or turn.role}" + (f" · {turn.ts}" if turn.ts else "")
        lines.append(inert(head, limit=200) + ("   ◀ the quoted turn" if turn.quoted else ""))
        body = inert(turn.text, limit=None, keep_newlines=True)
        if turn.hidden_before:
            body = f"… [{turn.hidden_before:,} chars cut] " + body
        if turn.hidden_after:
            body += f" … [+{turn.hidden_after:,} chars cut]"
        lines.extend(body.split("\n"))
        lines.append("")
        size += len(body)
        if size > MAX_PAGER_CHARS:
            lines.append(f"… [transcript cut at {MAX_PAGER_CHARS:,} characters]")
            break
    return FullTranscript(text="\n".join(lines) + "\n", line=at)


class Warmed(Frozen):
    """What one warm-up step read, and how many transcripts are left to read."""

    read: int = 0
    left: int = 0


def warm(project: ProjectRef, budget: int = 1) -> Warmed:
    """Read ahead, `budget` transcripts at a time: daimon's parse and quote
    match for the quoted items of the latest checkpoint whose transcript is
    not kept yet, so the cursor finds them kept (the judging child runs this
    while the person reads). Never raises."""
    try:
        p = project.target
        snap = view.snapshot(p)
        finder = transcript_source.resolver()
        legacy = daimon_evidence.legacy_sources()  # a session's file read once, not per item
        read = left = 0
        for _field, item in schema.iter_items(view.open(p, live=False).checkpoint or {}):
            quote = item.get("quote") if isinstance(item, dict) else None
            if not isinstance(quote, str) or not quote.strip():
                continue
            _source, resolution = transcript_source.locate(item, finder, legacy=legacy)
            if resolution.state != "resolved" or resolution.path is None or transcript_source.kept(resolution.path):
                continue
            if read >= budget:
                left += 1
                continue
            excerpt_for(item, quote, snap, around=excerpt.BRIEF_AROUND, limit=excerpt.BRIEF_TURN_CHARS)
            read += 1
        return Warmed(read=read, left=left)
    except Exception:
        return Warmed()
