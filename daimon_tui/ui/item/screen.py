"""`o`: one item in a window over the list (a modal): its fields, whole text and quote, daimon's
evidence axes, the transcript around its quote and each witness's words, the
world's evidence, the witnesses and the lifecycle, with room to read them."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
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
    """The transcript, witnesses and world, drawn once per width."""

    # The item's turns as painted first (before the witnesses and the world), with
    # the identity of what they were read from: what a view shown again paints.
    excerpt: Evidence | None = None

    def _paint(self, item: Item, evidence: Evidence | None, world: WorldEvidence | None, *,
               loading: bool = False) -> None:
        super()._paint(item, evidence, world, loading=loading)
        if evidence is not None and world is None and not evidence.witnesses:
            self.excerpt = evidence

    def show_again(self, item: Item, project: ProjectRef | None, still: Callable[[], bool]) -> bool:
        """Paint the turns as a fresh open first paints them, when what they were read
        from is as it was, then read the rest as a fresh open does. False: not current."""
        from daimon_tui.services import evidence as evidence_service

        excerpt = self.excerpt
        if (project is None or not item.id or excerpt is None or excerpt.identity is None
                or not evidence_service.still_current(project, excerpt)):
            return False
        self.item, self.still = item, still
        self.followed_at, self.painted_at = time.perf_counter(), None
        self._paint(item, excerpt, None)
        self.read(item, project)
        return True


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

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="item-full"):
            yield Static(Text(f"{inert(self.item.id or '(no id)', limit=80)} · esc closes", style="bold"),
                         id="item-full-title")
            yield ItemViewDetail(id="item-full-detail")
            yield ItemViewEvidence(brief=False, id="item-full-evidence")
            yield Static(Text("whole text", style="bold underline"))
            yield Static(Text(full_text(self.item)), id="item-full-text")
        # Its own keys: the briefing's footer is hidden beneath, and offered `q quit` where `q` closes.
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#item-full-detail", ItemDetail).ages_at = self.ages_at
        self.paint()
        self.query_one("#item-full", VerticalScroll).focus()
        self.query_one(EvidencePanel).follow(self.item, self.project, still=self._still(self.showing))
        if self.details is None and self.read is not None and self.item.id:
            self.fetch(self.showing)

    def _still(self, showing: int) -> Callable[[], bool]:
        return lambda: self.showing == showing

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
