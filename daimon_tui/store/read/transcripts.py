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

from daimon_tui.domain import excerpt, quote_words, verbs
from daimon_tui.domain.evidence_words import BYTES_WORDS, LOCATOR_WORDS  # noqa: F401 (BYTES_WORDS: its old home)
from daimon_tui.models import ProjectRef
from daimon_tui.models.evidence import Evidence, Excerpt, Finding, FullTranscript, Turn, Warmed, WitnessWords
from daimon_tui.store.daimon_api import evidence as daimon_evidence
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import provenance, schema, serializer, store, view
from daimon_tui.store.read import sibling_transcripts, transcript_identity, transcript_rows, transcript_source

# A transcript larger than this is not parsed for the pane (daimon's parser
# reads it whole); the pager still cannot show it either: it is named.
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
# Witnesses read, at most (a corroboration count is small in practice).
MAX_WITNESSES = 12


def _find(checkpoint: Mapping | None, item_id: str) -> dict | None:
    for _field, item in schema.iter_items(checkpoint or {}):
        if isinstance(item, dict) and item.get("id") == item_id:
            return item
    return None


_facts: dict[tuple[str, tuple[int, int, int]], transcript_rows.Facts] = {}
_matches: dict[tuple[str, tuple[int, int, int], str, str], tuple[int | None, str, bool]] = {}
_findings: dict[tuple[str, tuple[int, int, int], str], transcript_rows.Part | None] = {}


def _row_facts(path: Path | None, stamp: tuple[int, int, int], ids: set[str]) -> transcript_rows.Facts:
    """Timestamps and image layouts of the turns with these ids in a Claude Code
    file, kept per file stat (ids asked before are not looked up again)."""
    if path is None or path.suffix != ".jsonl":
        return transcript_rows.Facts()
    key = (str(path), stamp)
    known = _facts.get(key, transcript_rows.Facts())
    missing = ids - known.looked
    if missing:
        try:
            found = transcript_rows.facts(path, missing)
        except OSError:
            return known
        known = transcript_rows.Facts(stamps={**known.stamps, **found.stamps}, images={**known.images, **found.images},
                                      looked=known.looked | missing)
        if len(_facts) > transcript_source.KEPT:
            _facts.clear()
        _facts[key] = known
    return known


_codex_times: dict[tuple[str, tuple[int, int, int]], tuple[str | None, ...]] = {}


def _turn_times(path: Path, parsed: transcript_source.Parsed) -> tuple[str | None, ...]:
    """Each turn's time in a file whose turns carry no id (a Codex rollout):
    its n-th event row daimon reads, when their count is the turns' (else
    none is claimed), kept per file stat."""
    key = (str(path), parsed.stamp)
    if key not in _codex_times:
        try:
            stamps = transcript_rows.codex_stamps(path) if path.suffix == ".jsonl" else ()
        except OSError:
            stamps = ()
        if len(_codex_times) > transcript_source.KEPT:
            _codex_times.clear()
        _codex_times[key] = stamps if len(stamps) == len(parsed.messages or []) else ()
    return _codex_times[key]


def _unread_part(path: Path, stamp: tuple[int, int, int], quote: str) -> transcript_rows.Part | None:
    """The first part of the file daimon's parser skips that daimon's matcher
    finds the quote in (None: no part holds it), kept per file stat."""
    key = (str(path), stamp, quote)
    if key in _findings:
        return _findings[key]
    words = sorted(re.findall(r"\w+", quote), key=len, reverse=True)
    found = None
    if path.suffix == ".jsonl":
        found = next((part for part in transcript_rows.unread_parts(path, words[0] if words else None)
                      if serializer.quote_matches(quote, part.text)), None)
    if len(_findings) > 16 * transcript_source.KEPT:
        _findings.clear()
    _findings[key] = found
    return found


def _finding(path: Path, stamp: tuple[int, int, int], quote: str, withheld: Callable[[str], str | None] | None,
             limit: int) -> tuple[Finding, int]:
    """The app's finding for a quote daimon does not reproduce, its part masked
    and cut like a turn; and how many spans were masked."""
    part = _unread_part(path, stamp, quote)
    if part is None:
        return Finding(where="absent"), 0
    turn, count = _turn(-1, {"role": part.role}, part.ts, quote, True, withheld, limit, text=part.text)
    return Finding(where=part.where, turn=turn), count


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
    whole = serializer.stripped_transcript(messages)
    if quote_words.a_word_missing(quote, whole) or not serializer.quote_matches(quote, whole):
        return None, "not-reproduced", False
    for i in range(len(messages)):
        if i not in tried and holds(i):
            return i, "transcript-scan-match", False
    return None, "transcript-scan-match", True


def _turn(index: int, message: dict, ts: str | None, quote: str | None, quoted: bool,
          withheld: Callable[[str], str | None] | None, limit: int, text: str | None = None) -> tuple[Turn, int]:
    """The turn cut for display; `text`: what to show instead of daimon's text
    (the turn with its images marked, or a part daimon does not read)."""
    own = bool(message.get("daimon_output"))
    text = _flat(message) if text is None else text
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


def _window(path: Path, parsed: transcript_source.Parsed, quoted: int | None, quote: str | None, around: int,
            withheld: Callable[[str], str | None] | None, limit: int) -> tuple[list[Turn], int]:
    """The turns `around` the quoted one (or the first ones), masked and cut, with
    their times and images; and how many spans were masked."""
    messages = parsed.messages or []
    shown = excerpt.window(len(messages), quoted, around)
    facts = _row_facts(path, parsed.stamp, {m["id"] for i in shown if isinstance(m := messages[i], dict)
                                            and isinstance(m.get("id"), str)})
    times = () if facts.looked else _turn_times(path, parsed)
    turns = []
    masked = 0
    for i in shown:
        message = messages[i] if isinstance(messages[i], dict) else {}
        mid = message.get("id")
        layout = facts.images.get(mid) if isinstance(mid, str) else None
        ts = facts.stamps.get(mid) if isinstance(mid, str) else (times[i] if i < len(times) else None)
        turn, count = _turn(i, message, ts, quote, i == quoted, withheld, limit,
                            text=transcript_rows.with_images(layout) if layout is not None else None)
        turns.append(turn)
        masked += count
    return turns, masked


_places: dict[tuple, tuple[Path, int] | None] = {}
# An excerpt as shown, with the snapshot it was masked against.
_shown: dict[tuple, tuple[Any, Excerpt]] = {}


def _place_elsewhere(path: Path, quote: str) -> tuple[Path, int] | None:
    """The project's other transcript (newest first, `sibling_transcripts`) and
    the turn in it that daimon's matcher finds `quote` in; kept while none of
    them changes."""
    others = sibling_transcripts.others(path)
    key = (str(path), others, quote)
    if key in _places:
        return _places[key]
    words = sorted(re.findall(r"\w+", quote), key=len, reverse=True)
    probe = words[0].lower().encode() if words and words[0].isascii() else None
    place = None
    for other, stamp in others:
        if stamp is None or stamp[1] > MAX_TRANSCRIPT_BYTES:
            continue
        try:
            if probe and probe not in other.read_bytes().lower():
                continue
        except OSError:
            continue
        parsed = transcript_source.parse(other)
        quoted = _quoted_turn(parsed.messages, quote, None)[0] if parsed and parsed.messages else None
        if quoted is not None:
            place = (other, quoted)
            break
    if len(_places) > 16 * transcript_source.KEPT:
        _places.clear()
    _places[key] = place
    return place


def _elsewhere(path: Path, quote: str, withheld: Callable[[str], str | None] | None,
               limit: int) -> tuple[Finding, int] | None:
    """The app's finding for a quote in no part of its named transcript: the
    project's other transcript that holds it, with the turns around it there."""
    place = _place_elsewhere(path, quote)
    parsed = transcript_source.parse(place[0]) if place else None
    if place is None or parsed is None or not parsed.messages:
        return None
    turns, count = _window(place[0], parsed, place[1], quote, excerpt.BRIEF_AROUND, withheld, limit)
    return Finding(where="other-session", session_id=place[0].stem, turns=tuple(turns), quoted=place[1],
                   total=len(parsed.messages)), count


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
        jsonl = resolution.path.suffix == ".jsonl"
        side = transcript_rows.sidechain_turns(resolution.path) if jsonl else 0
        if side:
            return Excerpt(**base, unavailable=f"daimon reads no turn here: the file holds {side} sub-agent "
                                               "(sidechain) turns, which daimon skips (the app's count)")
        items = transcript_rows.codex_messages(resolution.path) if jsonl else 0
        if items:
            return Excerpt(**base, unavailable=f"daimon reads no turn here: the file holds {items} Codex messages "
                                               "as response items, and daimon reads a rollout's event stream only "
                                               "(the app's count)")
        return Excerpt(**base, unavailable="the transcript holds no conversation turn")
    key = (str(resolution.path), parsed.stamp, quote or "", json.dumps(receipt, sort_keys=True) if receipt else "")
    if key not in _matches:
        if len(_matches) > 16 * transcript_source.KEPT:
            _matches.clear()
        _matches[key] = _quoted_turn(messages, quote, receipt)
    quoted, support, multi = _matches[key]
    # A quote daimon does not reproduce is looked for in the project's other files too: their identities count.
    elsewhere = sibling_transcripts.others(resolution.path) if support == "not-reproduced" else ()
    for other, _stamp in elsewhere:
        transcript_identity.note(other)
    shown_key = (*key, around, limit, base["bytes"], elsewhere)
    kept = _shown.get(shown_key)
    if kept is not None and kept[0] is snap:  # the same snapshot (shared while no ledger changes): the same masks
        return kept[1]
    withheld = _masker(snap)
    turns, masked = _window(resolution.path, parsed, quoted, quote, around, withheld, limit)
    finding = None
    if support == "not-reproduced" and quote:
        finding, count = _finding(resolution.path, parsed.stamp, quote, withheld, limit)
        masked += count
        if finding.where == "absent":
            finding, count = _elsewhere(resolution.path, quote, withheld, limit) or (finding, 0)
            masked += count
    shown = Excerpt(**base, support=support, turns=tuple(turns), quoted=quoted, total=len(messages), masked=masked,
                    multi_turn=multi, finding=finding)
    if len(_shown) > 4 * transcript_source.KEPT:
        _shown.clear()
    _shown[shown_key] = (snap, shown)
    return shown


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
    Never raises. Carries what it was read from (`transcript_identity`) when
    every excerpt in it was read: the app keeps it while that stands."""
    try:
        with transcript_identity.reading(project) as told:
            read = _read(project, item_id, part, brief)
        excerpts = [read.item] if read.item is not None else []
        if all(ex.unavailable is None for ex in excerpts + [w.excerpt for w in read.witnesses]):
            sources, identity = told()
            read = read.model_copy(update={"sources": sources, "identity": identity})
        return read
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
