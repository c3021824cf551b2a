"""The action vocabulary: one registry of named actions. It feeds the key
bindings, the command palette, the help screen and the settings' key table,
so they can never disagree. No Textual here: `settings` reads it, and
`ui.actions` turns it into bindings."""

from __future__ import annotations

from dataclasses import dataclass

from daimon_tui.domain.queue_keys import QUEUE_KEYS
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
    # Run as the key arrives, before the keys typed after it are handed on: a key that moves the focus
    # into a box (`/`) must take the burst behind it there (`/bucket`), not leave it to the list.
    priority: bool = False


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
    ActionSpec("filter", "slash", "screen.filter", "Filter (words, trust:, section:, carried…)", "Briefing",
               priority=True),
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
    # Evidence into the person's own tools (daimon_tui/ui/item/evidence.py).
    ActionSpec("open.transcript", "O", "screen.open_transcript",
               "Open the transcript at the quoted turn in $PAGER (read-only, masked)", "Evidence"),
    ActionSpec("open.file", "E", "screen.open_file", "Open the file the item names at its line in $EDITOR (read-only)",
               "Evidence"),
    ActionSpec("copy.id", "c", "screen.copy('id')", "Copy the item's id", "Evidence"),
    ActionSpec("copy.text", "C", "screen.copy('text')", "Copy the item's text", "Evidence"),
    ActionSpec("copy.quote", "Y", "screen.copy('quote')", "Copy the item's quote", "Evidence"),
    ActionSpec("world.one", "w", "screen.world_check(False)", "World-check this item", "World"),
    ActionSpec("world.all", "W", "screen.world_check(True)", "World-check every carried item", "World"),
    # The other views' own keys, a group per view, read by that screen's `BINDINGS` (issue 39). Not in the
    # palette: it lists every action whatever the view, and these act only on their own view.
    # A table view's `/` filter (`ui.widgets.row_filter`): Esc clears it before it goes back.
    ActionSpec("rows.clear_or_back", "escape", "screen.clear_or_back", "Clear the filter, then back", "Rows",
               palette=False),
    ActionSpec("log.reload", "ctrl+r", "screen.reload", "Reload", "Log", show=True, palette=False),
    ActionSpec("log.undo", "z", "screen.undo_row", "Undo this action", "Log", show=True, palette=False),
    ActionSpec("log.down", "j", "screen.cursor(1)", "Next entry", "Log", palette=False),
    ActionSpec("log.up", "k", "screen.cursor(-1)", "Previous entry", "Log", palette=False),
    ActionSpec("log.open", "enter", "screen.open", "Open the entry's item in the briefing", "Log", palette=False),
    ActionSpec("health.back", "escape", "screen.go_back", "Back", "Health", palette=False),
    ActionSpec("health.reload", "ctrl+r", "screen.reload", "Reload", "Health", show=True, palette=False),
    # The projects list types into its filter box: only keys that type nothing move the cursor.
    ActionSpec("projects.clear_or_close", "escape", "screen.clear_or_close", "Clear the filter, then close",
               "Projects", show=True, palette=False),
    ActionSpec("projects.down", "down", "screen.cursor(1)", "", "Projects", palette=False),
    ActionSpec("projects.up", "up", "screen.cursor(-1)", "", "Projects", palette=False),
    ActionSpec("projects.page_down", "pagedown", "screen.cursor(10)", "", "Projects", palette=False),
    ActionSpec("projects.page_up", "pageup", "screen.cursor(-10)", "", "Projects", palette=False),
    ActionSpec("help.close", "escape,q,question_mark", "screen.go_back", "Close", "Help", show=True, palette=False),
    # The review's summary (`S`, and on quitting after verbs): `q` there quits when it was quitting.
    ActionSpec("summary.close", "escape,S", "screen.go_back", "Close", "Summary", show=True, palette=False),
    ActionSpec("summary.quit", "q", "screen.leave", "Quit", "Summary", palette=False),
    # The queue (its own keys line draws them: no footer). A verb key's action names the key, which
    # `domain.queue_keys` resolves to the verb that fits the entry.
    ActionSpec("queue.next", "n", "screen.move(1)", "Next", "Queue", show=True, palette=False),
    ActionSpec("queue.previous", "p", "screen.move(-1)", "Previous", "Queue", show=True, palette=False),
    ActionSpec("queue.skip", "s", "screen.skip", "Skip", "Queue", show=True, palette=False),
    *(ActionSpec(f"queue.{k.name}", k.key, f"screen.verb('{k.key}')", k.words, "Queue", palette=False)
      for k in QUEUE_KEYS),
    ActionSpec("queue.reload", "ctrl+r", "screen.reload", "Reload", "Queue", palette=False),
    ActionSpec("queue.undo", "z", "screen.undo", "Undo", "Queue", palette=False),
    ActionSpec("audit.reload", "ctrl+r", "screen.reload", "Reload", "Audit", palette=False),
    ActionSpec("history.mark", "space", "screen.mark", "Mark", "History", show=True, palette=False),
    ActionSpec("history.diff", "d", "screen.diff", "Diff marked ↔ cursor", "History", show=True, palette=False),
    ActionSpec("history.as_of", "@", "screen.as_of", "As of…", "History", show=True, palette=False),
    ActionSpec("history.down", "j", "screen.cursor(1)", "Next session", "History", palette=False),
    ActionSpec("history.up", "k", "screen.cursor(-1)", "Previous session", "History", palette=False),
    ActionSpec("history.open", "enter", "screen.open", "Open the session read-only", "History", palette=False),
    ActionSpec("history.reload", "ctrl+r", "screen.reload", "Reload", "History", palette=False),
    # History's diff of two sessions, and a session (or a moment) opened read-only.
    ActionSpec("diff.back", "escape", "screen.go_back", "Back", "Diff", palette=False),
    ActionSpec("diff.down", "j", "screen.cursor(1)", "Next change", "Diff", palette=False),
    ActionSpec("diff.up", "k", "screen.cursor(-1)", "Previous change", "Diff", palette=False),
    ActionSpec("readonly.back", "q", "screen.go_back", "Back", "Read-only", show=True, palette=False),
    ActionSpec("as_of.cancel", "escape", "screen.cancel", "Cancel", "As of", show=True, palette=False),
    # Search: in its box every key types (a query may be "429"); the view keys, j/k, space and the verbs
    # act once Tab (or Esc, Enter, down) has left it for the hits.
    ActionSpec("search.switch_focus", "tab,shift+tab", "screen.switch_focus",
               "Between the search box, where every key types (digits too), and the hits, "
               "where the view keys (1-6), j/k, space and the verbs work", "Search", show=True, palette=False,
               short="box⇄hits"),
    ActionSpec("search.all_projects", "ctrl+o", "screen.toggle_all", "All projects", "Search", show=True,
               palette=False),
    ActionSpec("search.team", "ctrl+t", "screen.toggle_team", "Teammates", "Search", show=True, palette=False),
    ActionSpec("search.box", "slash", "screen.focus_box", "Search box", "Search", palette=False,
               priority=True),
    ActionSpec("search.down", "j", "screen.move(1)", "Next", "Search", palette=False),
    ActionSpec("search.up", "k", "screen.move(-1)", "Previous", "Search", palette=False),
    ActionSpec("search.mark", "space", "screen.mark", "Mark", "Search", palette=False),
    ActionSpec("search.back", "q", "screen.back", "Back", "Search", palette=False),
    ActionSpec("search.escape", "escape", "screen.escape", "Leave the box for the hits, then back", "Search",
               palette=False),
    *(ActionSpec(f"search.verb.{v.name}", v.key, f"screen.verb('{v.name}')", v.title, "Search", palette=False)
      for v in VERBS if v.name != "undo"),
    # The item view (`o`) and the whole text (`enter`): windows over the list, closed by the key that opened them.
    ActionSpec("item.close", "escape,q,o", "screen.go_back", "Close", "Item", show=True, palette=False),
    ActionSpec("item.down", "j,down", "screen.scroll(1)", "Scroll down", "Item", palette=False),
    ActionSpec("item.up", "k,up", "screen.scroll(-1)", "Scroll up", "Item", palette=False),
    ActionSpec("full.close", "escape,q", "screen.go_back", "Close", "Full text", show=True, palette=False),
    # The briefing's arrows (no word: j and k name the move) and its Esc, after its other keys.
    ActionSpec("briefing.down", "down", "screen.cursor(1)", "", "Briefing list", palette=False),
    ActionSpec("briefing.up", "up", "screen.cursor(-1)", "", "Briefing list", palette=False),
    ActionSpec("briefing.escape", "escape", "screen.escape", "Clear the filter, then the marks (never quits)",
               "Briefing list", palette=False),
)




def spec(action_id: str) -> ActionSpec:
    return next(s for s in ACTIONS if s.id == action_id)
