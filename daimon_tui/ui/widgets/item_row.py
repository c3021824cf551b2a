"""How one item reads as a row: mark glyph, text, badges. Built as Rich `Text`
objects from inert strings, so stored text can never become markup."""

from __future__ import annotations

from rich.text import Text

from daimon_tui.domain.badges import MARKS, badge_label, badge_style, ordered
from daimon_tui.domain.inert import inert
from daimon_tui.models import Item, WithheldItem

ROW_TEXT_LIMIT = 300


def mark_text(mark: str) -> Text:
    style = MARKS.get(mark, MARKS["untagged"])
    return Text(f"[{style.label}]", style=style.style)


def item_row(item: Item, *, marked: bool = False, provisional: bool = False) -> Text:
    row = Text()
    row.append("● " if marked else "  ", style="bold magenta")
    # A world contradiction beats every other mark: it leads the row.
    leading = [b for b in item.badges if b.kind == "world-contradicted"]
    for badge in leading:
        row.append(f"[{badge_label(badge)}] ", style=badge_style(badge))
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
        if item.closing_source:
            row.append(f" via {inert(item.closing_source, limit=20)}", style="italic")
        row.append(")", style="italic")
    if provisional:
        row.append("  … provisional", style="italic yellow")
    return row


def withheld_row(entry: WithheldItem) -> Text:
    row = Text("  ")
    row.append("[⛔ withheld]", style="bold red")
    row.append(f" {entry.kind} {inert(entry.id or '(no id)', limit=60)}", style="dim")
    row.append(f"  ({entry.state}", style="italic")
    if entry.quarantine_id:
        row.append(f" {inert(entry.quarantine_id, limit=40)}", style="italic")
    row.append(") — daimon shows no text for it", style="italic dim")
    return row
