"""The Search view (`6`): results as you type, from daimon's recall index,
over every retained session of the project; `ctrl+o` widens to every project,
`ctrl+t` hides or shows teammates' shared memory.

Each hit says what it is now (daimon's words, see `store.read.search`). Enter
opens a live hit in the briefing with its detail pane, any other in its
session (read-only). Verbs act on live hits only: they go to the briefing's
own verb flow, so its confirmations, guards and log apply unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Input, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.search_query import parse_query
from daimon_tui.models import ProjectRef
from daimon_tui.models.search import SearchHit, SearchResult
from daimon_tui.services import search as search_service
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.focus import focus_now, type_if_typing
from daimon_tui.ui.history.screen import SessionScreen
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.search.state import SearchState
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.widgets.item_row import mark_text
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_list import Entry, RowList

if TYPE_CHECKING:
    from daimon_tui.services.action_log import ActionLog

HIT_TEXT_LIMIT = 200
_STATE_STYLE = {
    "active": "green", "carried": "green", "resolved": "dim", "superseded": "dim",
    "contradicted": "bold red", "quarantined": "bold red", "forgotten": "dim", "withheld": "bold red",
    "not carried": "dim",
}


def hit_row(hit: SearchHit, *, marked: bool = False, mark_width: int = 0) -> Text:
    """One hit; its mark padded to `mark_width` cells so the columns after it line up."""
    row = Text()
    row.append("● " if marked else "  ", style="bold magenta")
    mark = mark_text(hit.mark)
    row.append_text(mark)
    row.append(" " * max(0, mark_width - mark.cell_len))
    row.append(f" {inert(hit.kind, limit=14):<11} ", style="dim")
    row.append(f"{hit.state:<12}", style=_STATE_STYLE.get(hit.state, ""))
    row.append(" ")
    row.append(inert(hit.text, limit=HIT_TEXT_LIMIT), style="" if hit.live or hit.state != "not carried" else "dim")
    return row


def group_heading(hit: SearchHit) -> Text:
    """Above a teammate's hits in the shared project: whose, and where daimon files them."""
    heading = Text("── ", style="dim")
    heading.append(f"teammate {inert(hit.author or '?', limit=40)}", style="bold")
    heading.append(f" · this project, shared (filed under {inert(hit.project_slug or '?', limit=60)}) ──", style="dim")
    return heading


def mark_width(hits: list[SearchHit]) -> int:
    """The widest mark among the hits: their columns line up after it."""
    return max((mark_text(hit.mark).cell_len for hit in hits), default=0)


def hit_entries(hits: list[SearchHit], marked: set[str]) -> list[Entry]:
    """One row per hit; a heading before each teammate's run of hits in the shared project."""
    entries: list[Entry] = []
    width = mark_width(hits)
    group: tuple | None = None
    for n, hit in enumerate(hits):
        if hit.shared_project and (hit.author, hit.shared_project) != group:
            entries.append(Entry(group_heading(hit)))
        group = (hit.author, hit.shared_project) if hit.shared_project else None
        entries.append(Entry(hit_row(hit, marked=hit.item_id in marked, mark_width=width), key=n))
    return entries


def hit_detail(hit: SearchHit) -> Text:
    out = Text()
    out.append(inert(hit.text, limit=2000))
    if hit.quote:
        out.append("\n“")
        out.append(inert(hit.quote, limit=1000), style="italic")
        out.append("”")
    facts = (
        ("id", hit.item_id or "(no id)"),
        ("state", hit.state + (f" — {hit.said_detail}" if hit.said_detail else "")),
        ("project", f"{hit.shared_project}, shared (daimon files it under {hit.project_slug})"
         if hit.shared_project else hit.project_slug or "(no project)"),
        ("session", hit.session_id or "?"),
        ("date", hit.created or "?"),
        ("author", (hit.author or "?") + (" (teammate)" if hit.teammate else "")
         + (f", stated by {hit.stated_by}" if hit.stated_by else "")),
    )
    for name, value in facts:
        out.append(f"\n{name:>8} ", style="bold")
        out.append(inert(value, limit=300))
    out.append("\n\nEnter: " + ("open in the briefing" if hit.live else "open in its session (read-only)"),
               style="dim")
    return out


def focus_item(screen: BriefingScreen, item_id: str) -> bool:
    """Put the briefing's cursor on `item_id` (its detail pane follows)."""
    try:
        row_list = screen.query_one("#items", RowList)
    except NoMatches:
        return False
    row = next((n for n, r in enumerate(screen.rows) if r.item is not None and r.item.id == item_id), None)
    if row is None:
        return False
    entry = next((n for n, e in enumerate(row_list.entries) if e.key == row), None)
    if entry is None:
        return False
    row_list.highlighted = entry
    return True


class HitSessionScreen(SessionScreen):
    """A hit's session, read-only, with the cursor on the hit."""

    def __init__(self, project: ProjectRef, session_id: str, item_id: str | None, *,
                 now: float | None = None) -> None:
        super().__init__(project, session_id, now=now)
        self.focus_id = item_id

    def show(self, briefing) -> None:  # type: ignore[no-untyped-def]
        super().show(briefing)
        if self.focus_id:
            focus_item(self, self.focus_id)


class SearchScreen(Screen):
    CSS_PATH = sheet("search")  # read when first opened, not at the first frame
    VIEW_NAME = "Search"
    # In the box every key types (a query may be "429"): the view keys, j/k,
    # space and the verbs act once Tab (or Esc, Enter, down) has left it for the hits.
    BINDINGS: ClassVar[list[BindingType]] = bindings({"Search"})

    def __init__(self, project: ProjectRef, *, now: float | None = None, log: ActionLog | None = None) -> None:
        super().__init__(classes="search-screen")
        self.project = project
        self.now = now
        self.action_log = log
        self.state = SearchState()
        # what each Static shows now: an update with the same text is skipped
        self._texts: dict[str, Text] = {}

    def compose(self) -> ComposeResult:
        # Back in the box the query is refined, not replaced: no select-all on focus.
        yield Input(placeholder="search daimon's memory: words, trust:, kind:, state:, project:, since:",
                    id="search-box", select_on_focus=False)
        yield Static(id="search-status")
        yield RowList(id="search-hits")
        yield Static(id="search-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#search-box", Input).focus()
        self.show_status()
        self.prepare()

    # ---- reading ---------------------------------------------------------------

    @work(exclusive=True, group="search-prepare")
    async def prepare(self) -> None:
        # daimon's cold costs (index freshness, the verdict fold) are paid
        # once, by the judging child, while the person types.
        self._update("search-status", Text("readying daimon's recall index…", style="dim"))
        self.state.warmed(await search_service.prepare(self.project))
        if self.is_attached:
            self.show_status()

    @on(Input.Changed, "#search-box")
    def typed(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    @on(Input.Submitted, "#search-box")
    def submitted(self) -> None:
        if self.state.hits:
            self.query_one("#search-hits", RowList).focus()

    @work(exclusive=True, group="search")
    async def run_search(self, text: str) -> None:
        state = self.state
        if not text.strip():
            self.show(state.empty(text))
            return
        same = state.same_answer(text)
        if same is not None:
            self.show(same)
            return
        result, failure = await search_service.search(self.project, text, state.all_projects, state.team, self.now)
        if not self.is_attached:
            return
        self.show(result)
        if failure is not None:
            self.notify(f"search ran in the app: {failure}", severity="warning")

    def rerun(self) -> None:
        self.run_search(self.query_one("#search-box", Input).value)

    # ---- showing ---------------------------------------------------------------

    def show(self, result: SearchResult) -> bool:
        """Show `result`; whether anything on screen changed."""
        changed = self.state.answered(result)
        if changed:
            self.query_one("#search-hits", RowList).set_entries(hit_entries(self.state.hits, self.state.marked), None)
        changed = self.show_status() | changed
        return self.show_detail() | changed

    def _update(self, widget_id: str, text: Text) -> bool:
        # Each update lays the screen out again: skipped when the text is the same.
        if self._texts.get(widget_id) == text:
            return False
        self._texts[widget_id] = text
        self.query_one(f"#{widget_id}", Static).update(text)
        return True

    def show_status(self) -> bool:
        state = self.state
        scope = "every project" if state.all_projects else "this project"
        team = "teammates shown" if state.team else "teammates hidden"
        line = Text(f"Search · {scope} · {team} (ctrl+o, ctrl+t)", style="bold")
        result = state.result
        if result is not None and result.query.strip():
            line.append(f" · {len(result.hits)} hit(s)")
        elif not state.ready:
            line.append(" · readying daimon's recall index…", style="dim")
        line.append(" · " + ("typing: every key types; tab or esc for the hits and the view keys"
                             if self._box_focused() else "hits: view keys 1-6 work; / or tab to type"), style="dim")
        problems = parse_query(result.query if result else "").problems
        for note in (*problems, *(d.message for d in (result.notes if result else ()))):
            line.append("\n⚠ " + inert(note, limit=300), style="yellow")
        return self._update("search-status", line)

    def current(self) -> SearchHit | None:
        row_list = self.query_one("#search-hits", RowList)
        index = row_list.highlighted
        if index is None or index >= len(row_list.entries):
            return None
        return self.state.hit(row_list.entries[index].key)

    @on(RowList.Highlighted, "#search-hits")
    def show_detail(self) -> bool:
        hit = self.current()
        if hit is None:
            empty = self.state.asked_nothing()
            return self._update("search-detail", Text("Type to search." if empty else "Nothing daimon recalls matches.",
                                                      style="italic"))
        return self._update("search-detail", hit_detail(hit))

    # ---- keys --------------------------------------------------------------------

    def action_toggle_all(self) -> None:
        self.state.all_projects = not self.state.all_projects
        self.show_status()
        self.rerun()

    def action_toggle_team(self) -> None:
        self.state.team = not self.state.team
        self.show_status()
        self.rerun()

    def action_focus_box(self) -> None:
        """`/` (a priority key): types in the box, and from the hits takes the keys behind it there."""
        box = self.query_one("#search-box", Input)
        type_if_typing(box)
        focus_now(box)

    def action_switch_focus(self) -> None:
        box = self.query_one("#search-box", Input)
        if box.has_focus:
            self.query_one("#search-hits", RowList).focus()
        else:
            box.focus()

    def on_descendant_focus(self) -> None:
        if self.is_mounted:
            self.show_status()

    def action_move(self, delta: int) -> None:
        row_list = self.query_one("#search-hits", RowList)
        row_list.focus()
        if delta > 0:
            row_list.action_cursor_down()
        else:
            row_list.action_cursor_up()

    def action_back(self) -> None:
        navigator(self.app).back(self)

    def action_escape(self) -> None:
        # One Esc leaves the input, query kept (as in k9s and lazygit): the
        # next view key acts instead of being typed. From the hits, or an
        # empty box, it goes back.
        box = self.query_one("#search-box", Input)
        if box.has_focus and box.value:
            self.query_one("#search-hits", RowList).focus()
            return
        navigator(self.app).back(self)

    def _box_focused(self) -> bool:
        try:
            return self.query_one("#search-box", Input).has_focus
        except NoMatches:
            return False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Letters type into the box; list keys act only when the list has focus.
        if action in {"move", "mark", "back", "verb", "focus_box"}:
            return not self._box_focused()
        return True

    def key_down(self) -> None:
        if self.query_one("#search-box", Input).has_focus and self.state.hits:
            self.action_move(1)

    def action_mark(self) -> None:
        hit = self.current()
        if hit is None:
            return
        if not (hit.live and hit.item_id):
            self.notify("Only a live hit of this project can be marked for a verb.", severity="warning")
            return
        marked = self.state.toggle_mark(hit.item_id)
        row_list = self.query_one("#search-hits", RowList)
        if row_list.highlighted is not None:
            row_list.replace_prompt(row_list.highlighted, hit_row(hit, marked=marked,
                                                                  mark_width=mark_width(self.state.hits)))
        row_list.action_cursor_down()

    @on(RowList.Selected, "#search-hits")
    def open_hit(self) -> None:
        hit = self.current()
        if hit is None:
            return
        if hit.live and hit.item_id:
            self.to_briefing(hit.item_id)
            return
        if hit.teammate or not hit.session_id or not hit.project_slug:
            self.notify("A teammate's copy: its session is theirs, so it is shown here in full.")
            return
        navigator(self.app).open(HitSessionScreen(self._project_of(hit), hit.session_id, hit.item_id, now=self.now))

    def _project_of(self, hit: SearchHit) -> ProjectRef:
        if hit.project_slug == self.project.slug:
            return self.project
        return ProjectRef(slug=hit.project_slug or "", name=hit.project_slug or "")

    def to_briefing(self, item_id: str) -> BriefingScreen | None:
        """Back to the briefing with its cursor (and detail pane) on `item_id`."""
        briefing = next((s for s in self.app.screen_stack if isinstance(s, BriefingScreen)
                         and type(s) is BriefingScreen), None)
        if briefing is None:
            return None
        if not navigator(self.app).back_to(briefing):
            return None
        if briefing.filter_text:
            briefing.filter_text = ""
        if not focus_item(briefing, item_id):
            self.app.notify("That item is no longer in the briefing (it changed since the search).",
                            severity="warning")
            return None
        return briefing

    def action_verb(self, verb: str) -> None:
        targets = self.state.targets(self.current())
        not_live = [h for h in targets if not (h.live and h.item_id)]
        if not targets:
            return
        if not_live:
            log = self.action_log or getattr(self.app, "action_log", None)
            ids = tuple(h.item_id for h in not_live if h.item_id)
            reason = "not live in this project's briefing (search hit)"
            if log is not None:  # not waited for: the refusal is said at once
                self.run_worker(search_service.log_refused(log, project=self.project.slug, verb=verb, item_ids=ids,
                                                           reason=reason), group="search-log", exit_on_error=False)
            self.notify(f"{verb}: only a live hit of this project can be acted on; open the others to read them.",
                        severity="warning")
            return
        ids = [h.item_id for h in targets if h.item_id]
        briefing = self.to_briefing(ids[0])
        if briefing is None:
            return
        briefing.marked.clear()
        if len(ids) > 1:
            briefing.marked.update(ids)
        briefing.rebuild()
        focus_item(briefing, ids[0])
        briefing.action_verb(verb)
