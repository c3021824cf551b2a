"""The application: finds the project like daimon does, then shows its briefing."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.notifications import SeverityLevel
from textual.screen import Screen

from daimon_tui.domain.path_mask import PathMask
from daimon_tui.models import Briefing, ProjectRef
from daimon_tui.services import session
from daimon_tui.ui import terminal_end
from daimon_tui.ui.actions import bindings
from daimon_tui.ui.briefing.screen import BriefingScreen
from daimon_tui.ui.briefing.verbs import VerbRequest
from daimon_tui.ui.commands import ActionCommands
from daimon_tui.ui.heap import TICK_S, IdleCollector
from daimon_tui.ui.navigation import Navigator
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet

# daimon, pydantic and the store's readers (`services.session` imports them
# where each is used) are imported after the first frame: a later open draws it from the kept layout (`kept_open`).
if TYPE_CHECKING:
    from daimon_tui.domain import verbs
    from daimon_tui.services.action_log import ActionLog
    from daimon_tui.services.kept_open import KeptOpen
    from daimon_tui.settings import Settings


def _answered(confirming: asyncio.Future[Briefing]) -> Briefing | None:
    """daimon's confirmed briefing, if that request has answered already (and not failed)."""
    if not confirming.done() or confirming.cancelled() or confirming.exception() is not None:
        return None
    briefing = confirming.result()
    return None if briefing.provisional else briefing


# Views other modules provide: (module, class), imported when first opened
# (the first frame waits for every module imported at startup). A view whose
# module is not there says so instead of failing.
VIEWS = {
    "history": ("daimon_tui.ui.history.screen", "HistoryScreen"),
    "queue": ("daimon_tui.ui.queue.screen", "QueueScreen"),
    "audit": ("daimon_tui.ui.audit.screen", "AuditScreen"),
    "log": ("daimon_tui.ui.log.screen", "LogScreen"),
    "search": ("daimon_tui.ui.search.screen", "SearchScreen"),
    "health": ("daimon_tui.ui.health.screen", "HealthScreen"),
}


class DaimonTUI(App[int]):
    TITLE = "daimon-tui"
    CSS_PATH = sheet("app")  # the briefing's; each other view's with its screen (ui/style_sheets.py)
    COMMANDS = App.COMMANDS | {ActionCommands}
    BINDINGS = bindings({"Views", "App"})

    def __init__(
        self,
        *,
        project_path: str | None = None,
        slug: str | None = None,
        demo: bool = False,
        now: float | None = None,
        project: ProjectRef | None = None,
        action_log: ActionLog | None = None,
        settings: Settings | None = None,
        kept: KeptOpen | None = None,
        kept_read: bool = False,
    ) -> None:
        super().__init__()
        # A later open's kept frame, when the command line has read it already (`kept_read`): else read at mount.
        self._kept, self._kept_read = kept, kept_read
        self.settings_problem: str | None = None
        if settings is None and session.settings_written():
            settings, self.settings_problem = session.read_settings()
        # None: no settings file, the defaults (made when first asked for: they import pydantic)
        self._settings = settings
        # Not `self.log`: Textual's App already has a read-only `log`. Opened when first used (`action_log`).
        self._action_log = action_log
        self.project_path = project_path
        self.slug = slug
        self.demo = demo
        self.now = now
        self.project = project
        self.path_mask: PathMask | None = None
        if demo:
            self.sub_title = "demo store (temporary)"
            if project_path:
                from daimon_tui.services.demo import demo_place

                root, slug = demo_place(project_path)
                self.path_mask = PathMask(str(root), slug)
        # Run by `daimon-tui` (cli): the judging child starts early, or at a kept frame once it is drawn.
        self.launched_from_terminal = False
        self.heap = IdleCollector()
        self.textual_commands_open = False
        self.navigator = Navigator(self)

    def on_mount(self) -> None:
        # However the terminal ends (a hangup, a kill, a closed or failing
        # terminal), the app ends within 2 s, its child with it; a verb cut
        # off after its intent line is settled at the next start.
        terminal_end.install(self)
        self.heap.start()
        self.set_interval(TICK_S, self.heap.tick, name="idle-gc")
        settings = self._settings
        if settings is not None and settings.theme and settings.theme in self.available_themes:
            self.theme = settings.theme
        if settings is not None and settings.keys:
            self.set_keymap(settings.keys)
        if self.settings_problem:
            self.notify(self.settings_problem, title="settings", severity="warning", timeout=10)
        kept = self.kept_open()
        if kept is not None:
            # Once the mount's batch has ended: a screen drawn inside it is never displayed.
            self.call_later(self.open_kept, kept)
        else:
            self.open_start()

    def kept_open(self) -> KeptOpen | None:
        """This open's kept frame, if it has one. Read here, not in a worker: the briefing is then
        the app's first screen drawn (with a worker, Textual's blank default screen was drawn,
        resized and suspended first, ~20 ms of the frame), and the read is a few ms."""
        kept, self._kept = self._kept, None
        if self._kept_read or self.project is not None or self.demo:
            return kept
        from daimon_tui.services import kept_open

        return kept_open.read_now(self.project_path, self.slug)

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            from daimon_tui.settings import Settings

            self._settings = Settings()
        return self._settings

    def on_unmount(self) -> None:
        self.heap.stop()
        session.close_child()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.heap.touch()
            await self.navigator.until_mounted()  # a key never closes a screen still being built
        await super().on_event(event)

    @work(exclusive=True, group="start")
    async def open_start(self) -> None:
        session.rest_child_after(self.settings.judging_child_idle_s)
        if self.project is None:
            try:
                self.project = await session.resolve_project(self.project_path, self.slug)
            except Exception as exc:
                self.notify(f"cannot resolve the project: {type(exc).__name__}", severity="error")
                self.project = None
        project = self.project
        # With a judging child running already (started before Textual), daimon's
        # confirmation is asked now, beside the provisional read, not after its frame.
        confirming = (session.ask_confirmation(project, self.now)
                      if project is not None and session.child_started() else None)
        exists, receipts = (False, 0) if project is None else await session.first_look(project)
        if exists and project is not None:
            first = await self._first_paint(project, confirming)
            self.open_project(project, first=first, first_receipts=receipts, confirming=confirming)
            await self.remember_open(project)
        else:
            if confirming is not None:
                confirming.cancel()
            where = self.project.target if self.project else (self.project_path or "this directory")
            where = self.shown(where)
            from daimon_tui.ui.projects.screen import ProjectsScreen

            self.navigator.open(
                ProjectsScreen(self.project, reason=f"No daimon checkpoint for {where}. Projects that have one:"),
                self._switched,
            )

    def open_kept(self, kept: KeptOpen) -> None:
        """A later open: the briefing daimon last confirmed, drawn before daimon
        is imported (provisional, as the provisional read's); then daimon names
        the project, and the screen's confirmation replaces the frame."""
        self.project = kept.project
        self.sub_title = kept.project.name
        screen = BriefingScreen(kept.project, now=self.now, first=kept.briefing,
                                first_receipts=kept.receipt_failures, writes_disabled=kept.writes_disabled)
        self.navigator.replace_all(screen)
        self.after_kept_frame(kept, screen)

    @work(exclusive=True, group="start")
    async def after_kept_frame(self, kept: KeptOpen, screen: BriefingScreen) -> None:
        await screen.first_frame.drawn.wait()
        if self.launched_from_terminal:  # as `daimon-tui` starts it before its first frame otherwise
            session.start_child(self.project_path, self.slug)
        session.rest_child_after(self.settings.judging_child_idle_s)
        try:
            project = await session.resolve_project(self.project_path, self.slug)
        except Exception:  # the screen's own confirmation reports what daimon cannot read
            return
        if project != kept.project:  # daimon names another project now: the usual open of that one
            self.open_project(project)
        else:
            self.recover_interrupted(project)
        await self.remember_open(project)

    async def remember_open(self, project: ProjectRef) -> None:
        if self.demo:
            return
        from daimon_tui.services import kept_open

        await kept_open.remember(self.project_path, self.slug, project, session.writes_disabled())

    def shown(self, text: str) -> str:
        """Text naming store paths, as the person sees it (the demo's temporary directory masked)."""
        return self.path_mask.apply(text) if self.path_mask else text

    async def _first_paint(self, project: ProjectRef, confirming: asyncio.Future[Briefing] | None) -> Briefing | None:
        """The briefing the screen opens with: daimon's own answer if it came
        before the provisional read ended (a later open, the early child's kept
        answer), else the provisional read."""
        # a failed read is None: the screen's own read reports it; the confirmation still answers
        provisional = asyncio.ensure_future(session.provisional(project, self.now))
        if confirming is not None:
            await asyncio.wait((provisional, confirming), return_when=asyncio.FIRST_COMPLETED)
            confirmed = _answered(confirming)
            if confirmed is not None:
                return confirmed
        return await provisional

    @property
    def action_log(self) -> ActionLog:
        """The action log, opened when first used: a later open's first frame writes and reads none."""
        if self._action_log is None:
            from daimon_tui.services.action_log import open_log

            self._action_log = open_log()
        return self._action_log

    def open_project(self, project: ProjectRef, *, first: Briefing | None = None, first_receipts: int = 0,
                     confirming: asyncio.Future[Briefing] | None = None) -> None:
        self.project = project
        self.sub_title = ("demo store · " if self.demo else "") + project.name
        self.navigator.replace_all(BriefingScreen(project, now=self.now, first=first, first_receipts=first_receipts,
                                                  confirming=confirming))
        self.recover_interrupted(project)

    @work(group="recovery")
    async def recover_interrupted(self, project: ProjectRef) -> None:
        """Settle every intent an earlier run logged but never finished
        (killed between the intent and the outcome), from daimon's ledgers,
        and tell the person what became of each."""
        for note in await session.recover(self.action_log, project):
            self.notify(note.message, title="interrupted write", timeout=30,
                        severity="warning" if note.logged else "error")

    def _switched(self, project: ProjectRef | None) -> None:
        if project is not None:
            self.open_project(project)
        elif self.navigator.depth < 1:
            self.exit(return_code=1)  # the process status; `exit(1)` would set the result and exit 0

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette holds this app's commands; Textual's own (theme, keys
        panel, screenshot…) wait behind one entry that opens them."""
        if self.textual_commands_open:
            yield from super().get_system_commands(screen)
            return
        yield SystemCommand("Display and terminal (Textual)…", "Theme, keys panel, screenshot, maximize",
                            self.open_textual_commands)

    def open_textual_commands(self) -> None:
        from textual.command import CommandPalette
        from textual.system_commands import SystemCommandsProvider

        def closed(_result: object) -> None:
            self.textual_commands_open = False

        self.textual_commands_open = True
        self.navigator.open(CommandPalette(providers=[SystemCommandsProvider],
                                           placeholder="Textual: theme, keys panel, screenshot…"), closed)

    def notify(  # type: ignore[override]
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        # Notifications often carry store text (ids, paths, daimon's reasons):
        # never parse them as markup, whoever asks.
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    # ---- actions -------------------------------------------------------------

    def action_projects(self) -> None:
        from daimon_tui.ui.projects.screen import ProjectsScreen

        self.navigator.open(ProjectsScreen(self.project), self._switched)

    def action_help(self) -> None:
        from daimon_tui.ui.help.screen import HelpScreen

        self.navigator.open(HelpScreen(self.screen))

    def action_back(self) -> None:
        """`q`: back from a view; from the briefing, quit."""
        if self.navigator.back():
            return
        review = getattr(self.screen, "review", None)
        if review is not None and review.acted and not review.summary_shown and review.state is not None:
            review.show_summary(quitting=True)  # after verbs, the review's summary first; q again quits
            return
        self.exit(0)

    def action_escape(self) -> None:
        """Esc goes back and never quits (the briefing handles its own Esc)."""
        self.navigator.back()

    def action_view(self, name: str) -> None:
        if self.project is None:
            return
        screen_class = self.view_class(name)
        if screen_class is None:
            return
        # A view already open is returned to, not rebuilt (a second copy
        # would also collide on its id); else it opens over the briefing.
        stack = self.screen_stack
        depth = next((n for n, s in enumerate(stack) if n and type(s) is screen_class), None)
        self.navigator.back_to_depth(depth if depth is not None else 1)
        if depth is None:
            self.navigator.open(self.make_view(screen_class))

    def open_item(self, item_id: str | None) -> None:
        """Enter on another view's row: the item in the briefing, or why not."""
        if not item_id:
            self.notify("This row names no item.")
            return
        self.action_view("briefing")
        briefing = self.screen_stack[1] if len(self.screen_stack) > 1 else None
        if not isinstance(briefing, BriefingScreen) or not briefing.focus_item(item_id):
            self.notify(f"{item_id} is not in today's briefing: gone, superseded or forgotten. "
                        "History (2) holds the sessions that had it.", severity="warning")

    def view_class(self, name: str) -> type[Screen] | None:
        if name == "briefing":
            return BriefingScreen
        module_name, class_name = VIEWS[name]
        try:
            return getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):
            self.notify(f"The {name} view is not available in this build.", severity="warning")
            return None

    def make_view(self, screen_class: type[Screen]) -> Screen:
        if screen_class.__name__ == "LogScreen":
            return screen_class(self.project, log=self.action_log)
        if screen_class.__name__ in ("QueueScreen", "SearchScreen"):  # the app's clock: marks as the briefing's
            return screen_class(self.project, now=self.now, log=self.action_log)
        if screen_class.__name__ == "HealthScreen":
            return screen_class(self.project, now=self.now)
        return screen_class(self.project)

    def run_verb(self, request: VerbRequest, done: Callable[[VerbRequest, verbs.Outcome], None]) -> None:
        """Run a view's verb on the app, whose worker outlives a screen closed mid-write
        (an intent logged always gets its outcome); `done` hears how it ended."""
        if self.project is None:
            return
        self._verb_worker(request, done)

    @work(exclusive=True, group="verb")
    async def _verb_worker(self, request: VerbRequest, done: Callable[[VerbRequest, verbs.Outcome], None]) -> None:
        from daimon_tui.ui.verb_flow import run_verb

        assert self.project is not None
        outcome = await run_verb(self, request.verb, request.ids, self.project,  # type: ignore[arg-type]
                                 self.action_log, status=request.status, statuses=request.statuses,
                                 confirmed=request.confirmed, states=request.states, texts=request.texts)
        done(request, outcome)
