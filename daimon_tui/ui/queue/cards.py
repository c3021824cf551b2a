"""What the Queue view draws: an entry's card, its keys line, the summary past
the last entry. Pure renderables from the entry and what this sitting did."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from daimon_tui.domain import queue_order
from daimon_tui.domain.action_entries import ActionEntry
from daimon_tui.domain.inert import inert
from daimon_tui.domain.queue_keys import KEY_VERBS, verb_for
from daimon_tui.models.queue import QueueEntry, TriageQueue
from daimon_tui.ui.widgets.item_detail import item_fields

VERB_LABELS = {
    "resolve": "resolve",
    "retract": "retract",
    "reverify": "reverify",
    "claim-confirm": "confirm resolved",
    "claim-reopen": "reopen (evidence)",
    "supersede-confirm": "confirm supersession",
    "supersede-reject": "reject (reverify)",
    "amend-ratify": "ratify",
    "amend-reject": "reject",
    "relation-confirm": "confirm",
    "relation-reject": "reject",
    "trust-confirm": "confirm quarantine",
    "trust-dismiss": "dismiss",
    "ruling-ratify": "ratify this text",
    "ruling-reject": "reject",
    "refutation-ratify": "ratify",
    "refutation-reject": "reject",
    "request-accept": "accept the request",
    "request-reject": "decline the request",
}


def inert_text(value: object, style: str = "", limit: int = 2000) -> Text:
    return Text(inert(value, limit=limit, keep_newlines=True), style=style)


def key_for(entry: QueueEntry, key: str) -> str | None:
    return verb_for(key, entry.verbs)


def lead_keys() -> Text:
    """`?` and `q` lead the keys line, as they lead every footer."""
    out = Text()
    out.append(" ? ", style="reverse")
    out.append(" help  ")
    out.append(" q ", style="reverse")
    out.append(" back  ")
    return out


def keys_line(entry: QueueEntry) -> Text:
    out = lead_keys()
    shown: set[str] = set()
    for key in KEY_VERBS:
        verb = key_for(entry, key)
        if verb and verb not in shown:
            shown.add(verb)
            out.append(f" {key} ", style="reverse bold")
            out.append(f" {VERB_LABELS[verb]}  ")
    out.append(" n ", style="reverse")
    out.append(" next  ")
    out.append(" p ", style="reverse")
    out.append(" previous  ")
    out.append(" s ", style="reverse")
    out.append(" skip")
    return out


def entry_texts(entry: QueueEntry) -> dict[str, str]:
    """The entry's item text by its id: the dialogs and the toast name it by its text."""
    return {entry.ref: entry.item.text} if entry.item is not None and entry.item.text else {}


def entry_card(entry: QueueEntry, world: str | None = None, done: str | None = None) -> RenderableType:
    head = Text()
    head.append(f"{entry.title}", style="bold reverse")
    head.append("  ")
    head.append_text(inert_text(entry.ref, "bold", 80))
    why = Text("why: ", style="bold")
    why.append_text(inert_text(entry.why, "italic", 400))
    parts: list[RenderableType] = [head, why]
    if done:
        parts.append(Text(f"done this sitting: {done}", style="green bold"))
    if world:
        parts.append(Text.assemble(("world-check: ", "bold"), inert_text(world, "yellow", 400)))
    if entry.prefill_status:
        parts.append(Text(f"suggested status: {entry.prefill_status}", style="yellow"))
    if entry.substitute_id:
        parts.append(Text.assemble(("substitute: ", "bold"), inert_text(entry.substitute_id, "", 80)))
    parts.append(Text(""))
    if entry.item is not None:
        parts.append(item_fields(entry.item))
    if entry.record is not None:
        table = Table.grid(padding=(0, 1))
        table.add_column(width=12)
        table.add_column(ratio=1)
        table.add_row(Text("record", style="bold"), inert_text(f"{entry.record.kind} {entry.record.id}", "", 120))
        for label, value in entry.record.fields:
            table.add_row(inert_text(label, "bold", 40), inert_text(value))
        if entry.record.context:
            table.add_row(Text("context", style="bold"), inert_text(entry.record.context, "dim", 200))
        if entry.record.waiting_since:
            table.add_row(Text("waiting since", style="bold"), inert_text(entry.record.waiting_since, "dim", 40))
        if entry.record.withheld:
            table.add_row(
                Text("withheld", style="bold red"),
                Text("part of this record is withheld: it cannot be ratified here", style="red"),
            )
        parts.append(table)
    return Group(*parts)


def summary_text(entries: list[ActionEntry], queue: TriageQueue, done: dict[str, str]) -> Text:
    out = Text()
    out.append("End of the queue\n\n", style="bold")
    skipped = sum(1 for v in done.values() if v == "skip")
    out.append(f"{len(queue.entries)} waiting item(s) went by; {skipped} skipped (still waiting).\n\n")
    if not entries:
        out.append("Nothing was written this sitting.\n", style="italic")
        return out
    out.append("Done this sitting (from the action log):\n", style="bold")
    for line in queue_order.summary_lines((e.verb, e.outcome) for e in entries):
        out.append(f"  {inert(line, limit=200)}\n")
    out.append("\n")
    for entry in entries:
        mark = "✓" if entry.outcome == "applied" else "✗"
        out.append(f"  {mark} ", style="green" if entry.outcome == "applied" else "red")
        out.append_text(inert_text(entry.verb, "bold", 40))
        out.append("  ")
        out.append_text(inert_text(", ".join(entry.item_ids), "", 200))
        out.append(f"  {entry.outcome}", style="dim")
        if entry.reason:
            out.append_text(inert_text(f" ({entry.reason})", "dim", 80))
        out.append("\n")
    return out
