"""The briefing's header and status line: daimon's handoff, the counts, the
notes and rulings, and whether daimon confirmed the rows. It folds to one
line per part on a short terminal (or when `e` says so)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from daimon_tui.domain.ages import with_age
from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import short_id
from daimon_tui.domain.withheld import withheld_count
from daimon_tui.models import Briefing, Handoff

# Up to this many rows the header folds (the handoff and rulings one line each).
SHORT_ROWS = 30

PROVISIONAL_LINE = "provisional: confirming with daimon…"


def handoff_text(handoff: Handoff) -> Text:
    """daimon's baton block, as it leads `daimon brief`."""
    text = Text(f"HANDOFF (left deliberately by previous session, {inert(handoff.ts, limit=40)}):",
                style="bold magenta")
    for line in handoff.lines:
        text.append(f"\n→ {inert(line, limit=400)}", style="bold")
    return text


def folded_handoff(handoff: Handoff) -> Text:
    """The baton on one line (a short terminal): `e` shows daimon's whole block."""
    text = Text("HANDOFF (e): ", style="bold magenta")
    text.append("  ".join(f"→ {inert(line, limit=400)}" for line in handoff.lines), style="bold")
    return text


def folded_rulings(rulings: tuple[str, ...]) -> Text:
    """daimon's rulings section on one line, its heading shortened: the rulings come first."""
    text = Text("Standing rulings (e): ", style="bold cyan")
    text.append("  ".join(inert(line, limit=400) for line in rulings[1:]), style="bold")
    return text


def receipts_line(failures: int) -> Text:
    return Text(f"⚠ {failures} session receipt(s) fail: press 4 for the audit", style="bold red")


def status_line(provisional: bool, receipt_failures: int) -> Text:
    """The latest briefing's one status line, always there: whether daimon
    confirmed the rows and whether session receipts fail. One line in every
    frame, so the list never moves when the confirmation or the audit lands."""
    if receipt_failures:
        text = receipts_line(receipt_failures)
        if provisional:
            text.append(" · confirming with daimon…", style="italic yellow")
        return text
    if provisional:
        return Text(PROVISIONAL_LINE, style="italic yellow")
    return Text("confirmed by daimon", style="dim")


def header_text(briefing: Briefing, receipt_failures: int = 0, shown: Callable[[str], str] = str, *,
                latest: bool = True, disabled: bool = False, now: float | None = None, folded: bool = False,
                review: Text | None = None) -> Text:
    """The header; `latest=False` for a retained or past checkpoint (History, as-of).
    `folded` (a short terminal): one line per part, the handoff and rulings folded,
    no greeting, so the list keeps its rows. `review` (what is new since the last
    review) ends the status line: no line of its own, so nothing moves when it lands."""
    text = Text()
    if briefing.handoff:
        text.append_text(folded_handoff(briefing.handoff) if folded else handoff_text(briefing.handoff))
        text.append("\n")
    text.append("Briefing · ", style="bold")
    text.append(inert(briefing.project.name or briefing.project.slug, limit=80), style="bold")
    if briefing.session_id:
        text.append(f"  ·  session {inert(short_id(briefing.session_id), limit=60)}")
    counts = f"  {len(briefing.items())} items"
    hidden = withheld_count(briefing)
    if hidden:
        counts += f", {hidden} withheld (h)"
    if folded:  # the counts before the date: a cut line keeps them
        text.append(counts, style="dim")
    if briefing.created:
        created = inert(briefing.created, limit=30)
        text.append(f"  written {with_age(created, now) if now is not None else created}", style="dim")
    if not folded:
        text.append(counts, style="dim")
    if disabled:
        text.append("\n⛔ daimon is disabled (DAIMON_DISABLE): reading works, every verb will be refused.",
                    style="bold red")
    if briefing.degraded:
        subject = "the latest checkpoint" if latest else "this checkpoint"
        text.append(f"\n⚠ RECEIPT UNVERIFIED: {subject} no longer matches its signed receipt; "
                    "verbatim labels are degraded.", style="bold yellow")
    if latest:
        text.append("\n")
        text.append_text(status_line(briefing.provisional, receipt_failures))
        if review is not None:
            text.append(" · ", style="dim")
            text.append_text(review)
    else:
        if briefing.provisional:
            text.append(f"\n{PROVISIONAL_LINE}", style="italic yellow")
        if receipt_failures:
            text.append("\n")
            text.append_text(receipts_line(receipt_failures))
    for note in briefing.notes:
        style = "yellow" if note.level != "error" else "bold red"
        text.append(f"\n⚠ {inert(shown(note.message), limit=400)}", style=style)
    if briefing.greeting and briefing.state == "briefing" and not folded:
        text.append(f"\n{briefing.greeting}", style="italic")
    if folded and len(briefing.rulings) > 1:
        text.append("\n")
        text.append_text(folded_rulings(briefing.rulings))
        return text
    for n, ruling in enumerate(briefing.rulings):
        text.append(f"\n{inert(ruling, limit=400)}", style="bold cyan" if n == 0 else "bold")
    return text


class BriefingHeader(Static):
    """The header above the list; the screen tells it what to paint."""

    def __init__(self, *, latest: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.latest = latest
        # None: the header folds by the terminal's height; `e` decides otherwise.
        self.fold: bool | None = None

    def is_folded(self) -> bool:
        return self.screen.size.height <= SHORT_ROWS if self.fold is None else self.fold

    def toggle_fold(self) -> None:
        """`e`: the whole header (handoff, rulings) or one line per part."""
        self.fold = not self.is_folded()

    def paint(self, briefing: Briefing, receipt_failures: int, shown: Callable[[str], str], *,
              disabled: bool, now: float | None, review: Text | None = None) -> None:
        folded = self.is_folded()
        self.set_class(folded, "folded")  # one row per line (styles/app.tcss)
        self.update(header_text(briefing, receipt_failures, shown, latest=self.latest, disabled=disabled,
                                now=now, folded=folded, review=review))
