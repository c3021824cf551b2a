"""The detail pane: everything about the item under the cursor. The item's own
fields paint at once; daimon's inspector (`why`) arrives from a worker."""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from daimon_tui.domain.ages import with_age
from daimon_tui.domain.badges import MARKS, badge_label, badge_style
from daimon_tui.domain.inert import inert
from daimon_tui.models import Inspection, Item, WithheldItem
from daimon_tui.ui.read_worker import FAILURE_PANE
from daimon_tui.ui.widgets.by_width import ByWidth

DETAIL_LIMIT = 20_000


def _field(table: Table, name: str, value: str | None, style: str = "") -> None:
    if value:
        table.add_row(Text(name, style="bold"), Text(inert(value, limit=DETAIL_LIMIT, keep_newlines=True), style=style))


def item_fields(item: Item, ages_at: float | None = None) -> RenderableType:
    """The item's fields; with `ages_at`, stored times carry their age ("3 d ago")."""
    mark = MARKS.get(item.mark, MARKS["untagged"])
    head = Text()
    head.append(f"[{mark.label}] ", style=mark.style)
    head.append(inert(item.text, limit=DETAIL_LIMIT, keep_newlines=True), style="bold")
    meaning = Text(mark.meaning, style="italic dim")
    badges = Text()
    for badge in item.badges:
        badges.append(f"[{badge_label(badge)}]", style=badge_style(badge))
        if badge.detail and badge.kind not in {"carried"}:
            badges.append(f" {inert(badge.detail, limit=200)}", style="dim")
        badges.append("  ")
    table = Table.grid(padding=(0, 1))
    table.add_column(width=14)
    table.add_column(ratio=1)
    _field(table, "quote", f'"{item.quote}"' if item.quote else None, "green")
    _field(table, "because", item.because)
    _field(table, "id", item.id)
    _field(table, "kind", f"{item.kind} ({item.section})")
    _field(table, "stored trust", item.trust or "untagged")
    if item.stale_days is not None:
        _field(table, "stale", f"carried {item.stale_days:.0f}d without re-verification", "yellow")
    first_seen = with_age(item.first_seen, ages_at) if ages_at is not None else item.first_seen
    _field(table, "origin", " · ".join(x for x in (item.origin_session, item.origin_author, first_seen) if x))
    _field(table, "carried from", item.carried_from)
    if item.quote_verified is not None:
        # The checkpoint's own stamp from daimon's matcher at write; the
        # inspector's `capture` axis is the receipt, a different record.
        found = "found" if item.quote_verified else "NOT found"
        _field(table, "matcher stamp", f"quote {found} in the transcript when written (quote_verified)")
    _field(table, "anchored to", item.anchored_to)
    if item.state != "visible":
        closing = " · ".join(
            x for x in (item.state, item.closing_status,
                        with_age(item.closing_ts, ages_at) if ages_at is not None else item.closing_ts,
                        item.closing_source) if x
        )
        _field(table, "lifecycle", closing, "italic")
        _field(table, "note", item.closing_note)
    for line in item.extra_lines:
        table.add_row(Text(""), Text(inert(line.strip(), limit=400), style="yellow"))
    return Group(head, meaning, badges, table)


# The narrowest meaning column worth showing beside its row (else it goes under it).
MEANING_MIN = 36

PROVISIONAL_NOTE = "provisional: from this item's own ledger rows; daimon is confirming…"


def inspection_table(inspection: Inspection | None, *, loading: bool, provisional: bool = False) -> RenderableType:
    if inspection is None:
        return Text("trust inspector: reading…" if loading else "", style="dim italic")
    if not inspection.found:
        return Text("trust inspector: daimon has no record of this id", style="dim italic")
    refs = ", ".join(inert(r, limit=60) for r in inspection.corroboration_refs) or "none"
    rows = [(inert(a.name), inert(a.value), a.meaning) for a in inspection.axes]
    rows.append((
        "corroboration",
        f"{inspection.corroboration_count} witness(es)",
        f"independent later sessions: {refs}; the badge counts the origin too (×{inspection.corroboration_count + 1})"
        if inspection.corroboration_count
        else "no independent session witnessed it",
    ))
    # As wide as the longest axis name: a field name is never cut.
    names = min(32, max(13, max((len(name) for name, _v, _m in rows), default=0)))
    wide = Table.grid(padding=(0, 1), expand=True)
    wide.add_column("axis", style="bold", width=names, no_wrap=True)
    wide.add_column("value", width=16, no_wrap=True, overflow="ellipsis")
    wide.add_column("meaning", ratio=1, style="dim")
    narrow: list[RenderableType] = []
    for name, value, meaning in rows:
        wide.add_row(name, value, meaning)
        narrow.append(Text.assemble((name.ljust(names), "bold"), " ", value))
        narrow.append(Text(f"  {meaning}", style="dim"))
    # Below this width the meaning column would cut words to a few characters:
    # it goes under its row, at full width.
    table = ByWidth(wide, Group(*narrow), min_width=names + 16 + MEANING_MIN + 2)
    heading = Text("trust inspector (daimon why)", style="bold underline")
    if provisional:
        # said above the inspector: the witnesses and lifecycle below are as provisional
        heading = Text.assemble(heading, "\n", (PROVISIONAL_NOTE, "italic yellow"))
    return Group(heading, table)


class ItemDetail(Static):
    """Shows one item (or a withheld entry) and, when it arrives, its inspection."""

    DEFAULT_CLASSES = FAILURE_PANE  # a detail read that failed says so here (`read_worker.show_failure`)

    shown: RenderableType = ""
    # The moment ages are said from (the screen's frozen `now` in tests);
    # None says no ages.
    ages_at: float | None = None

    def update(self, content: RenderableType = "", *, layout: bool = True) -> None:  # type: ignore[override]
        self.shown = content
        super().update(content, layout=layout)

    def plain(self, width: int = 100) -> str:
        """What the pane shows, as plain text (for tests and accessibility)."""
        console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
        console.print(self.shown)
        return console.export_text()

    def show_item(
        self,
        item: Item | None,
        inspection: Inspection | None = None,
        *,
        loading: bool = False,
        extras: tuple[RenderableType, ...] = (),
        provisional: bool = False,
    ) -> None:
        if item is None:
            self.update(Text("No item under the cursor.", style="dim"))
            return
        parts: list[RenderableType] = [item_fields(item, self.ages_at), Text(""),
                                       inspection_table(inspection, loading=loading, provisional=provisional)]
        for extra in extras:
            parts += [Text(""), extra]
        self.update(Group(*parts))

    def show_failure(self, message: str) -> None:
        """A read for this pane failed: what is shown stays, the failure follows it."""
        self.update(Group(self.shown, Text(""), Text(f"⚠ {inert(message, limit=DETAIL_LIMIT)}", style="bold yellow")))

    def show_withheld(self, entry: WithheldItem) -> None:
        text = Text()
        text.append("[⛔ withheld] ", style="bold red")
        text.append(f"{entry.kind} {inert(entry.id or '(no id)')}\n", style="bold")
        text.append(f"state: {entry.state}\n")
        if entry.forgotten_after:
            text.append(f"not forgotten yet at this moment: its value was forgotten later, at "
                        f"{inert(entry.forgotten_after)}, and a forget is never undone by going back in time\n")
        if entry.quarantine_id:
            text.append(f"quarantine: {inert(entry.quarantine_id)}\n")
        if entry.origin_session:
            text.append(f"origin session: {inert(entry.origin_session)}\n")
        text.append("daimon withholds this value's text from every reader; restore (u) can release a "
                    "quarantine you set.", style="italic dim")
        self.update(text)
