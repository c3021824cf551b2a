"""`o`: one item in a window over the list (a modal): its fields, whole text and quote, daimon's
evidence axes, the transcript around its quote and each witness's words, the
world's evidence, the witnesses and the lifecycle, with room to read them."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.events import ScreenResume
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from daimon_tui.domain.inert import inert
from daimon_tui.models import Item, ProjectRef
from daimon_tui.models.details import ItemDetails
from daimon_tui.ui.actions import bindings, everywhere_bindings
from daimon_tui.ui.item.evidence import EvidenceController
from daimon_tui.ui.item.full_text import full_text
from daimon_tui.ui.item.kept_lines import KeepsItsLines
from daimon_tui.ui.navigation import GoesBack
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.widgets.evidence import EvidencePanel
from daimon_tui.ui.widgets.item_detail import ItemDetail
from daimon_tui.ui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from daimon_tui.models.evidence import Evidence
    from daimon_tui.services.evidence import WorldEvidence

Extras = Callable[[ItemDetails], tuple[RenderableType, ...]]


class ItemViewDetail(KeepsItsLines, ItemDetail):
    """The item's fields and daimon's inspector, drawn once per width."""


class ItemViewEvidence(KeepsItsLines, EvidencePanel):
    """The transcript, witnesses and world, drawn once per width; shown again
    (`show_again`), with what it painted last when all of that still stands."""

    # What it painted last: a paint of the same changes nothing on screen (no new layout).
    painted: tuple[Item, Evidence | None, WorldEvidence | None] | None = None
    # Shown again with its settled paint, all of it current: this showing's read
    # first paints the turns alone, which are on screen already with the rest.
    ahead = False
    _unchanged = False  # the paint under way changes nothing on screen

    def _paint(self, item: Item, evidence: Evidence | None, world: WorldEvidence | None, *,
               loading: bool = False) -> None:
        painted = self.painted
        self._unchanged = (not loading and painted is not None and painted[0] is item
                           and (painted[1], painted[2]) == (evidence, world))
        if (self.ahead and painted is not None and painted[1] is not None and world is None
                and evidence == painted[1].model_copy(update={"witnesses": ()})):
            self._unchanged = True  # the turns alone: shown already, with the rest
        else:
            self.ahead = False
            self.painted = (item, evidence, world) if not loading else None
        super()._paint(item, evidence, world, loading=loading)

    def update(self, content: object = "", *, layout: bool = True) -> None:
        if self._unchanged:
            self._unchanged = False
            return
        super().update(content, layout=layout)

    def show_again(self, item: Item, project: ProjectRef | None, still: Callable[[], bool]) -> bool:
        """Paint what a fresh open shows, then read as a fresh open does; False when
        the turns' transcript changed (or there are none to show): build afresh.

        Its last paint stays when all of it stands: the turns and the witnesses'
        words (their transcripts as they were: `kept_now`) and a world of nothing
        (an item that names no file, branch or commit: that is a function of its
        text). Else the turns alone, as a fresh open paints them first."""
        from daimon_tui.services import evidence as evidence_service

        painted = self.painted
        if project is None or not item.id or painted is None or painted[1] is None:
            return False
        turns = evidence_service.kept_now(project, item.id, "item", self.brief)
        if turns is None or turns.error or turns.item is None:
            return False
        words = evidence_service.kept_now(project, item.id, "witnesses", self.brief)
        world = painted[2]
        settled = (words is not None and not words.error
                   and painted[1] == turns.model_copy(update={"witnesses": words.witnesses})
                   and (world is None if not project.path else world is not None and _shows_nothing(world)))
        self.item, self.still = item, still
        self.followed_at, self.painted_at = time.perf_counter(), None
        if settled:
            self._paint(item, painted[1], world)
            self.ahead = True
        else:
            self._paint(item, turns, None)
        self.read(item, project)
        return True


def _shows_nothing(world: WorldEvidence) -> bool:
    return not (world.files or world.refs or world.repo_error or world.errors)


class ItemViewFooter(KeyFooter):
    """The view's own keys. Closed (and kept), a change of its bindings recomposes
    nothing: that recompose laid the hidden view out again, a layout its next
    showing paid for before its first frame. It is owed, and made once shown."""

    owed = False

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen and not screen.is_current:
            self.owed = True
            return
        super().bindings_changed(screen)

    def shown_again(self) -> None:
        if self.owed:
            self.owed = False
            self.call_later(self._recompose_owed)  # from its own queue: Textual binds its keys to it

    def _recompose_owed(self) -> None:
        super().bindings_changed(self.screen)  # after the first frame, as a fresh open's


class ItemScreen(GoesBack, ModalScreen[None]):
    CSS_PATH = sheet("overlays")  # read when first opened, not at the first frame
    VIEW_NAME = "Item view (o)"

    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings({"Item"}),
        *bindings({"Evidence"}),
        # `?` first: the footer drops keys from its end when narrow.
        *sorted(everywhere_bindings(), key=lambda binding: binding.id != "help"),
    ]

    def __init__(self, item: Item, details: ItemDetails | None, extras: Extras,
                 *, read: Callable[[], Awaitable[ItemDetails]] | None = None,
                 ages_at: float | None = None, project: ProjectRef | None = None) -> None:
        super().__init__()
        self.item = item
        # The project whose transcripts and files are read (None: no evidence).
        self.project = project
        self.evidence = EvidenceController(project, self.current_item)  # type: ignore[arg-type]
        self.evidence.attach(self)
        self.details = details
        self.extras = extras
        # How to read the details when the pane had not yet: None leaves them out.
        self.read = read
        self.ages_at = ages_at
        # Which showing this is (`kept_view`: a closed view may be shown again): an
        # answer asked for an earlier one is dropped.
        self.showing = 0
        # Told when this view closes (`kept_view`: it removes a view it does not keep).
        self.on_closed: Callable[[ItemScreen], object] | None = None
        # Shown again with the styles it closed with (`show_again`): its resume restyles nothing.
        self.keeps_styles = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="item-full"):
            yield Static(Text(f"{inert(self.item.id or '(no id)', limit=80)} · esc closes", style="bold"),
                         id="item-full-title")
            yield ItemViewDetail(id="item-full-detail")
            yield ItemViewEvidence(brief=False, id="item-full-evidence")
            yield Static(Text("whole text", style="bold underline"))
            yield Static(Text(full_text(self.item)), id="item-full-text")
        # Its own keys: the briefing's footer is hidden beneath, and offered `q quit` where `q` closes.
        yield ItemViewFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#item-full-detail", ItemDetail).ages_at = self.ages_at
        self.paint()
        self.query_one("#item-full", VerticalScroll).focus()
        self.query_one(EvidencePanel).follow(self.item, self.project, still=self._still(self.showing))
        if self.details is None and self.read is not None and self.item.id:
            self.fetch(self.showing)

    def _still(self, showing: int) -> Callable[[], bool]:
        return lambda: self.showing == showing

    def on_screen_resume(self, event: ScreenResume) -> None:
        # Runs before Textual's own handler (its class comes first): a view shown again
        # has the styles it closed with (same theme and size: `kept_view`), so
        # restyling every node, which lays the whole view out anew, is skipped.
        if self.keeps_styles:
            event.refresh_styles = False
            self.keeps_styles = False
            self.query_one(ItemViewFooter).shown_again()

    def on_screen_suspend(self) -> None:
        if self not in self.app.screen_stack:  # closed, not covered by another view
            self.showing += 1
            if self.on_closed is not None:
                self.on_closed(self)

    def show_again(self, details: ItemDetails | None) -> bool:
        """Make this closed view what a fresh open shows, given daimon's answer the
        briefing holds now (`details`): the same answer, the turns' transcript as
        it was. False: something changed; build a fresh one."""
        if details is not self.details or (details is None and self.read is not None and bool(self.item.id)):
            return False
        self.showing += 1
        if not self.query_one(ItemViewEvidence).show_again(self.item, self.project, self._still(self.showing)):
            return False
        box = self.query_one("#item-full", VerticalScroll)
        box.scroll_home(animate=False, immediate=True)
        box.focus()
        self.keeps_styles = True
        return True

    def paint(self) -> None:
        detail = self.query_one("#item-full-detail", ItemDetail)
        if self.details is None:
            detail.show_item(self.item, None, loading=self.read is not None and bool(self.item.id))
        else:
            detail.show_item(self.item, self.details.inspection, extras=self.extras(self.details))

    @work(exclusive=True, group="item-full")
    async def fetch(self, showing: int) -> None:
        assert self.read is not None
        details = await self.read()
        if self.showing == showing and self.is_attached:
            self.details = details
            self.paint()

    def current_item(self) -> Item | None:
        return self.item

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While this view is open, the view below's `screen.…` keys (verbs, marks, `h`) resolve to it:
        # none runs here, so the footer beneath must not offer them.
        return hasattr(self, f"action_{action}")

    def action_scroll(self, delta: int) -> None:
        self.query_one("#item-full", VerticalScroll).scroll_relative(y=delta * 3, animate=False)

    # The `Evidence` keys, handed to the evidence controller.
    def action_copy(self, what: str) -> None:
        self.evidence.copy(what)

    async def action_open_transcript(self) -> None:
        await self.evidence.open_transcript()

    async def action_open_file(self) -> None:
        await self.evidence.open_file()
