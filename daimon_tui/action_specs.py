"""The action vocabulary: one registry of named actions. It feeds the key
bindings, the command palette, the help screen and the settings' key table,
so they can never disagree. No Textual here: `settings` reads it, and
`ui.actions` turns it into bindings."""

from __future__ import annotations

from dataclasses import dataclass

from daimon_tui.domain.verb_registry import VERBS

# The verbs the footer names; the rest are in `?` and the palette.
SHOWN_VERBS = frozenset({"resolve", "retract"})
# Footer-short words for each verb (the registry's `help` is the long form).
VERB_WORDS = {
    "resolve": "Resolve: the world changed",
    "retract": "Retract: it was never right",
    "restore": "Restore a retraction or resolution",
    "reverify": "Reverify with evidence",
    "forget": "Forget (irreversible)",
    "undo": "Undo the last action",
}


@dataclass(frozen=True, slots=True)
class ActionSpec:
    id: str
    keys: str
    action: str
    description: str
    group: str
    show: bool = False
    palette: bool = True
    # The footer's word (80 columns hold every shown key with these); help,
    # the palette and the README use `description`.
    short: str = ""


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("view.briefing", "1", "app.view('briefing')", "Briefing", "Views", show=True, short="brief"),
    ActionSpec("view.history", "2", "app.view('history')", "History", "Views", show=True, short="hist"),
    ActionSpec("view.queue", "3", "app.view('queue')", "Queue", "Views", show=True, short="queue"),
    ActionSpec("view.audit", "4", "app.view('audit')", "Audit", "Views", show=True, short="audit"),
    ActionSpec("view.log", "5", "app.view('log')", "Action log", "Views", show=True, short="log"),
    ActionSpec("view.search", "6", "app.view('search')", "Search everything daimon remembers", "Views",
               short="search"),
    ActionSpec("view.health", "7", "app.view('health')", "Health: where memory is heading, across sessions",
               "Views", short="health"),
    ActionSpec("projects", "P", "app.projects", "Switch project", "Views", show=True, short="proj"),
    ActionSpec("help", "question_mark", "app.help", "Keys and meanings", "App", show=True, short="help"),
    ActionSpec("palette", "colon,ctrl+p", "app.command_palette", "Command palette", "App", palette=False),
    ActionSpec("quit", "ctrl+q", "app.quit", "Quit", "App"),
    ActionSpec("back", "q", "app.back", "Back (from the briefing: quit)", "App", palette=False,
               show=True, short="back/quit"),
    ActionSpec("escape", "escape", "app.escape", "Cancel, clear or go back (never quits)", "App", palette=False),
    ActionSpec("cursor.down", "j", "screen.cursor(1)", "Next item", "Move", palette=False),
    ActionSpec("cursor.up", "k", "screen.cursor(-1)", "Previous item", "Move", palette=False),
    ActionSpec("filter", "slash", "screen.filter", "Filter (words, trust:, section:, carried…)", "Briefing"),
    ActionSpec("withheld", "h", "screen.toggle_withheld", "Show or hide withheld items", "Briefing", show=True,
               short="withheld"),
    ActionSpec("as_daimon", "d", "screen.toggle_as_daimon", "Rows as daimon prints them, or compact", "Briefing"),
    ActionSpec("team", "t", "screen.toggle_team", "Show or hide the teammates' memory", "Briefing"),
    ActionSpec("header", "e", "screen.toggle_header", "Whole header (handoff, rulings) or one line each", "Briefing"),
    ActionSpec("full", "enter", "screen.full_text", "Full text of this item", "Briefing"),
    ActionSpec("mark", "space", "screen.mark", "Mark for a batch verb", "Briefing"),
    ActionSpec("item", "o", "screen.open_item",
               "Open the item in a window over the list (evidence, witnesses, lifecycle)", "Briefing"),
    ActionSpec("detail.down", "J,ctrl+d", "screen.scroll_detail(1)", "Scroll the detail pane down", "Briefing",
               palette=False),
    ActionSpec("detail.up", "K,ctrl+u", "screen.scroll_detail(-1)", "Scroll the detail pane up", "Briefing",
               palette=False),
    ActionSpec("reload", "ctrl+r", "screen.reload", "Re-read daimon's store", "Briefing"),
    ActionSpec("review.next", "n", "screen.review('next')", "Next row not yet reviewed", "Review"),
    ActionSpec("review.previous", "N", "screen.review('previous')", "Previous row not yet reviewed", "Review"),
    ActionSpec("review.mark", "m", "screen.review('mark')", "Mark this row reviewed", "Review"),
    ActionSpec("review.all", "M", "screen.review('all')", "Mark every row reviewed", "Review"),
    ActionSpec("review.summary", "S", "screen.review('summary')",
               "The review's summary: resolved, retracted, restored, reverified, kept, left", "Review"),
    # The curation verbs: their keys come from the verb registry itself.
    *(
        ActionSpec(f"verb.{v.name}", v.key, f"screen.verb('{v.name}')", VERB_WORDS[v.name], "Verbs",
                   show=v.name in SHOWN_VERBS, short=v.name)
        for v in VERBS
    ),
    # Evidence into the person's own tools (daimon_tui/ui/evidence_actions.py).
    ActionSpec("open.transcript", "O", "screen.open_transcript",
               "Open the transcript at the quoted turn in $PAGER (read-only, masked)", "Evidence"),
    ActionSpec("open.file", "E", "screen.open_file", "Open the file the item names at its line in $EDITOR (read-only)",
               "Evidence"),
    ActionSpec("copy.id", "c", "screen.copy('id')", "Copy the item's id", "Evidence"),
    ActionSpec("copy.text", "C", "screen.copy('text')", "Copy the item's text", "Evidence"),
    ActionSpec("copy.quote", "Y", "screen.copy('quote')", "Copy the item's quote", "Evidence"),
    ActionSpec("world.one", "w", "screen.world_check(False)", "World-check this item", "World"),
    ActionSpec("world.all", "W", "screen.world_check(True)", "World-check every carried item", "World"),
)




def spec(action_id: str) -> ActionSpec:
    return next(s for s in ACTIONS if s.id == action_id)
