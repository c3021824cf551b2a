"""How one item reads as a row: mark glyph, text, badges. Built as Rich `Text`
objects from inert strings, so stored text can never become markup."""

from __future__ import annotations

from rich.text import Text

from daimon_tui.domain.badges import MARKS, NOT_BRIEFED, badge_label, badge_style, ordered
from daimon_tui.domain.inert import DEFAULT_LIMIT, inert
from daimon_tui.models import Item, WithheldItem

ROW_TEXT_LIMIT = 300
# `d` shows daimon's exact line: whole, up to the inert default (a hostile
# megabyte line is cut there with a marker; Enter shows all of it).
DAIMON_LINE_LIMIT = DEFAULT_LIMIT


def mark_text(mark: str) -> Text:
    style = MARKS.get(mark, MARKS["untagged"])
    return Text(f"[{style.label}]", style=style.style)


def change_marker(change: str | None) -> Text:
    """What changed since the person's last review ("new", "was ~ inferred"): leads the row."""
    if not change:
        return Text()
    return Text(f"«{inert(change, limit=60)}» ", style="bold yellow")


def item_row(item: Item, *, marked: bool = False, provisional: bool = False, as_daimon: bool = False,
             change: str | None = None) -> Text:
    """The compact row, or (`as_daimon`) the exact line daimon prints for it;
    `change` is what changed since the last review."""
    row = Text()
    if marked:
        row.append("● ", style="bold magenta")
    elif item.briefed is False:
        row.append(f"{NOT_BRIEFED} ", style="dim")
    else:
        row.append("  ")
    if not as_daimon:  # daimon's exact line stays exact; n/N still find the row
        row.append_text(change_marker(change))
    # A world contradiction beats every other mark: it leads the row.
    leading = [b for b in item.badges if b.kind == "world-contradicted"]
    for badge in leading:
        row.append(f"[{badge_label(badge)}] ", style=badge_style(badge))
    if as_daimon and item.line:
        line = item.briefed_line or item.line
        row.append(inert(line, limit=DAIMON_LINE_LIMIT), style="dim" if item.briefed is False else "")
        if provisional:
            row.append("  … provisional", style="italic yellow")
        return row
    row.append_text(mark_text(item.mark))
    row.append(" ")
    text_style = "dim strike" if item.state != "visible" else ""
    row.append(inert(item.text, limit=ROW_TEXT_LIMIT), style=text_style)
    for badge in ordered(item.badges):
        if badge.kind == "noted" or badge in leading:
            continue
        row.append(" ")
        row.append(f"[{badge_label(badge)}]", style=badge_style(badge))
    if item.state != "visible":
        row.append(f"  ({item.state}", style="italic")
        status = (item.closing_status or "").strip()
        if status and status.casefold() != item.state:
            # the status the person chose ("merged"), not only "resolved"
            row.append(f": {inert(status, limit=40)}", style="italic")
        if item.closing_source:
            row.append(f" via {inert(item.closing_source, limit=20)}", style="italic")
        row.append(")", style="italic")
    if provisional:
        row.append("  … provisional", style="italic yellow")
    return row


def daimon_lines_under(item: Item) -> list[Text]:
    """The lines `daimon brief` prints under the item's own (its world-check's
    "⚠ state changed since capture" with the confirm and reject commands, a
    supersede candidate, an agent's claim), as `d` lists them under its row."""
    return [Text(f"  {inert(line, limit=DAIMON_LINE_LIMIT)}", style="yellow" if "⚠" in line else "")
            for line in item.briefed_under]


def withheld_row(entry: WithheldItem, *, marked: bool = False, change: str | None = None,
                 shown_id: str | None = None) -> Text:
    """`shown_id`: the id as the list shows it (its shortest unique prefix); the detail has it whole."""
    row = Text()
    row.append("● " if marked else "  ", style="bold magenta")
    row.append_text(change_marker(change))
    row.append("[⛔ withheld]", style="bold red")
    row.append(f" {entry.kind} {inert(shown_id or entry.id or '(no id)', limit=60)}", style="dim")
    if entry.forgotten_after:
        row.append(f"  (forgotten later, at {inert(entry.forgotten_after, limit=30)}: its value stays removed "
                   "in every view)", style="italic")
        return row
    row.append(f"  ({entry.state}", style="italic")
    if entry.quarantine_id:
        row.append(f" {inert(entry.quarantine_id, limit=40)}", style="italic")
    if entry.when:
        row.append(f" {inert(entry.when, limit=30)}", style="italic")
    row.append(") — daimon shows no text for it", style="italic dim")
    return row
