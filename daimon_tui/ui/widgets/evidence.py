"""The evidence behind an item's verdict: the quoted turn in its transcript
with the turns around it, each witness's own words, and the world's lines,
diff and commits. Brief in the detail pane, whole in the item view (`o`).

Every transcript and file line is inert (`inert`: escapes and bidi shown,
never acted on) and built as `rich.text.Text`, never markup; what daimon
withholds arrives already masked from the store.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.widgets import Static

from daimon_tui.domain import excerpt as shaping
from daimon_tui.domain.evidence_words import APP_FINDING, BYTES_WORDS, LOCATOR_WORDS, SUPPORT_WORDS, where_words
from daimon_tui.domain.inert import inert
from daimon_tui.ui.read_worker import work

# `services.evidence` is imported where it is used, not here: it brings git and our world and
# transcript readers, and the first frame waits for every module imported at start.

if TYPE_CHECKING:
    from daimon_tui.models import Item, ProjectRef
    from daimon_tui.models.evidence import Evidence, Excerpt, Turn
    from daimon_tui.services.evidence import FileEvidence, RefEvidence, WorldEvidence

QUOTE_STYLE = "bold black on green"
MASK_STYLE = "bold white on red"
# How long a read evidence is kept for the row it belongs to (transcripts
# change outside daimon's store, so a kept answer must not live for ever).
KEEP_S = 30.0
# How long the cursor rests on a row before the child reads ahead.
WARM_AFTER_S = 0.3
WARM_STEPS = 24


def _when(ts: str | None) -> str:
    return inert(ts[:19].replace("T", " "), limit=24) if ts else "time not recorded"


def _styled(text: str, spans: tuple[tuple[int, int], ...], masks: tuple[tuple[int, int], ...],
            limit: int) -> Text:
    """`text` inert, the quote spans and withheld markers styled, cut to
    `limit` characters around the first quote span."""
    cut = shaping.cut_around(len(text), spans, limit)
    marks = sorted([(s, e, QUOTE_STYLE) for s, e in spans] + [(s, e, MASK_STYLE) for s, e in masks])
    out = Text()
    if cut.start:
        out.append(f"… [{cut.start:,} chars] ", style="dim")
    at = cut.start
    for s, e, style in marks:
        s, e = max(s, at), min(e, cut.end)
        if e <= s:
            continue
        out.append(inert(text[at:s], limit=None, keep_newlines=True))
        out.append(inert(text[s:e], limit=None, keep_newlines=True), style=style)
        at = e
    out.append(inert(text[at:cut.end], limit=None, keep_newlines=True))
    if cut.end < len(text):
        out.append(f" … [+{len(text) - cut.end:,} chars]", style="dim")
    return out


def turn_text(turn: Turn, limit: int, *, label: str | None = None) -> RenderableType:
    """A turn under its head; `label`: a part daimon does not read (no turn number)."""
    head = Text()
    head.append("▶ " if turn.quoted else "  ", style="bold green")
    who = turn.speaker or turn.role
    head.append(inert(who, limit=40), style="bold" if turn.quoted else "bold dim")
    where = f"{inert(label, limit=40)}, not a turn daimon reads" if label else f"turn {turn.index + 1}"
    head.append(f" · {_when(turn.ts)} · {where}", style="dim")
    if turn.daimon_output:
        head.append("  (daimon's own output: not shown)", style="dim italic")
    body = _styled(turn.text, turn.spans, turn.masks, limit)
    if turn.hidden_before:
        body = Text.assemble((f"… [{turn.hidden_before:,} chars cut] ", "dim"), body)
    if turn.hidden_after:
        body.append(f" … [+{turn.hidden_after:,} chars cut]", style="dim")
    return Group(head, Padding(body, (0, 0, 0, 4)))


def _state_line(ex: Excerpt) -> Text:
    line = Text()
    line.append(f"session {inert(ex.session_id or '?', limit=60)}", style="bold")
    if ex.host:
        line.append(f" ({inert(ex.host, limit=20)})", style="dim")
    line.append(f" · locator {inert(ex.locator, limit=20)}: ")
    line.append(LOCATOR_WORDS.get(ex.locator, ""), style="dim")
    if ex.locator == "resolved":
        line.append(f" · bytes {inert(ex.bytes, limit=20)}: ")
        line.append(BYTES_WORDS.get(ex.bytes, ""), style="bold yellow" if ex.bytes == "changed" else "dim")
    return line


def finding_renderable(ex: Excerpt, limit: int) -> list[RenderableType]:
    """Where the app found a quote daimon does not reproduce: labelled as the app's own finding."""
    found = ex.finding
    if found is None:
        return []
    if found.where == "other-session":
        line = Text(f"  found verbatim in session {inert(found.session_id or '?', limit=60)} "
                    f"(daimon names {inert(ex.session_id or '?', limit=60)})", style="bold")
    else:
        line = Text(f"  {where_words(found.where)}", style="bold")
    line.append(f" ({APP_FINDING})", style="dim italic")
    parts: list[RenderableType] = [line]
    if found.turn is not None:
        parts.append(turn_text(found.turn, limit, label=found.where))
    if found.turns and found.turns[0].index > 0:
        parts.append(Text(f"  … {found.turns[0].index} earlier turn(s) there", style="dim"))
    parts.extend(turn_text(t, limit) for t in found.turns)
    if found.turns and found.turns[-1].index + 1 < found.total:
        parts.append(Text(f"  … {found.total - found.turns[-1].index - 1} later turn(s) there", style="dim"))
    return parts


def excerpt_renderable(ex: Excerpt, *, brief: bool, title: str = "Transcript") -> RenderableType:
    parts: list[RenderableType] = [Text(title, style="bold underline"), _state_line(ex)]
    if ex.unavailable:
        parts.append(Text(f"not shown: {inert(ex.unavailable, limit=300)}", style="yellow"))
        return Group(*parts)
    support = SUPPORT_WORDS.get(ex.support, ex.support)
    if ex.multi_turn:
        support = "the quote spans several turns: no single turn holds it"
    parts.append(Text(f"quote: {support}", style="yellow" if ex.support == "not-reproduced" else "dim"))
    turns = ex.turns
    if brief and ex.quoted is not None:
        turns = tuple(t for t in turns if abs(t.index - ex.quoted) <= shaping.BRIEF_AROUND)
    elif brief:
        turns = turns[: 2 * shaping.BRIEF_AROUND + 1]
    limit = shaping.BRIEF_TURN_CHARS if brief else shaping.FULL_TURN_CHARS
    parts.extend(finding_renderable(ex, limit))
    if turns and turns[0].index > 0:
        parts.append(Text(f"  … {turns[0].index} earlier turn(s)", style="dim"))
    parts.extend(turn_text(t, limit) for t in turns)
    if turns and turns[-1].index + 1 < ex.total:
        parts.append(Text(f"  … {ex.total - turns[-1].index - 1} later turn(s)", style="dim"))
    if ex.masked:
        parts.append(Text(f"{ex.masked} span(s) masked: values daimon forgot or quarantined", style="italic red"))
    return Group(*parts)


def witnesses_renderable(evidence: Evidence, *, brief: bool) -> RenderableType | None:
    if not evidence.witnesses:
        return None
    parts: list[RenderableType] = [Text("Witnesses' own words", style="bold underline")]
    for w in evidence.witnesses:
        ex = w.excerpt
        head = Text(f"{inert(w.session_id, limit=60)}", style="bold")
        if ex.unavailable:
            parts.append(Text.assemble(head, (f" · not shown: {inert(ex.unavailable, limit=200)}", "yellow")))
            continue
        quoted = [t for t in ex.turns if t.quoted]
        if not quoted:
            word = "the quote spans several turns" if ex.multi_turn else SUPPORT_WORDS.get(ex.support, ex.support)
            parts.append(Text.assemble(head, (f" · {word}", "yellow")))
            parts.extend(finding_renderable(ex, shaping.BRIEF_TURN_CHARS if brief else shaping.FULL_TURN_CHARS))
            continue
        parts.append(Text.assemble(head, (f" · locator {ex.locator} · bytes {ex.bytes}", "dim")))
        parts.append(turn_text(quoted[0], shaping.BRIEF_TURN_CHARS if brief else shaping.FULL_TURN_CHARS))
    return Group(*parts)


# ---- the world's evidence --------------------------------------------------------


def _lexer(path: str, code: str) -> str:
    from rich.syntax import Syntax  # here, not at start: pygments (~50 ms) would delay the first frame

    try:
        return Syntax.guess_lexer(path, code)
    except Exception:
        return "text"


def file_renderable(f: FileEvidence, *, brief: bool) -> RenderableType:
    from rich.syntax import Syntax  # here, not at start: pygments (~50 ms) would delay the first frame

    parts: list[RenderableType] = []
    head = Text(inert(f.path, limit=200), style="bold")
    if f.named:
        head.append(f" · lines {f.named[0]}–{f.named[1]} named", style="dim")
    if f.note:
        head.append(f" · {inert(f.note, limit=200)}", style="yellow" if not f.lines else "dim")
    parts.append(head)
    if f.lines:
        lines = f.lines[:12] if brief else f.lines
        code = "\n".join(inert(line, limit=400) for line in lines)
        highlight = set(range(f.named[0], f.named[1] + 1)) if f.named else set()
        parts.append(Syntax(code, _lexer(f.path, code), line_numbers=True, start_line=f.start,
                            highlight_lines=highlight, word_wrap=True, theme="ansi_dark"))
        more = len(f.lines) - len(lines) + f.hidden_after
        if more > 0:
            parts.append(Text(f"  … {more} more line(s)", style="dim"))
    diff_head = Text("  diff: ", style="bold")
    diff_head.append(inert(f.diff_note or "—", limit=300), style="dim")
    parts.append(diff_head)
    if f.diff:
        lines = f.diff[:20] if brief else f.diff
        code = "\n".join(inert(line, limit=400) for line in lines)
        parts.append(Syntax(code, "diff", word_wrap=True, theme="ansi_dark"))
        if len(f.diff) > len(lines):
            parts.append(Text(f"  … {len(f.diff) - len(lines)} more diff line(s) (o shows all)", style="dim"))
    return Group(*parts)


def _commits(title: str, commits: tuple, count: int, capped: bool) -> Text:
    text = Text(f"  {title}: {count}{'+' if capped else ''}", style="bold")
    for c in commits:
        text.append(f"\n    {c.short} {c.day} {inert(c.author, limit=40)}: ", style="dim")
        text.append(inert(c.summary, limit=120))
    if count > len(commits):
        text.append(f"\n    … {count - len(commits)} more", style="dim")
    return text


def ref_renderable(r: RefEvidence) -> RenderableType:
    head = Text(inert(r.subject, limit=120), style="bold")
    if r.tip is not None:
        head.append(f" at {r.tip.short} {r.tip.day}: ", style="dim")
        head.append(inert(r.tip.summary, limit=120))
    parts: list[RenderableType] = [head]
    if r.note:
        parts.append(Text(f"  {inert(r.note, limit=300)}", style="yellow"))
    if r.merged is not None:
        default = inert(r.default, limit=60)
        word = f"merged into {default}" if r.merged else f"NOT merged into {default}"
        parts.append(Text(f"  {word}", style="green" if r.merged else "yellow"))
        parts.append(_commits(f"ahead of {inert(r.default, limit=60)}", r.ahead, r.ahead_count, r.counts_capped))
        parts.append(_commits(f"behind {inert(r.default, limit=60)}", r.behind, r.behind_count, r.counts_capped))
    return Group(*parts)


def world_evidence_renderable(we: WorldEvidence, *, brief: bool) -> RenderableType | None:
    if we.empty and not we.repo_error:
        return None
    parts: list[RenderableType] = [Text("The world's evidence (git and files, offline)", style="bold underline")]
    if we.repo_error:
        parts.append(Text(f"repository: {inert(we.repo_error, limit=200)}", style="yellow"))
    parts.extend(file_renderable(f, brief=brief) for f in we.files)
    parts.extend(ref_renderable(r) for r in we.refs)
    parts.extend(Text(inert(e, limit=200), style="red") for e in we.errors)
    return Group(*parts)


def evidence_renderable(evidence: Evidence | None, world: WorldEvidence | None, *, brief: bool,
                        quote: bool, loading: bool = False) -> RenderableType:
    parts: list[RenderableType] = []
    if evidence is None:
        if quote:
            parts.append(Text("transcript: reading…" if loading else "", style="dim italic"))
    elif evidence.error:
        parts.append(Text(f"transcript: {inert(evidence.error, limit=200)}", style="red"))
    elif evidence.withheld:
        parts.append(Text("transcript: daimon withholds this item; its transcript is not shown", style="dim italic"))
    else:
        if evidence.item is not None and (quote or evidence.item.quote):
            parts.append(excerpt_renderable(evidence.item, brief=brief))
        words = witnesses_renderable(evidence, brief=brief)
        if words is not None:
            parts += [Text(""), words]
    if world is not None:
        shown = world_evidence_renderable(world, brief=brief)
        if shown is not None:
            parts += [Text(""), shown]
    return Group(*parts)


def _always() -> bool:
    return True


class EvidencePanel(Static):
    """Follows one item: reads its evidence in the judging child (the
    transcript) and a thread (the world), and paints it only while that item
    is still the one shown."""

    DEFAULT_CSS = "EvidencePanel { height: auto; margin-top: 1; }"

    def __init__(self, *, brief: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.brief = brief
        self.item: Item | None = None
        self.kept: dict[str, tuple[float, Evidence | None, WorldEvidence | None]] = {}
        # The benchmark's hooks: when the cursor rested on the item (the pane
        # started filling) and when its excerpt was painted.
        self.followed_at: float | None = None
        self.painted_at: float | None = None
        # Whether what this panel was asked to follow is still what its view shows
        # (the briefing's state generation); an answer after that is dropped.
        self.still: Callable[[], bool] = _always

    def follow(self, item: Item | None, project: ProjectRef | None, *,
               still: Callable[[], bool] | None = None) -> None:
        self.item = item
        self.still = still or _always
        self.followed_at = time.perf_counter()
        self.painted_at = None
        if item is None or not item.id or project is None:
            self.update("")
            return
        kept = self.kept.get(item.id)
        if kept is not None and time.monotonic() - kept[0] < KEEP_S:
            self._paint(item, kept[1], kept[2])
            return
        self._paint(item, None, None, loading=True)
        self.read(item, project)

    def _paint(self, item: Item, evidence: Evidence | None, world: WorldEvidence | None, *,
               loading: bool = False) -> None:
        self.update(evidence_renderable(evidence, world, brief=self.brief, quote=bool(item.quote), loading=loading))
        if evidence is not None:
            self.painted_at = time.perf_counter()

    def _showing(self, item: Item) -> bool:
        return self.item is item and self.still()

    @work(exclusive=True, group="evidence")
    async def read(self, item: Item, project: ProjectRef) -> None:
        """The item's excerpt first (the judging child answers it from the
        snapshot it holds), then the witnesses' words and the world's
        evidence; each painted only while the item is still shown."""
        from daimon_tui.services import evidence as evidence_service
        evidence = await evidence_service.transcript_excerpt(project, item.id or "", self.brief)
        if self._showing(item):
            self._paint(item, evidence, None)
        # The world's evidence after the excerpt: GitPython in a thread would
        # hold the interpreter while the excerpt is on its way.
        world_task = None
        if project.path:
            world_task = asyncio.ensure_future(evidence_service.world_evidence(Path(project.path), item))
        if evidence.item is not None and not evidence.error:
            words = await evidence_service.witness_words(project, item.id or "", self.brief)
            if not words.error:
                evidence = evidence.model_copy(update={"witnesses": words.witnesses})
        world = await world_task if world_task else None
        self.kept[item.id or ""] = (time.monotonic(), evidence, world)
        if self._showing(item):
            self._paint(item, evidence, world)
        # While the cursor rests, the child reads ahead the transcripts of the
        # other quoted items, one at a time (a move cancels this worker).
        for _step in range(WARM_STEPS):
            await asyncio.sleep(WARM_AFTER_S)
            if not self._showing(item):
                return
            warmed = await evidence_service.read_ahead(project)
            if warmed.left == 0 or warmed.read == 0:
                return
