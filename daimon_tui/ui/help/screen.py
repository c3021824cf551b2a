"""`?`: the keys of the screen you are on, then the ones that work
everywhere (both read from the live bindings, keymap applied), what the
marks and badges mean, and the counts' words (one word, one definition)."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from daimon_tui.domain.badges import BADGES, MARKS, NOT_BRIEFED
from daimon_tui.domain.withheld import WORDS
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.key_table import LEAD_IDS, class_bindings, global_id_rows, id_rows, with_keymap
from daimon_tui.ui.navigation import GoesBack
from daimon_tui.ui.style_sheets import sheet


def help_table(title: str, rows: list[tuple[str, str, str]]) -> Table:
    table = Table(title=title, title_justify="left", expand=True, show_edge=False)
    table.add_column("key", style="bold", width=14)
    table.add_column("does")
    # The id is what settings `[keys]` remaps.
    table.add_column("action id", style="dim", no_wrap=True)
    for keys, does, action_id in rows:
        table.add_row(Text(keys), Text(does), Text(action_id))
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


def words_table() -> Table:
    """The words the counts use, each defined once (History, Health, stats and the header agree)."""
    table = Table(title="Words the counts use", title_justify="left", expand=True, show_edge=False)
    table.add_column("word", width=26)
    table.add_column("counts")
    for word, meaning in WORDS:
        table.add_row(Text(word, style="bold"), meaning)
    return table


class HelpScreen(GoesBack, ModalScreen[None]):
    CSS_PATH = sheet("overlays")  # read when first opened, not at the first frame
    BINDINGS: ClassVar[list[BindingType]] = bindings({"Help"})

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        name = getattr(self.under, "VIEW_NAME", "") or type(self.under).__name__.removesuffix("Screen")
        with VerticalScroll(id="help") as box:
            # On the frame, so it is in view however far the tables run past the screen.
            box.border_title = "esc, q or ? closes this help"
            # The keys as the person remapped them (settings `[keys]`), not the defaults.
            keymap = getattr(getattr(self.app, "settings", None), "keys", None) or {}
            under = with_keymap(class_bindings(type(self.under)), keymap)
            rows = id_rows(under, self.under.check_action, skip_ids=LEAD_IDS)
            yield Static(help_table(f"Keys on this screen: {name}", rows))
            everywhere = global_id_rows(with_keymap(class_bindings(type(self.app)), keymap), under)
            yield Static(help_table("Keys everywhere", everywhere))
            yield Static(legend_table())
            yield Static(words_table())
