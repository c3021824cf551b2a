"""`?`: every key from the action registry, and what the marks and badges mean."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from daimon_tui.domain.badges import BADGES, MARKS, NOT_BRIEFED
from daimon_tui.ui.actions import ACTIONS

KEY_NAMES = {"question_mark": "?", "slash": "/", "colon": ":", "space": "space", "escape": "esc"}


def key_label(keys: str) -> str:
    return ", ".join(KEY_NAMES.get(k, k) for k in keys.split(","))


def help_table(keymap: dict[str, str] | None = None) -> Table:
    keymap = keymap or {}
    table = Table(title="Keys", title_justify="left", expand=True, show_edge=False)
    table.add_column("key", style="bold", width=12)
    table.add_column("does")
    table.add_column("group", style="dim", width=10)
    table.add_row("ctrl+p, :", "Command palette: every action by name", "App")
    for spec in ACTIONS:
        if spec.id == "palette":
            continue
        table.add_row(key_label(keymap.get(spec.id, spec.keys)), spec.description, spec.group)
    return table


def legend_table() -> Table:
    table = Table(title="Marks and badges", title_justify="left", expand=True, show_edge=False)
    table.add_column("shown", width=26)
    table.add_column("means")
    for mark in MARKS.values():
        table.add_row(Text(f"[{mark.label}]", style=mark.style), mark.meaning)
    meanings = {
        "carried": "copied forward from an older session",
        "corroborated": "independent sessions witnessed it (×N counts the origin too); derived from the event log",
        "world-checked": "git and the files agreed just now",
        "world-contradicted": "the world disagrees: this beats every other badge",
        "supersede-candidate": "daimon's serializer thinks a newer item replaces it",
        "agent-claim": "an agent says it is resolved; waiting on you",
        "amended": "an amendment is recorded under it",
        "foreign-verbatim": "a teammate's verbatim claim, unverifiable here",
        "recorded-confirmed": "daimon's own world-check (DAIMON_WORLDCHECK) last found it holds: recorded, not live",
        "recorded-contradicted": "daimon's own world-check recorded a contradiction: recorded, not live",
    }
    for kind, (label, style) in BADGES.items():
        if kind in meanings:
            table.add_row(Text(f"[{label}]", style=style), meanings[kind])
    table.add_row(Text(f"{NOT_BRIEFED} (gutter)", style="dim"),
                  "`daimon brief` leaves this row out for its byte budget: the agent will not see it")
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "app.pop_screen", "Close")]

    def __init__(self, keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self.keymap = keymap or {}

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_table(self.keymap))
            yield Static(legend_table())
